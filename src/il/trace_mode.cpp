// Trace mode: hook references, the guarded hook calls, and the try/filter/finally wrap per method.
#include "il/trace_mode.h"

#include <algorithm>

#include <fmt/format.h>

#include "il/code_builder.h"
#include "il/constructor.h"
#include "il/rewrite.h"
#include "il/helper_attributes.h"
#include "il/rewriter.h"
#include "il/tail_calls.h"
#include "metadata/signature.h"
#include "metadata/text_encoding.h"

namespace cil::il {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

Error trace_error(std::string message) { return make_error(ErrorKind::Unsupported, "trace", std::move(message)); }

std::vector<uint8_t> encode(const TypeSig& t) {
  std::vector<uint8_t> out;
  encode_type(out, t);
  return out;
}

std::vector<uint8_t> method_sig(bool has_this, const TypeSig& ret, const std::vector<TypeSig>& params) {
  return md::method_signature(has_this, ret, params);
}

/// Value types of the base libraries that are byref-like (ref structs): boxing one is invalid IL.
/// Types defined in the module itself are recognised by their IsByRefLikeAttribute instead.
bool known_byref_like(std::string_view ns, std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kKnown[] = {
      {"System", "Span`1"},
      {"System", "ReadOnlySpan`1"},
      {"System", "TypedReference"},
      {"System", "ArgIterator"},
      {"System", "RuntimeArgumentHandle"},
      {"System.Runtime.CompilerServices", "DefaultInterpolatedStringHandler"},
      {"System.Text.Json", "Utf8JsonReader"},
      {"System.Buffers", "SequenceReader`1"},
      {"System.Text", "SpanRuneEnumerator"},
      {"System", "MemoryExtensions/SpanSplitEnumerator`1"},
  };
  for (auto [n, t] : kKnown)
    if (n == ns && t == name) return true;
  return false;
}

}  // namespace

/// Everything the code for one method needs.
struct TraceMode::Context {
  uint32_t rid = 0;
  std::string name;
  Token token = 0;
  md::MethodSig sig;
  bool is_static = false;
  Box self;                      ///< how `this` is passed (a value type's `this` is boxed from a copy)
  std::optional<uint32_t> state, exception, result;  ///< locals
  std::optional<uint32_t> tail_flag;  ///< local: set when the method leaves by a tail call
  // Interception locals: OnEnter's verdict (skip the body) and result, OnLeave's replaceable
  // result, the entry timestamp, OnException's verdict.
  std::optional<uint32_t> skip, enter_result, leave_result, start_ticks, replacement, handled;
  std::optional<uint32_t> default_result;  ///< a local of the return type, for its default
  md::Token result_type = 0;               ///< the return type's token (unbox.any, initobj)
  Box result_box;
  BodyModel* body = nullptr;
  std::vector<EhRegion> guard_clauses;
};

Expected<TraceMode> TraceMode::begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, const HookContract& contract) {
  TraceMode mode;
  mode.editor_ = &editor;
  mode.refs_ = &refs;
  mode.contract_ = &contract;
  const md::Module& m = editor.module();
  std::string_view own = m.tables().rows(TableId::Assembly) ? m.row<TableId::Assembly>(1).name() : std::string_view();
  if (own == contract.assembly)
    return make_error(ErrorKind::Usage, "trace", fmt::format("{} is the hooks assembly itself: its methods are never instrumented", own));

  mode.object_ = CIL_TRY(refs.type("System", "Object"));
  mode.exception_ = CIL_TRY(refs.type("System", "Exception"));
  md::AssemblyRefSpec hooks;
  hooks.name = contract.assembly;
  std::copy(std::begin(contract.version), std::end(contract.version), hooks.version);
  hooks.public_key_token = contract.public_key_token;
  hooks.culture = contract.culture;
  Token hooks_ref = CIL_TRY(editor.assembly_ref(hooks));
  Token hook_type = CIL_TRY(editor.type_ref(hooks_ref, contract.type_namespace, contract.type_name));
  auto param_type = [&](HookParam p) -> TypeSig {
    switch (p) {
      case HookParam::Method: return md::primitive(ElementType::String);
      case HookParam::Token: return md::primitive(ElementType::I4);
      case HookParam::Args: return md::wrap(ElementType::SzArray, md::primitive(ElementType::Object));
      case HookParam::Exception: return md::class_type(mode.exception_);
      default: return md::primitive(ElementType::Object);
    }
  };
  auto hook_params = [&](const HookMethod& h) {
    std::vector<TypeSig> params;
    for (HookParam p : h.params) {
      if (p == HookParam::Result && h.result_by_ref) params.push_back(md::wrap(ElementType::ByRef, md::primitive(ElementType::Object)));
      else if (p == HookParam::Elapsed) params.push_back(md::primitive(ElementType::I8));
      else params.push_back(param_type(p));
    }
    return params;
  };
  auto return_type = [&](const HookMethod& h) -> TypeSig {
    switch (h.returns) {
      case HookReturn::Object: return md::primitive(ElementType::Object);
      case HookReturn::Bool: return md::primitive(ElementType::Boolean);
      case HookReturn::Exception: return md::class_type(mode.exception_);
      case HookReturn::Void: break;
    }
    return md::primitive(ElementType::Void);
  };
  auto hook_ref = [&](const HookMethod& h) -> Expected<Token> {
    if (!h.present) return Token{0};
    return editor.member_ref(hook_type, h.name, method_sig(false, return_type(h), hook_params(h)));
  };
  mode.on_enter_ = CIL_TRY(hook_ref(contract.on_enter));
  mode.on_leave_ = CIL_TRY(hook_ref(contract.on_leave));
  mode.on_exception_ = CIL_TRY(hook_ref(contract.on_exception));
  if (contract.on_leave.wants(HookParam::Elapsed)) {
    // System.Diagnostics.Stopwatch: in the core library on .NET and in netstandard, in System on
    // .NET Framework and Mono.
    Token stopwatch = refs.kind() == md::CoreLibraryKind::Mscorlib && !refs.self()
                          ? CIL_TRY(refs.type_in(refs.process_assembly(), "System.Diagnostics", "Stopwatch"))
                          : CIL_TRY(refs.type("System.Diagnostics", "Stopwatch"));
    mode.get_timestamp_ = CIL_TRY(refs.member(stopwatch, "GetTimestamp", method_sig(false, md::primitive(ElementType::I8), {})));
  }

  // The re-entrancy guard: a ThreadLocal<bool> (a [ThreadStatic] field would need a
  // CustomAttribute row, and that sorted table cannot grow without moving existing tokens).
  Token thread_local_def = CIL_TRY(refs.type("System.Threading", "ThreadLocal`1"));
  TypeSig inst;
  inst.element = ElementType::GenericInst;
  inst.children.push_back(md::class_type(thread_local_def));
  inst.children.push_back(md::primitive(ElementType::Boolean));
  Token thread_local_type = CIL_TRY(editor.type_spec(encode(inst)));
  TypeSig var0;
  var0.element = ElementType::Var;
  mode.guard_ctor_ = CIL_TRY(editor.member_ref(thread_local_type, ".ctor", method_sig(true, md::primitive(ElementType::Void), {})));
  mode.guard_get_ = CIL_TRY(editor.member_ref(thread_local_type, "get_Value", method_sig(true, var0, {})));
  mode.guard_set_ = CIL_TRY(editor.member_ref(thread_local_type, "set_Value", method_sig(true, md::primitive(ElementType::Void), {var0})));

  bool field_ptr = m.tables().rows(TableId::FieldPtr) > 0;
  bool method_ptr = m.tables().rows(TableId::MethodPtr) > 0;
  uint32_t field_list = (field_ptr ? editor.rows(TableId::FieldPtr) : editor.rows(TableId::Field)) + 1;
  uint32_t method_list = (method_ptr ? editor.rows(TableId::MethodPtr) : editor.rows(TableId::MethodDef)) + 1;
  uint32_t param_list = (m.tables().rows(TableId::ParamPtr) ? editor.rows(TableId::ParamPtr) : editor.rows(TableId::Param)) + 1;
  Token helper = CIL_TRY(editor.add(md::TypeDefRow{.flags = kStaticClass,
                                                    .type_name = "<CilInstrument>",
                                                    .extends = mode.object_,
                                                    .field_list = field_list,
                                                    .method_list = method_list}));
  mode.helper_type_ = md::token_rid(helper);
  std::vector<uint8_t> field_sig{md::kSigField};
  md::encode_type(field_sig, inst);
  mode.guard_field_ = CIL_TRY(editor.add(md::FieldRow{.flags = kHelperField, .name = "inHook", .signature = field_sig}));
  if (field_ptr) CIL_TRY(editor.add(md::FieldPtrRow{.field = md::token_rid(mode.guard_field_)}));
  mode.cctor_ = CIL_TRY(editor.add(md::MethodDefRow{.flags = kTypeInitializer,
                                                    .name = ".cctor",
                                                    .signature = method_sig(false, md::primitive(ElementType::Void), {}),
                                                    .param_list = param_list}));
  if (method_ptr) CIL_TRY(editor.add(md::MethodPtrRow{.method = md::token_rid(mode.cctor_)}));
  if (contract.on_exception.present) {
    mode.guarded_on_exception_ =
        CIL_TRY(editor.add(md::MethodDefRow{.flags = kHelperMethod,
                                            .name = "OnException",
                                            .signature = method_sig(false, return_type(contract.on_exception),
                                                                    hook_params(contract.on_exception)),
                                            .param_list = param_list}));
    if (method_ptr) CIL_TRY(editor.add(md::MethodPtrRow{.method = md::token_rid(mode.guarded_on_exception_)}));
  }
  return mode;
}

Status TraceMode::finish(CallEffects& effects) {
  BodyModel body;
  CodeBuilder c(body);
  c.emit(Op::Newobj, guard_ctor_);
  c.emit(Op::Stsfld, guard_field_);
  c.emit(Op::Ret);
  body.instrs = c.take();
  body.max_stack = CIL_TRY(compute_max_stack(body, false, effects));
  EncodedBody encoded = CIL_TRY(rewrite_body(std::move(body), {}));
  CIL_TRY(editor_->set_method_body(md::token_rid(cctor_), encoded.bytes));
  if (!guarded_on_exception_) return ok();

  // OnException(<the hook's parameters>): skipped inside another hook; a throwing hook ignored.
  // An intercepting hook's result is returned: false or null when it was skipped or threw.
  BodyModel call;
  bool returns = contract_->on_exception.returns != HookReturn::Void;
  std::optional<uint32_t> verdict;
  if (returns) {
    LocalsBuilder locals = CIL_TRY(LocalsBuilder::open(*editor_, 0));
    verdict = locals.add(encode(contract_->on_exception.returns == HookReturn::Bool ? md::primitive(ElementType::Boolean)
                                                                                      : md::class_type(exception_)));
    call.local_sig_token = CIL_TRY(locals.commit(*editor_));
    call.init_locals = true;
  }
  CodeBuilder g(call);
  uint32_t skip = g.new_label(), after = g.new_label();
  g.emit(Op::Ldsfld, guard_field_);
  g.emit(Op::Callvirt, guard_get_);
  g.branch(Op::Brtrue_S, skip);
  g.emit(Op::Ldsfld, guard_field_);
  g.ldc_i4(1);
  g.emit(Op::Callvirt, guard_set_);
  std::vector<Instr> head = g.take();
  for (size_t i = 0; i < contract_->on_exception.params.size(); ++i) g.ldarg(static_cast<uint32_t>(i));
  g.emit(Op::Call, on_exception_);
  if (verdict) g.stloc(*verdict);
  g.branch(Op::Leave_S, after);
  std::vector<Instr> protected_code = g.take();
  g.emit(Op::Pop);
  g.branch(Op::Leave_S, after);
  std::vector<Instr> handler = g.take();
  g.mark(after);
  g.emit(Op::Ldsfld, guard_field_);
  g.ldc_i4(0);
  g.emit(Op::Callvirt, guard_set_);
  g.mark(skip);
  if (verdict) g.ldloc(*verdict);
  g.emit(Op::Ret);
  std::vector<Instr> tail = g.take();
  EhRegion guard;
  guard.kind = ClauseKind::Catch;
  guard.try_start = protected_code.front().id;
  guard.try_end = handler.front().id;
  guard.handler_start = handler.front().id;
  guard.handler_end = after;
  guard.class_token = exception_;
  for (auto* part : {&head, &protected_code, &handler, &tail}) call.instrs.insert(call.instrs.end(), part->begin(), part->end());
  call.clauses.push_back(guard);
  call.max_stack = CIL_TRY(compute_max_stack(call, returns, effects));
  EncodedBody guarded = CIL_TRY(rewrite_body(std::move(call), {}));
  return editor_->set_method_body(md::token_rid(guarded_on_exception_), guarded.bytes);
}

bool TraceMode::is_byref_like(Token type) {
  const md::Module& m = editor_->module();
  const auto& t = m.tables();
  if (!byref_like_scanned_) {
    byref_like_scanned_ = true;
    // TypeDefs carrying System.Runtime.CompilerServices.IsByRefLikeAttribute.
    for (uint32_t row = 1; row <= t.rows(TableId::CustomAttribute); ++row) {
      auto attribute = m.row<TableId::CustomAttribute>(row);
      Token parent = attribute.parent();
      if (md::token_table(parent) != TableId::TypeDef) continue;
      if (m.attribute_type(row).name == "IsByRefLikeAttribute") byref_like_defs_.insert(md::token_rid(parent));
    }
  }
  if (md::token_table(type) == TableId::TypeDef) return byref_like_defs_.count(md::token_rid(type)) != 0;
  if (auto ref = m.find_row<TableId::TypeRef>(type)) return known_byref_like(ref->type_namespace(), ref->type_name());
  return false;
}

bool TraceMode::generic_allows_byref_like(Token owner, uint32_t number) {
  const md::Module& m = editor_->module();
  for (uint32_t row = 1; row <= m.tables().rows(TableId::GenericParam); ++row) {
    auto param = m.row<TableId::GenericParam>(row);
    if (param.number() != number || param.owner() != owner) continue;
    return md::has(param.flags(), md::GenericParamAttributes::AllowByRefLike);
  }
  return false;
}

Expected<TraceMode::Box> TraceMode::boxing(const TypeSig& original) {
  TypeSig type = original;
  type.modifiers.clear();
  Box b;
  switch (type.element) {
    case ElementType::String: case ElementType::Object: case ElementType::Class: case ElementType::SzArray:
    case ElementType::Array:
      b.kind = Boxing::Reference;
      return b;
    case ElementType::Boolean: case ElementType::Char: case ElementType::I1: case ElementType::U1: case ElementType::I2:
    case ElementType::U2: case ElementType::I4: case ElementType::U4: case ElementType::I8: case ElementType::U8:
    case ElementType::R4: case ElementType::R8: case ElementType::I: case ElementType::U:
      b.kind = Boxing::Value;
      b.token = CIL_TRY(editor_->type_spec(encode(type)));
      return b;
    case ElementType::ValueType:
      if (is_byref_like(type.token)) {
        b.kind = Boxing::Unboxable;
        return b;
      }
      b.kind = Boxing::Value;
      b.token = type.token;
      return b;
    case ElementType::GenericInst:
      if (type.children.at(0).element == ElementType::Class) {
        b.kind = Boxing::Reference;
        return b;
      }
      if (is_byref_like(type.children.at(0).token)) {
        b.kind = Boxing::Unboxable;
        return b;
      }
      b.kind = Boxing::Value;
      b.token = CIL_TRY(editor_->type_spec(encode(type)));
      return b;
    case ElementType::Var: case ElementType::MVar: {
      // `box` of a generic parameter is a no-op for reference types; but a parameter that
      // allows ref structs (C# `allows ref struct`) may not be boxed at all.
      if (generic_allows_byref_like(type.element == ElementType::Var ? generic_owner_type_ : generic_owner_method_, type.number)) {
        b.kind = Boxing::Unboxable;
        return b;
      }
      b.kind = Boxing::Value;
      b.token = CIL_TRY(editor_->type_spec(encode(type)));
      return b;
    }
    default:  // pointers, function pointers, typedref, byrefs of byrefs
      b.kind = Boxing::Unboxable;
      return b;
  }
}

Status TraceMode::emit_value(Context& cx, const TypeSig& type, std::vector<Instr>& code) {
  BodyModel& body = *cx.body;
  Box b = CIL_TRY(boxing(type));
  switch (b.kind) {
    case Boxing::Unboxable:
      code.push_back(body.make(Op::Pop));
      code.push_back(body.make(Op::Ldnull));
      break;
    case Boxing::Reference:
      break;
    case Boxing::Value:
      code.push_back(body.make(Op::Box, b.token));
      break;
  }
  return ok();
}

Status TraceMode::emit_hook(Context& cx, const HookMethod& hook, Token target, std::vector<Instr>& code) {
  BodyModel& body = *cx.body;
  // Guard: skip the hook when this thread is already inside one.
  uint32_t skip = body.reserve_label(), after = body.reserve_label();
  code.push_back(body.make(Op::Ldsfld, guard_field_));
  code.push_back(body.make(Op::Callvirt, guard_get_));
  code.push_back(body.make_branch(Op::Brtrue_S, skip));
  code.push_back(body.make(Op::Ldsfld, guard_field_));
  code.push_back(body.ldc_i4(1));
  code.push_back(body.make(Op::Callvirt, guard_set_));
  size_t try_first = code.size();
  CIL_TRY(emit_hook_args(cx, hook, code));
  code.push_back(body.make(Op::Call, target));
  if (&hook == &contract_->on_enter && hook.returns_object) {
    code.push_back(cx.state ? body.stloc(*cx.state) : body.make(Op::Pop));
  } else if (&hook == &contract_->on_enter && hook.returns == HookReturn::Bool) {
    // false: skip the body.
    if (cx.skip) {
      code.push_back(body.ldc_i4(0));
      code.push_back(body.make(Op::Ceq));
      code.push_back(body.stloc(*cx.skip));
    } else {
      code.push_back(body.make(Op::Pop));
    }
  }
  code.push_back(body.make_branch(Op::Leave_S, after));
  size_t handler_first = code.size();
  EhRegion guard;
  if (&hook == &contract_->on_enter && hook.returns == HookReturn::Bool) {
    // An intercepting OnEnter may reject the call with its own exception (a validator): it
    // propagates from the call site, before the method's own code; the guard is reset on the way.
    code.push_back(body.make(Op::Ldsfld, guard_field_));
    code.push_back(body.ldc_i4(0));
    code.push_back(body.make(Op::Callvirt, guard_set_));
    code.push_back(body.make(Op::Endfinally));
    Instr done = body.make(Op::Nop);
    done.id = after;
    code.push_back(done);
    guard.kind = ClauseKind::Finally;
  } else {
    code.push_back(body.make(Op::Pop));  // a throwing hook must not change what the program does
    code.push_back(body.make_branch(Op::Leave_S, after));
    Instr reset = body.make(Op::Ldsfld, guard_field_);
    reset.id = after;
    code.push_back(reset);
    code.push_back(body.ldc_i4(0));
    code.push_back(body.make(Op::Callvirt, guard_set_));
    guard.kind = ClauseKind::Catch;
    guard.class_token = exception_;
  }
  Instr landing = body.make(Op::Nop);
  landing.id = skip;
  code.push_back(landing);

  guard.try_start = code[try_first].id;
  guard.try_end = code[handler_first].id;
  guard.handler_start = code[handler_first].id;
  guard.handler_end = after;
  cx.guard_clauses.push_back(guard);
  return ok();
}

Status TraceMode::emit_hook_args(Context& cx, const HookMethod& hook, std::vector<Instr>& code) {
  BodyModel& body = *cx.body;
  uint32_t this_offset = cx.sig.has_this() ? 1 : 0;
  for (HookParam p : hook.params) {
    switch (p) {
      case HookParam::Method:
        code.push_back(body.make(Op::Ldstr, CIL_TRY(editor_->user_string(md::utf8_to_utf16(cx.name)))));
        break;
      case HookParam::Token:
        code.push_back(body.ldc_i4(static_cast<int32_t>(cx.token)));
        break;
      case HookParam::Instance:
        if (cx.is_static) {
          code.push_back(body.make(Op::Ldnull));
        } else {
          code.push_back(body.ldarg(0));
          if (cx.self.kind == Boxing::Value) {
            code.push_back(body.make(Op::Ldobj, cx.self.token));
            code.push_back(body.make(Op::Box, cx.self.token));
          }
        }
        break;
      case HookParam::Args: {
        code.push_back(body.ldc_i4(static_cast<int32_t>(cx.sig.params.size())));
        code.push_back(body.make(Op::Newarr, object_));
        for (size_t k = 0; k < cx.sig.params.size(); ++k) {
          const TypeSig& t = cx.sig.params[k];
          code.push_back(body.make(Op::Dup));
          code.push_back(body.ldc_i4(static_cast<int32_t>(k)));
          if (t.element == ElementType::ByRef) {
            // ref, out, in and ref readonly: null. The reference may be null or point at memory
            // the method never reads (Unsafe.NullRef, an unmapped address, an out parameter not
            // yet written); the hooks must not read what the original does not.
            code.push_back(body.make(Op::Ldnull));
          } else {
            code.push_back(body.ldarg(static_cast<uint32_t>(k) + this_offset));
            CIL_TRY(emit_value(cx, t, code));
          }
          code.push_back(body.make(Op::Stelem_Ref));
        }
        break;
      }
      case HookParam::State:
        code.push_back(cx.state ? body.ldloc(*cx.state) : body.make(Op::Ldnull));
        break;
      case HookParam::Result: {
        if (hook.result_by_ref) {
          // OnEnter's `out object result`, OnLeave's `ref object result` (filled just before).
          code.push_back(body.ldloca(&hook == &contract_->on_enter ? *cx.enter_result : *cx.leave_result));
          break;
        }
        if (!cx.result || cx.result_box.kind == Boxing::Unboxable) {
          code.push_back(body.make(Op::Ldnull));
          break;
        }
        // null when an exception escapes: there is no result then.
        uint32_t none = body.reserve_label(), done = body.reserve_label();
        if (cx.exception) {
          code.push_back(body.ldloc(*cx.exception));
          code.push_back(body.make_branch(Op::Brtrue_S, none));
        }
        // null too when the method leaves by a tail call: the callee's result is not known yet.
        if (cx.tail_flag) {
          code.push_back(body.ldloc(*cx.tail_flag));
          code.push_back(body.make_branch(Op::Brtrue_S, none));
        }
        code.push_back(body.ldloc(*cx.result));
        if (cx.result_box.kind == Boxing::Value) code.push_back(body.make(Op::Box, cx.result_box.token));
        code.push_back(body.make_branch(Op::Br_S, done));
        Instr null_result = body.make(Op::Ldnull);
        null_result.id = none;
        code.push_back(null_result);
        Instr join = body.make(Op::Nop);
        join.id = done;
        code.push_back(join);
        break;
      }
      case HookParam::Exception:
        code.push_back(cx.exception ? body.ldloc(*cx.exception) : body.make(Op::Ldnull));
        break;
      case HookParam::Elapsed:
        code.push_back(body.make(Op::Call, get_timestamp_));
        code.push_back(body.ldloc(*cx.start_ticks));
        code.push_back(body.make(Op::Sub));
        break;
    }
  }
  return ok();
}

void TraceMode::emit_unbox_result(Context& cx, uint32_t object, std::vector<Instr>& code) {
  BodyModel& body = *cx.body;
  uint32_t convert = body.reserve_label(), done = body.reserve_label();
  code.push_back(body.ldloc(object));
  code.push_back(body.make_branch(Op::Brtrue_S, convert));
  code.push_back(body.ldloca(*cx.default_result));
  code.push_back(body.make(Op::Initobj, cx.result_type));
  code.push_back(body.ldloc(*cx.default_result));
  code.push_back(body.make_branch(Op::Br_S, done));
  Instr load = body.ldloc(object);
  load.id = convert;
  code.push_back(load);
  code.push_back(body.make(Op::Unbox_Any, cx.result_type));
  Instr join = body.make(Op::Nop);
  join.id = done;
  code.push_back(join);
}

Status TraceMode::instrument(uint32_t rid, const std::string& name, BodyModel& body) {
  const md::Module& m = editor_->module();
  const auto& t = m.tables();
  Context cx;
  cx.rid = rid;
  cx.name = name;
  cx.token = md::make_token(TableId::MethodDef, rid);
  cx.body = &body;
  auto r = m.row<TableId::MethodDef>(rid).signature_reader("method signature");
  if (!r) return r.error();
  cx.sig = CIL_TRY(md::decode_method_sig(*r));
  if (cx.sig.kind() == md::kCallVarArg) {
    // The fixed parameters are reported; the variable part would need arglist handling.
  }
  cx.is_static = !cx.sig.has_this();
  generic_owner_method_ = cx.token;
  generic_owner_type_ = md::make_token(TableId::TypeDef, m.method_owner(rid));

  // How `this` is passed: a reference as is; a value type's `this` is a byref, boxed from a copy.
  uint32_t owner = m.method_owner(rid);
  if (!cx.is_static && owner) {
    if (m.is_value_type(owner)) {
      Token self = md::make_token(TableId::TypeDef, owner);
      if (is_byref_like(self)) {
        cx.self.kind = Boxing::Unboxable;
      } else {
        uint32_t generic_count = 0;
        for (uint32_t row = 1; row <= t.rows(TableId::GenericParam); ++row)
          if (m.row<TableId::GenericParam>(row).owner() == self) ++generic_count;
        cx.self.kind = Boxing::Value;
        if (generic_count) {
          TypeSig inst;
          inst.element = ElementType::GenericInst;
          inst.children.push_back(md::value_type(self));
          for (uint32_t i = 0; i < generic_count; ++i) {
            TypeSig var;
            var.element = ElementType::Var;
            var.number = i;
            inst.children.push_back(var);
          }
          cx.self.token = CIL_TRY(editor_->type_spec(encode(inst)));
        } else {
          cx.self.token = self;
        }
      }
    }
  }
  if (cx.self.kind == Boxing::Unboxable && contract_->wants(HookParam::Instance)) {
    // `this` of a ref struct cannot be boxed: pass null.
    cx.is_static = true;
  }

  bool catch_clause = contract_->on_exception.present || contract_->on_leave.wants(HookParam::Exception);
  bool finally_clause = contract_->on_leave.present;
  bool returns_value = cx.sig.return_type.element != ElementType::Void;

  // Where the new code starts: in a reference type's constructor, after the base/this call.
  auto start = constructed_index(m, rid, body);
  if (!start) return trace_error("no base constructor call found");

  LocalsBuilder locals = CIL_TRY(LocalsBuilder::open(*editor_, body.local_sig_token));
  if (contract_->on_enter.returns_object && (contract_->on_leave.wants(HookParam::State) || contract_->on_exception.wants(HookParam::State)))
    cx.state = locals.add(encode(md::primitive(ElementType::Object)));
  if (catch_clause) cx.exception = locals.add(encode(md::class_type(exception_)));
  bool tail_calls = std::any_of(body.instrs.begin(), body.instrs.end(), [](const Instr& in) { return in.op == Op::Tail; });
  if (tail_calls && returns_value && finally_clause && contract_->on_leave.wants(HookParam::Result))
    cx.tail_flag = locals.add(encode(md::primitive(ElementType::Boolean)));
  if (returns_value && (catch_clause || finally_clause)) {
    TypeSig ret = cx.sig.return_type;
    cx.result = locals.add(encode(ret));
    if (ret.element == ElementType::ByRef || ret.element == ElementType::TypedByRef) cx.result_box.kind = Boxing::Unboxable;
    else cx.result_box = CIL_TRY(boxing(ret));
  }
  // Interception, as the hooks' signatures opt in. A result the hooks supply or replace needs a
  // return type an object can be unboxed to: not a byref, a pointer or a ref struct.
  bool convertible = false;
  if (returns_value) {
    TypeSig ret = cx.sig.return_type;
    ret.modifiers.clear();
    Box box = ret.element == ElementType::ByRef || ret.element == ElementType::TypedByRef ? Box{Boxing::Unboxable, 0} : CIL_TRY(boxing(ret));
    convertible = box.kind != Boxing::Unboxable;
    bool needed = (contract_->on_enter.returns == HookReturn::Bool) || (finally_clause && contract_->on_leave.result_by_ref);
    if (convertible && needed) {
      cx.default_result = locals.add(encode(ret));
      cx.result_type = CIL_TRY(editor_->type_spec(encode(ret)));
    }
  }
  const HookMethod& on_enter = contract_->on_enter;
  bool can_skip = on_enter.returns == HookReturn::Bool && (!returns_value || convertible);
  if (on_enter.returns == HookReturn::Bool) cx.skip = locals.add(encode(md::primitive(ElementType::Boolean)));
  if (on_enter.result_by_ref) cx.enter_result = locals.add(encode(md::primitive(ElementType::Object)));
  if (finally_clause && contract_->on_leave.result_by_ref) cx.leave_result = locals.add(encode(md::primitive(ElementType::Object)));
  if (finally_clause && contract_->on_leave.wants(HookParam::Elapsed)) cx.start_ticks = locals.add(encode(md::primitive(ElementType::I8)));
  HookReturn exception_returns = contract_->on_exception.present ? contract_->on_exception.returns : HookReturn::Void;
  if (exception_returns == HookReturn::Exception) cx.replacement = locals.add(encode(md::class_type(exception_)));
  if (exception_returns == HookReturn::Bool) cx.handled = locals.add(encode(md::primitive(ElementType::Boolean)));

  std::vector<Instr> prologue;
  if (cx.state) {
    prologue.push_back(body.make(Op::Ldnull));
    prologue.push_back(body.stloc(*cx.state));
  }
  if (cx.exception) {
    prologue.push_back(body.make(Op::Ldnull));
    prologue.push_back(body.stloc(*cx.exception));
  }
  if (cx.tail_flag) {
    prologue.push_back(body.ldc_i4(0));
    prologue.push_back(body.stloc(*cx.tail_flag));
  }
  if (cx.skip) {
    prologue.push_back(body.ldc_i4(0));
    prologue.push_back(body.stloc(*cx.skip));
  }
  if (cx.enter_result) {
    prologue.push_back(body.make(Op::Ldnull));
    prologue.push_back(body.stloc(*cx.enter_result));
  }
  if (cx.start_ticks) {
    prologue.push_back(body.make(Op::Call, get_timestamp_));
    prologue.push_back(body.stloc(*cx.start_ticks));
  }
  if (contract_->on_enter.present) CIL_TRY(emit_hook(cx, contract_->on_enter, on_enter_, prologue));
  // Inside the region, first: OnEnter said skip, so the method returns at once with the result
  // OnEnter supplied (or the type's default), and OnLeave still runs (the ret becomes a leave).
  size_t skip_start = prologue.size();
  if (can_skip) {
    uint32_t original = body.instrs[*start].id;
    prologue.push_back(body.ldloc(*cx.skip));
    prologue.push_back(body.make_branch(Op::Brfalse, original));
    if (returns_value) {
      if (cx.enter_result) {
        emit_unbox_result(cx, *cx.enter_result, prologue);
      } else {
        prologue.push_back(body.ldloca(*cx.default_result));
        prologue.push_back(body.make(Op::Initobj, cx.result_type));
        prologue.push_back(body.ldloc(*cx.default_result));
      }
    }
    prologue.push_back(body.make(Op::Ret));
  }
  size_t skip_code = prologue.size() - skip_start;
  size_t prologue_size = prologue.size();
  insert_code(body, *start, std::move(prologue));

  if (catch_clause || finally_clause) {
    WrapSpec spec;
    spec.try_start = *start + prologue_size - skip_code;
    if (returns_value) spec.result_local = cx.result;
    if (catch_clause) {
      // The filter sees the exception in the first pass and lets it go on (returns 0): nothing
      // is caught or rethrown, so the finally blocks up the stack, OnLeave's among them, run in
      // the second pass as they would without us.
      spec.filter_clause = true;
      spec.filter_code.push_back(body.make(Op::Isinst, exception_));
      spec.filter_code.push_back(body.stloc(*cx.exception));
      if (contract_->on_exception.present) {
        CIL_TRY(emit_hook_args(cx, contract_->on_exception, spec.filter_code));
        spec.filter_code.push_back(body.make(Op::Call, guarded_on_exception_));
        if (cx.replacement) {
          // A non-null result is caught here and thrown instead.
          spec.filter_code.push_back(body.stloc(*cx.replacement));
          spec.filter_code.push_back(body.ldloc(*cx.replacement));
          spec.filter_code.push_back(body.make(Op::Ldnull));
          spec.filter_code.push_back(body.make(Op::Cgt_Un));
          spec.filter_decides = true;
          spec.handler_throw_local = cx.replacement;
        } else if (cx.handled) {
          // true suppresses the exception, in a void method (another has no result to return).
          spec.filter_code.push_back(body.stloc(*cx.handled));
          if (returns_value) {
            spec.filter_code.push_back(body.ldc_i4(0));
          } else {
            spec.filter_code.push_back(body.ldloc(*cx.handled));
            spec.handler_suppresses = true;
          }
          spec.filter_decides = true;
        }
      }
    }
    if (finally_clause) {
      spec.finally_clause = true;
      if (cx.leave_result) {
        // OnLeave's `ref object result`: the result boxed (null after an exception or a tail
        // call, or for a type that cannot be boxed), and written back after the hook.
        HookMethod boxed;
        boxed.present = true;
        boxed.params = {HookParam::Result};
        CIL_TRY(emit_hook_args(cx, boxed, spec.finally_code));
        spec.finally_code.push_back(body.stloc(*cx.leave_result));
      }
      CIL_TRY(emit_hook(cx, contract_->on_leave, on_leave_, spec.finally_code));
      if (cx.leave_result && cx.result && cx.default_result) {
        uint32_t done = body.reserve_label();
        if (cx.exception) {
          spec.finally_code.push_back(body.ldloc(*cx.exception));
          spec.finally_code.push_back(body.make_branch(Op::Brtrue, done));
        }
        if (cx.tail_flag) {
          spec.finally_code.push_back(body.ldloc(*cx.tail_flag));
          spec.finally_code.push_back(body.make_branch(Op::Brtrue, done));
        }
        emit_unbox_result(cx, *cx.leave_result, spec.finally_code);
        spec.finally_code.push_back(body.stloc(*cx.result));
        Instr join = body.make(Op::Nop);
        join.id = done;
        spec.finally_code.push_back(join);
      }
    }
    spec.tail_sites = CIL_TRY(plan_tail_sites(m, body, spec.try_start, locals));
    if (!spec.tail_sites.empty()) spec.tail_flag = cx.tail_flag;
    // The guards' clauses sit inside the new handlers, so they go before the new clauses.
    body.clauses.insert(body.clauses.end(), cx.guard_clauses.begin(), cx.guard_clauses.end());
    CIL_TRY(wrap_body(body, spec));
  } else {
    body.clauses.insert(body.clauses.end(), cx.guard_clauses.begin(), cx.guard_clauses.end());
  }
  body.local_sig_token = CIL_TRY(locals.commit(*editor_));
  if (body.local_sig_token && !body.original.fat) body.init_locals = true;
  body.edited = true;
  return ok();
}

}  // namespace cil::il
