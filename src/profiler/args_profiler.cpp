// Args mode: the mapper that chooses and decodes hooked methods, the enter hook, and the text
// of argument values.
#include "profiler/args_profiler.h"

#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "profiler/arg_text.h"
#include "profiler/emit_sink.h"
#include "profiler/wide_string.h"

namespace cil::profiler {

namespace {

using md::ElementType;
using md::TableId;

constexpr unsigned kMaxTypeDepth = 16;
constexpr size_t kMaxRanges = 64;

UINT_PTR mapper(FunctionID function, void* client, BOOL* hook) {
  try {
    return static_cast<ArgsProfiler*>(client)->map(function, hook);
  } catch (...) {
    if (hook) *hook = FALSE;
    return function;
  }
}

void enter_hook(FunctionIDOrClientID id, COR_PRF_ELT_INFO elt) {
  try {
    const auto* hooked = reinterpret_cast<const ArgsProfiler::Hooked*>(id.clientID);
    hooked->owner->enter(*hooked, elt);
  } catch (...) {
  }
}

void leave_hook(FunctionIDOrClientID id, COR_PRF_ELT_INFO elt) {
  try {
    const auto* hooked = reinterpret_cast<const ArgsProfiler::Hooked*>(id.clientID);
    hooked->owner->leave(*hooked, elt);
  } catch (...) {
  }
}

void tailcall_hook(FunctionIDOrClientID id, COR_PRF_ELT_INFO) {
  try {
    const auto* hooked = reinterpret_cast<const ArgsProfiler::Hooked*>(id.clientID);
    hooked->owner->tailcall(*hooked);
  } catch (...) {
  }
}

using Clock = std::chrono::steady_clock;

/// Per thread: the hooked calls in progress (innermost last) and the exception being dispatched.
struct Frame {
  const ArgsProfiler::Hooked* hooked;
  Clock::time_point start;
};
struct ThreadCalls {
  std::vector<Frame> frames;
  std::string exception;     ///< the type of the exception thrown last on this thread
  FunctionID unwinding = 0;  ///< a hooked function the unwind pass is in
  bool caught = false;       ///< ... whose catch clause took the exception
};
thread_local ThreadCalls t_calls;

/// The time since `hooked`'s entry on this thread, and its frame popped (with any frame above
/// it, left without a hook); empty when it was entered without the hook.
std::string elapsed_since_entry(const ArgsProfiler::Hooked& hooked) {
  auto& frames = t_calls.frames;
  for (size_t i = frames.size(); i-- > 0;) {
    if (frames[i].hooked != &hooked) continue;
    double micros = std::chrono::duration<double, std::micro>(Clock::now() - frames[i].start).count();
    frames.resize(i);
    return fmt::format(" ({:.1f} us)", micros);
  }
  return "";
}

/// Ns.Name of a TypeDef or TypeRef token of `m`, nested types Outer/Inner.
std::string token_type_name(const md::Module& m, md::Printer& printer, md::Token token, unsigned depth = 0) {
  if (auto def = m.find_row<TableId::TypeDef>(token)) return printer.type_def_name(def->id());
  if (auto ref = m.find_row<TableId::TypeRef>(token)) {
    std::string_view ns = ref->type_namespace();
    std::string_view name = ref->type_name();
    md::Token scope = ref->resolution_scope();
    if (md::token_table(scope) == TableId::TypeRef && depth < kMaxTypeDepth)
      return token_type_name(m, printer, scope, depth + 1) + "/" + std::string(name);
    return ns.empty() ? std::string(name) : fmt::format("{}.{}", ns, name);
  }
  return fmt::format("<type 0x{:08X}>", token);
}

/// The full name of the type TypeDef `rid` extends, or empty.
std::string base_type_name(const md::Module& m, md::Printer& printer, uint32_t rid) {
  md::Token extends = m.row<TableId::TypeDef>(rid).extends();
  if (!md::token_rid(extends) || md::token_table(extends) == TableId::TypeSpec) return "";
  return token_type_name(m, printer, extends);
}

bool is_primitive(ElementType e) {
  return (e >= ElementType::Boolean && e <= ElementType::R8) || e == ElementType::I || e == ElementType::U;
}

size_t primitive_size(ElementType e) {
  switch (e) {
    case ElementType::Boolean: case ElementType::I1: case ElementType::U1: return 1;
    case ElementType::Char: case ElementType::I2: case ElementType::U2: return 2;
    case ElementType::I4: case ElementType::U4: case ElementType::R4: return 4;
    default: return 8;
  }
}

bool is_reference(const md::TypeSig& t) {
  switch (t.element) {
    case ElementType::String: case ElementType::Class: case ElementType::Object:
    case ElementType::SzArray: case ElementType::Array: return true;
    case ElementType::GenericInst: return !t.children.empty() && t.children[0].element == ElementType::Class;
    default: return false;
  }
}

bool has_type_parameter(const md::TypeSig& t, unsigned depth = 0) {
  if (t.element == ElementType::Var || t.element == ElementType::MVar) return true;
  if (depth > kMaxTypeDepth) return false;
  for (const auto& child : t.children)
    if (has_type_parameter(child, depth + 1)) return true;
  return false;
}

std::string integer_text(const uint8_t* data, size_t size) {
  switch (size) {
    case 1: return fmt::format("{}", load<int8_t>(data));
    case 2: return fmt::format("{}", load<int16_t>(data));
    case 4: return fmt::format("{}", load<int32_t>(data));
    case 8: return fmt::format("{}", load<int64_t>(data));
    default: return "?";
  }
}

/// The full name of the type `type` extends, through the runtime's metadata; empty when none.
std::string import_base_type_name(IMetaDataImport2* import, mdTypeDef type) {
  mdToken extends = 0;
  DWORD flags = 0;
  if (FAILED(import->GetTypeDefProps(type, nullptr, 0, nullptr, &flags, &extends)) || IsNilToken(extends)) return "";
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  mdToken scope = 0;
  HRESULT hr = TypeFromToken(extends) == mdtTypeRef ? import->GetTypeRefProps(extends, &scope, name, kNameCapacity, &length)
               : TypeFromToken(extends) == mdtTypeDef ? import->GetTypeDefProps(extends, name, kNameCapacity, &length, nullptr, nullptr)
                                                      : E_FAIL;
  return SUCCEEDED(hr) ? wide_name(name, length) : "";
}

/// Parameter names 1..count through the runtime's metadata (empty where a Param row is missing).
std::vector<std::string> import_param_names(IMetaDataImport2* import, mdMethodDef method, size_t count) {
  std::vector<std::string> names(count);
  for (size_t i = 0; i < count; ++i) {
    mdParamDef param = 0;
    WCHAR name[kNameCapacity];
    ULONG length = 0;
    if (import->GetParamForMethodIndex(method, static_cast<ULONG>(i + 1), &param) == S_OK &&
        SUCCEEDED(import->GetParamProps(param, nullptr, nullptr, name, kNameCapacity, &length, nullptr, nullptr, nullptr,
                                        nullptr)))
      names[i] = wide_name(name, length);
  }
  return names;
}

}  // namespace

std::pair<DWORD, DWORD> ArgsProfiler::event_mask() const {
  DWORD low = COR_PRF_MONITOR_ENTERLEAVE | COR_PRF_ENABLE_FUNCTION_ARGS | COR_PRF_ENABLE_FUNCTION_RETVAL |
              COR_PRF_ENABLE_FRAME_INFO | COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_CACHE_SEARCHES |
              COR_PRF_MONITOR_EXCEPTIONS;
  // Precompiled framework code has no hooks (see count mode).
  if (config_.framework_selected) low |= COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_ALL_NGEN_IMAGES;
  return {low, 0};
}

Status ArgsProfiler::start() {
  log_ = CIL_TRY(LineLog::create(output_file("args.log"), false));
  threads_ = std::make_unique<ThreadTags>(info());
  auto* info3 = static_cast<ICorProfilerInfo3*>(info());
  if (HRESULT hr = info3->GetStringLayout2(&string_length_offset_, &string_buffer_offset_); FAILED(hr))
    return com_error("GetStringLayout2", hr);
  if (HRESULT hr = info3->SetFunctionIDMapper2(&mapper, this); FAILED(hr)) return com_error("SetFunctionIDMapper2", hr);
  if (HRESULT hr = info3->SetEnterLeaveFunctionHooks3WithInfo(&enter_hook, &leave_hook, &tailcall_hook); FAILED(hr))
    return com_error("SetEnterLeaveFunctionHooks3WithInfo", hr);
  return ok();
}

void ArgsProfiler::finish() { log_->flush(); }

bool ArgsProfiler::selects(FunctionID function) {
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken token = 0;
  if (FAILED(info()->GetFunctionInfo(function, &klass, &module, &token)) || !module || TypeFromToken(token) != mdtMethodDef)
    return false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = decisions_.find({module, token}); it != decisions_.end()) return it->second;
  }
  auto entry = modules_->get(module);
  if (!entry) return false;  // not described yet: ask again next time
  bool chosen = !module_left_out(*entry) && config_.filter.selects(modules_->method_name(*entry, token));
  std::lock_guard lock(mutex_);
  decisions_.emplace(std::make_pair(module, token), chosen);
  return chosen;
}

HRESULT ArgsProfiler::JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) {
  // Precompiled code has no enter hook.
  return guarded("JITCachedFunctionSearchStarted", [&] {
    if (use_cached && selects(function)) *use_cached = FALSE;
  });
}

HRESULT ArgsProfiler::JITInlining(FunctionID, FunctionID callee, BOOL* should_inline) {
  // An inlined call has no enter hook.
  return guarded("JITInlining", [&] {
    if (should_inline && selects(callee)) *should_inline = FALSE;
  });
}

std::unique_ptr<ArgsProfiler::Hooked> ArgsProfiler::describe(FunctionID function, ModuleEntry& entry, mdMethodDef token) {
  auto hooked = std::make_unique<Hooked>();
  hooked->owner = this;
  hooked->id = function;
  hooked->name = modules_->method_name(entry, token);
  std::vector<uint8_t> signature;
  std::vector<std::string> names;
  modules_->with_file(entry, [&](const md::Module* file, md::Printer* printer) {
    uint32_t rid = RidFromToken(token);
    if (!file || !file->tables().valid_rid(TableId::MethodDef, rid)) return;
    if (auto blob = file->row<TableId::MethodDef>(rid).signature()) signature.assign(blob->begin(), blob->end());
    for (md::ParamId p : file->params_of(md::MethodDefId(rid))) {
      auto param = file->row(p);
      uint32_t sequence = param.sequence();
      if (sequence == 0) continue;
      if (names.size() < sequence) names.resize(sequence);
      names[sequence - 1] = std::string(param.name());
    }
    if (uint32_t owner = file->method_owner(md::MethodDefId(rid)).value()) {
      hooked->this_type = printer->type_def_name(md::TypeDefId(owner));
      std::string base = base_type_name(*file, *printer, owner);
      hooked->this_is_value = (base == "System.ValueType" || base == "System.Enum") && hooked->this_type != "System.Enum";
    }
  });
  // No file (a module loaded from bytes, a dynamic one): the runtime's metadata has it all too.
  ComPtr<IMetaDataImport2> import;
  if (signature.empty() &&
      SUCCEEDED(info()->GetModuleMetaData(entry.id, ofRead, IID_IMetaDataImport2, import.out_as<IUnknown>())) && import) {
    PCCOR_SIGNATURE sig = nullptr;
    ULONG size = 0;
    mdTypeDef owner = 0;
    if (SUCCEEDED(import->GetMethodProps(token, &owner, nullptr, 0, nullptr, nullptr, &sig, &size, nullptr, nullptr)) && sig)
      signature.assign(sig, sig + size);
    if (!IsNilToken(owner)) {
      hooked->this_type = modules_->type_name(entry, owner);
      std::string base = import_base_type_name(import.get(), owner);
      hooked->this_is_value = (base == "System.ValueType" || base == "System.Enum") && hooked->this_type != "System.Enum";
    }
  }
  auto sig = md::decode_method_sig(ByteReader(signature, 0, "method signature"));
  if (!sig) {
    diagnostics_.warn(fmt::format("{}: arguments not shown: {}", hooked->name, sig.error().to_string()));
    return hooked;
  }
  hooked->has_this = sig->has_this() && !sig->explicit_this();
  hooked->vararg = sig->kind() == md::kCallVarArg;
  size_t count = sig->sentinel >= 0 ? static_cast<size_t>(sig->sentinel) : sig->params.size();
  if (import) names = import_param_names(import.get(), token, count);
  modules_->with_file(entry, [&](const md::Module* file, md::Printer* printer) {
    for (size_t i = 0; i <= count; ++i) {
      // The parameters, then the return type (i == count) described the same way.
      bool is_return = i == count;
      if (is_return && sig->return_type.is_void()) break;
      Param p;
      p.type = is_return ? sig->return_type : sig->params[i];
      p.name = is_return ? "return" : i < names.size() && !names[i].empty() ? names[i] : fmt::format("arg{}", i + 1);
      const md::TypeSig* shown = &p.type;
      if (shown->element == ElementType::ByRef && !shown->children.empty()) shown = &shown->children[0];
      if (shown->element == ElementType::GenericInst && !shown->children.empty()) shown = &shown->children[0];
      if ((shown->element == ElementType::ValueType || shown->element == ElementType::Class) && file) {
        p.type_name = token_type_name(*file, *printer, shown->token);
        if (md::token_table(shown->token) == TableId::TypeDef &&
            file->tables().valid_rid(TableId::TypeDef, md::token_rid(shown->token)))
          p.is_enum = base_type_name(*file, *printer, md::token_rid(shown->token)) == "System.Enum";
      } else if (shown->element == ElementType::ValueType || shown->element == ElementType::Class) {
        p.type_name = fmt::format("<type 0x{:08X}>", shown->token);
      }
      hooked->generic = hooked->generic || has_type_parameter(p.type);
      if (is_return) {
        hooked->returns = true;
        hooked->ret = std::move(p);
      } else {
        hooked->params.push_back(std::move(p));
      }
    }
  });
  return hooked;
}

UINT_PTR ArgsProfiler::map(FunctionID function, BOOL* hook) {
  *hook = FALSE;
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken token = 0;
  if (FAILED(info()->GetFunctionInfo(function, &klass, &module, &token)) || !module || TypeFromToken(token) != mdtMethodDef)
    return function;
  if (!selects(function)) return function;
  auto entry = modules_->get(module);
  if (!entry) return function;
  std::unique_ptr<Hooked> hooked = describe(function, *entry, token);
  hooked->module = entry;
  std::lock_guard lock(mutex_);
  hooked_.push_back(std::move(hooked));
  *hook = TRUE;
  return reinterpret_cast<UINT_PTR>(hooked_.back().get());
}

std::string ArgsProfiler::object_text(ObjectID object) {
  if (!object) return "null";
  ClassID klass = 0;
  if (FAILED(info()->GetClassFromObject(object, &klass))) return "?";
  std::string name = modules_->class_name(klass);
  if (name == "System.String") {
    // Objects cannot move while the hook runs: the thread is in cooperative mode.
    auto* base = reinterpret_cast<const uint8_t*>(object);
    int32_t length = load<int32_t>(base + string_length_offset_);
    if (length < 0) return name;
    return string_literal(std::u16string_view(reinterpret_cast<const char16_t*>(base + string_buffer_offset_),
                                              static_cast<size_t>(length)));
  }
  // A boxed primitive: its value follows the method table pointer.
  if (auto element = primitive_of(name))
    if (auto text = primitive_text(*element, reinterpret_cast<const uint8_t*>(object) + sizeof(void*), 8))
      return fmt::format("{}({})", name, *text);
  return name;
}

bool ArgsProfiler::is_value_class(ClassID klass) {
  CorElementType element{};
  ClassID element_class = 0;
  ULONG rank = 0;
  if (info()->IsArrayClass(klass, &element, &element_class, &rank) == S_OK) return false;
  for (unsigned depth = 0; klass && depth < kMaxTypeDepth; ++depth) {
    ModuleID module = 0;
    mdTypeDef token = 0;
    ClassID parent = 0;
    ULONG32 count = 0;
    if (FAILED(info()->GetClassIDInfo2(klass, &module, &token, &parent, 0, &count, nullptr)) || !parent) return false;
    std::string name = modules_->class_name(parent);
    if (name == "System.ValueType") return depth > 0 || modules_->class_name(klass) != "System.Enum";
    klass = parent;
  }
  return false;
}

std::string ArgsProfiler::class_value_text(ClassID klass, const uint8_t* data, size_t size) {
  std::string name = modules_->class_name(klass);
  if (auto element = primitive_of(name))
    if (auto text = primitive_text(*element, data, size)) return *text;
  if (is_value_class(klass)) return name;
  return size >= sizeof(ObjectID) ? object_text(load<ObjectID>(data)) : "?";
}

std::string ArgsProfiler::value_text(const md::TypeSig& type, const Param* param, const uint8_t* data, size_t size,
                                     const std::vector<ClassID>& class_args, const std::vector<ClassID>& method_args) {
  if (is_primitive(type.element)) return primitive_text(type.element, data, size).value_or("?");
  if (is_reference(type)) return size >= sizeof(ObjectID) ? object_text(load<ObjectID>(data)) : "?";
  switch (type.element) {
    case ElementType::ValueType:
    case ElementType::GenericInst: {
      std::string name = param ? param->type_name : "struct";
      if (param && param->is_enum) return fmt::format("{}({})", name, integer_text(data, size));
      if (type.element == ElementType::GenericInst && type.children.size() == 2) {
        const md::TypeSig& arg = type.children[1];
        // Nullable<T> of a primitive: { bool hasValue; T value }, the value aligned to its size.
        if (name == "System.Nullable`1" && is_primitive(arg.element) && size >= 1) {
          if (data[0] == 0) return "null";
          size_t at = std::min<size_t>(primitive_size(arg.element), 8);
          if (size >= at + primitive_size(arg.element)) return primitive_text(arg.element, data + at, size - at).value_or("?");
        }
        // Span<T> and ReadOnlySpan<T>: { ref T reference; int length }: the length, not the
        // memory (which the method may not own any more).
        if ((name == "System.Span`1" || name == "System.ReadOnlySpan`1") && size >= sizeof(void*) + 4)
          return fmt::format("{}(length {})", name, load<int32_t>(data + sizeof(void*)));
      }
      return name;
    }
    case ElementType::Var:
    case ElementType::MVar: {
      const auto& args = type.element == ElementType::Var ? class_args : method_args;
      if (type.number < args.size()) return class_value_text(args[type.number], data, size);
      return "?";
    }
    case ElementType::ByRef: {
      if (size < sizeof(uintptr_t) || type.children.empty()) return "ref ?";
      auto* target = reinterpret_cast<const uint8_t*>(load<uintptr_t>(data));
      if (!target) return "ref null";
      const md::TypeSig& inner = type.children[0];
      if (is_primitive(inner.element) || is_reference(inner))
        return "ref " + value_text(inner, param, target, is_primitive(inner.element) ? primitive_size(inner.element) : 8,
                                   class_args, method_args);
      return "ref " + (param && !param->type_name.empty() ? param->type_name : std::string("?"));
    }
    case ElementType::Ptr:
    case ElementType::FnPtr:
      return size >= 8 ? fmt::format("0x{:x}", load<uint64_t>(data)) : "?";
    case ElementType::TypedByRef: return "typedref";
    default: return "?";
  }
}

void ArgsProfiler::enter(const Hooked& hooked, COR_PRF_ELT_INFO elt) {
  alignas(8) uint8_t buffer[argument_info_size(kMaxRanges)];
  auto* args = reinterpret_cast<COR_PRF_FUNCTION_ARGUMENT_INFO*>(buffer);
  ULONG size = sizeof(buffer);
  COR_PRF_FRAME_INFO frame = 0;
  auto* info3 = static_cast<ICorProfilerInfo3*>(info());
  std::string text = fmt::format("[{}] enter {}(", threads_->current(), hooked.name);
  HRESULT hr = info3->GetFunctionEnter3Info(hooked.id, elt, &frame, &size, args);
  size_t expected = (hooked.has_this ? 1 : 0) + hooked.params.size();
  if (FAILED(hr)) {
    text += fmt::format("<arguments unavailable: HRESULT 0x{:08X}>", static_cast<uint32_t>(hr));
  } else if (args->numRanges < expected) {
    text += fmt::format("<{} argument ranges for {} arguments>", args->numRanges, expected);
  } else {
    std::vector<ClassID> class_args, method_args;
    if (hooked.generic) generic_args(hooked.id, frame, class_args, method_args);
    size_t range = 0;
    if (hooked.has_this) {
      const auto& r = args->ranges[range++];
      if (hooked.this_is_value || r.length < sizeof(ObjectID)) {
        text += "this=" + hooked.this_type;
      } else {
        ObjectID self = load<ObjectID>(reinterpret_cast<const uint8_t*>(r.startAddress));
        ClassID klass = 0;
        text += "this=" + (self && SUCCEEDED(info()->GetClassFromObject(self, &klass)) ? modules_->class_name(klass)
                                                                                      : hooked.this_type);
      }
    }
    for (const Param& p : hooked.params) {
      const auto& r = args->ranges[range++];
      if (range > 1) text += ", ";
      text += p.name + "=" +
              value_text(p.type, &p, reinterpret_cast<const uint8_t*>(r.startAddress), r.length, class_args, method_args);
    }
    if (hooked.vararg) text += ", ...";
  }
  text += ')';
  log_->line(text);
  t_calls.frames.push_back({&hooked, Clock::now()});
}

void ArgsProfiler::generic_args(FunctionID function, COR_PRF_FRAME_INFO frame, std::vector<ClassID>& class_args,
                                std::vector<ClassID>& method_args) {
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken token = 0;
  ULONG32 count = 0;
  ClassID types[32];
  if (SUCCEEDED(info()->GetFunctionInfo2(function, frame, &klass, &module, &token, 32, &count, types)))
    method_args.assign(types, types + std::min<ULONG32>(count, 32));
  mdTypeDef type_token = 0;
  ClassID parent = 0;
  if (klass && SUCCEEDED(info()->GetClassIDInfo2(klass, &module, &type_token, &parent, 32, &count, types)))
    class_args.assign(types, types + std::min<ULONG32>(count, 32));
}

void ArgsProfiler::leave(const Hooked& hooked, COR_PRF_ELT_INFO elt) {
  std::string text = fmt::format("[{}] leave {}", threads_->current(), hooked.name);
  if (hooked.returns) {
    COR_PRF_FRAME_INFO frame = 0;
    COR_PRF_FUNCTION_ARGUMENT_RANGE range{};
    auto* info3 = static_cast<ICorProfilerInfo3*>(info());
    if (HRESULT hr = info3->GetFunctionLeave3Info(hooked.id, elt, &frame, &range); FAILED(hr)) {
      text += fmt::format(" -> <return value unavailable: HRESULT 0x{:08X}>", static_cast<uint32_t>(hr));
    } else {
      std::vector<ClassID> class_args, method_args;
      if (hooked.generic) generic_args(hooked.id, frame, class_args, method_args);
      text += " -> " + value_text(hooked.ret.type, &hooked.ret, reinterpret_cast<const uint8_t*>(range.startAddress),
                                  range.length, class_args, method_args);
    }
  }
  text += elapsed_since_entry(hooked);
  log_->line(text);
}

void ArgsProfiler::tailcall(const Hooked& hooked) {
  log_->line(fmt::format("[{}] leave {} by a tail call{}", threads_->current(), hooked.name, elapsed_since_entry(hooked)));
}

HRESULT ArgsProfiler::ExceptionThrown(ObjectID thrown) {
  return guarded("ExceptionThrown", [&] {
    ClassID klass = 0;
    t_calls.exception = thrown && SUCCEEDED(info()->GetClassFromObject(thrown, &klass)) ? modules_->class_name(klass) : "?";
  });
}

HRESULT ArgsProfiler::ExceptionUnwindFunctionEnter(FunctionID function) {
  return guarded("ExceptionUnwindFunctionEnter", [&] {
    // Only a hooked call in progress on this thread: the innermost one.
    t_calls.unwinding = 0;
    t_calls.caught = false;
    if (!t_calls.frames.empty() && t_calls.frames.back().hooked->id == function) t_calls.unwinding = function;
  });
}

HRESULT ArgsProfiler::ExceptionCatcherEnter(FunctionID function, ObjectID) {
  // The unwind pass also enters the function that catches: that call goes on.
  if (function == t_calls.unwinding) t_calls.caught = true;
  return S_OK;
}

HRESULT ArgsProfiler::ExceptionUnwindFunctionLeave() {
  return guarded("ExceptionUnwindFunctionLeave", [&] {
    if (!t_calls.unwinding || t_calls.caught || t_calls.frames.empty()) return;
    const Hooked& hooked = *t_calls.frames.back().hooked;
    t_calls.unwinding = 0;
    log_->line(fmt::format("[{}] leave {} threw {}{}", threads_->current(), hooked.name, t_calls.exception,
                           elapsed_since_entry(hooked)));
  });
}

}  // namespace cil::profiler
