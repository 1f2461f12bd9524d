// Module entries, our reading of module files, and names for tokens, functions and classes.
#include "profiler/module_table.h"

#include <cstring>

#include <fmt/format.h>

#include "profiler/wide_string.h"

namespace cil::profiler {

namespace {

constexpr unsigned kMaxClassDepth = 8;

}  // namespace

std::shared_ptr<ModuleEntry> ModuleTable::get(ModuleID id) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = modules_.find(id); it != modules_.end()) return it->second;
  }
  auto entry = std::make_shared<ModuleEntry>();
  entry->id = id;
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  LPCBYTE base = nullptr;
  AssemblyID assembly = 0;
  DWORD flags = 0;
  HRESULT hr = info_->GetModuleInfo2(id, &base, kNameCapacity, &length, name, &assembly, &flags);
  if (FAILED(hr)) return nullptr;  // also CORPROF_E_DATAINCOMPLETE: still loading, ask again later
  entry->flags = flags;
  // A module loaded from bytes is named by its file name alone, a dynamic one by its module
  // name: only an absolute path is a file to read.
  if (length > 1) entry->name = wide_name(name, length);
  if (!(flags & COR_PRF_MODULE_DYNAMIC) && entry->name.starts_with('/')) entry->path = entry->name;
  std::lock_guard lock(mutex_);
  return modules_.try_emplace(id, std::move(entry)).first->second;
}

void ModuleTable::forget(ModuleID id) {
  std::lock_guard lock(mutex_);
  modules_.erase(id);
}

std::string ModuleTable::assembly_name(ModuleEntry& entry) {
  std::lock_guard lock(entry.mutex);
  if (!entry.assembly.empty()) return entry.assembly;
  LPCBYTE base = nullptr;
  AssemblyID assembly = 0;
  ULONG length = 0;
  if (SUCCEEDED(info_->GetModuleInfo(entry.id, &base, 0, &length, nullptr, &assembly)) && assembly) {
    WCHAR name[kNameCapacity];
    AppDomainID domain = 0;
    ModuleID manifest = 0;
    if (SUCCEEDED(info_->GetAssemblyInfo(assembly, kNameCapacity, &length, name, &domain, &manifest)))
      entry.assembly = wide_name(name, length);
  }
  return entry.assembly;
}

IMetaDataImport2* ModuleTable::import_of(ModuleEntry& entry) {
  if (!entry.import)
    info_->GetModuleMetaData(entry.id, ofRead, IID_IMetaDataImport2, entry.import.out_as<IUnknown>());
  return entry.import.get();
}

void ModuleTable::load_file(ModuleEntry& entry) {
  entry.file_tried = true;
  if (entry.path.empty()) {
    entry.file_problem = "the module has no file (loaded from memory, or dynamic)";
    return;
  }
  auto loaded = md::Module::load(entry.path);
  if (!loaded) {
    entry.file_problem = fmt::format("{}: {}", entry.path, loaded.error().to_string());
    return;
  }
  // The file on disk must be the module the runtime loaded: compare the MVIDs.
  const md::Module& m = **loaded;
  GUID runtime_mvid;
  IMetaDataImport2* import = import_of(entry);
  if (import && m.tables().rows(md::TableId::Module) &&
      SUCCEEDED(import->GetScopeProps(nullptr, 0, nullptr, &runtime_mvid))) {
    auto mvid = m.row<md::TableId::Module>(1).mvid();
    if (!mvid || std::memcmp(mvid->data(), &runtime_mvid, 16) != 0) {
      entry.file_problem = fmt::format("{}: the file's MVID is not the loaded module's", entry.path);
      return;
    }
  }
  entry.file = std::move(*loaded);
  entry.printer = std::make_unique<md::Printer>(*entry.file);
}

void ModuleTable::with_file(ModuleEntry& entry, const std::function<void(const md::Module*, md::Printer*)>& fn) {
  std::lock_guard lock(entry.mutex);
  if (!entry.file_tried) load_file(entry);
  fn(entry.file.get(), entry.printer.get());
}

std::string ModuleTable::import_type_name(ModuleEntry& entry, mdTypeDef token, unsigned depth) {
  IMetaDataImport2* import = import_of(entry);
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  if (!import || FAILED(import->GetTypeDefProps(token, name, kNameCapacity, &length, nullptr, nullptr)))
    return fmt::format("<type 0x{:08X}>", token);
  std::string text = wide_name(name, length);
  mdTypeDef enclosing = 0;
  if (depth < md::kMaxNestingDepth && import->GetNestedClassProps(token, &enclosing) == S_OK && enclosing)
    return import_type_name(entry, enclosing, depth + 1) + "/" + text;
  return text;
}

std::string ModuleTable::type_name(ModuleEntry& entry, mdTypeDef token) {
  std::lock_guard lock(entry.mutex);
  if (!entry.file_tried) load_file(entry);
  if (entry.printer && TypeFromToken(token) == mdtTypeDef &&
      entry.file->tables().valid_rid(md::TableId::TypeDef, RidFromToken(token)))
    return entry.printer->type_def_name(md::TypeDefId(RidFromToken(token)));
  return import_type_name(entry, token, 0);
}

std::string ModuleTable::method_name(ModuleEntry& entry, mdMethodDef token) {
  std::lock_guard lock(entry.mutex);
  if (!entry.file_tried) load_file(entry);
  if (entry.printer && TypeFromToken(token) == mdtMethodDef &&
      entry.file->tables().valid_rid(md::TableId::MethodDef, RidFromToken(token)))
    return entry.printer->method_name(md::MethodDefId(RidFromToken(token)));
  IMetaDataImport2* import = import_of(entry);
  WCHAR name[kNameCapacity];
  ULONG length = 0;
  mdTypeDef owner = 0;
  if (!import || FAILED(import->GetMethodProps(token, &owner, name, kNameCapacity, &length, nullptr, nullptr, nullptr,
                                               nullptr, nullptr)))
    return fmt::format("<method 0x{:08X}>", token);
  std::string method = wide_name(name, length);
  if (IsNilToken(owner)) return method;
  return import_type_name(entry, owner, 0) + "::" + method;
}

std::string ModuleTable::function_name(FunctionID function) {
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken token = 0;
  if (FAILED(info_->GetFunctionInfo(function, &klass, &module, &token)) || !module || IsNilToken(token))
    return "<dynamic method>";
  auto entry = get(module);
  if (!entry) return fmt::format("<method 0x{:08X}>", token);
  return method_name(*entry, token);
}

std::string ModuleTable::class_name(ClassID id) {
  {
    std::lock_guard lock(class_mutex_);
    if (auto it = class_names_.find(id); it != class_names_.end()) return it->second;
  }
  std::string name = class_name_uncached(id, 0);
  // A class still loading may not be named yet: only complete names are kept.
  if (name.find("<class 0x") != std::string::npos) return name;
  std::lock_guard lock(class_mutex_);
  class_names_.emplace(id, name);
  return name;
}

void ModuleTable::forget_class(ClassID id) {
  std::lock_guard lock(class_mutex_);
  class_names_.erase(id);
}

std::string ModuleTable::class_name_uncached(ClassID id, unsigned depth) {
  if (!id) return "<no class>";
  if (depth > kMaxClassDepth) return "...";
  CorElementType element{};
  ClassID element_class = 0;
  ULONG rank = 0;
  if (info_->IsArrayClass(id, &element, &element_class, &rank) == S_OK) {
    std::string inner = element_class ? class_name_uncached(element_class, depth + 1) : fmt::format("<element 0x{:X}>", +element);
    return inner + "[" + std::string(rank > 1 ? rank - 1 : 0, ',') + "]";
  }
  ModuleID module = 0;
  mdTypeDef token = 0;
  ClassID parent = 0;
  ULONG32 arg_count = 0;
  if (FAILED(info_->GetClassIDInfo2(id, &module, &token, &parent, 0, &arg_count, nullptr)) || !module)
    return fmt::format("<class 0x{:X}>", id);
  auto entry = get(module);
  std::string name = entry ? type_name(*entry, token) : fmt::format("<type 0x{:08X}>", token);
  if (arg_count > 0 && arg_count < 64) {
    std::vector<ClassID> args(arg_count);
    if (SUCCEEDED(info_->GetClassIDInfo2(id, &module, &token, &parent, arg_count, &arg_count, args.data()))) {
      name += '<';
      for (ULONG32 i = 0; i < arg_count; ++i) {
        if (i) name += ',';
        name += class_name_uncached(args[i], depth + 1);
      }
      name += '>';
    }
  }
  return name;
}

}  // namespace cil::profiler
