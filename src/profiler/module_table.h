// What the profiler knows about each loaded module: its path and assembly name from the
// runtime, and its metadata read by our own reader from the file (cached per ModuleID), which
// names methods and types exactly as the offline commands do. Modules without a file (in
// memory, dynamic) or whose file does not match what the runtime loaded are named through the
// runtime's IMetaDataImport instead.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "metadata/module.h"
#include "metadata/printer.h"
#include "profiler/abi/corprof.h"
#include "profiler/com_ptr.h"

namespace cil::profiler {

using namespace cilprof;

struct ModuleEntry {
  ModuleID id = 0;
  std::string name;      ///< as the runtime reports it: a path, or a bare name for the others
  std::string path;      ///< the file; empty for modules loaded from bytes and dynamic ones
  std::string assembly;  ///< the assembly's simple name
  DWORD flags = 0;       ///< COR_PRF_MODULE_FLAGS

  std::mutex mutex;  ///< guards everything below
  bool file_tried = false;
  std::unique_ptr<md::Module> file;  ///< our reading of `path`, when it matches the runtime's
  std::unique_ptr<md::Printer> printer;
  std::string file_problem;  ///< why `file` is null
  ComPtr<IMetaDataImport2> import;
};

class ModuleTable {
 public:
  explicit ModuleTable(ICorProfilerInfo5* info) : info_(info) {}

  /// The entry of `id`, created on first use. Null only when the runtime does not know `id`.
  std::shared_ptr<ModuleEntry> get(ModuleID id);
  /// Drops the entry of an unloaded module (a later module may reuse its id).
  void forget(ModuleID id);

  /// Runs `fn` with the module's file and printer (null when there is none), under the
  /// entry's lock. The file is read on first use.
  void with_file(ModuleEntry& entry, const std::function<void(const md::Module*, md::Printer*)>& fn);

  /// Ns.Type::Method (nested types Outer/Inner), or a placeholder naming the token.
  std::string method_name(ModuleEntry& entry, mdMethodDef token);
  /// Ns.Outer/Inner, or a placeholder.
  std::string type_name(ModuleEntry& entry, mdTypeDef token);
  /// The method of a FunctionID; "<dynamic method>" when it has no metadata.
  std::string function_name(FunctionID function);
  /// Ns.Type, with type arguments (List`1<System.Int32>) and array ranks (System.Int32[]).
  std::string class_name(ClassID id);
  void forget_class(ClassID id);
  /// The simple name of the module's assembly (from the runtime, which knows it once the
  /// module is attached to its assembly).
  std::string assembly_name(ModuleEntry& entry);

  ICorProfilerInfo5* info() const { return info_; }

 private:
  std::string class_name_uncached(ClassID id, unsigned depth);
  IMetaDataImport2* import_of(ModuleEntry& entry);  ///< under entry.mutex
  void load_file(ModuleEntry& entry);               ///< under entry.mutex
  std::string import_type_name(ModuleEntry& entry, mdTypeDef token, unsigned depth);

  ICorProfilerInfo5* info_;
  std::mutex mutex_;
  std::unordered_map<ModuleID, std::shared_ptr<ModuleEntry>> modules_;
  std::mutex class_mutex_;
  std::unordered_map<ClassID, std::string> class_names_;
};

}  // namespace cil::profiler
