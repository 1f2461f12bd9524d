// Trace mode at JIT time: the selected methods call the user's hooks, as offline trace mode's
// output does, rewritten by the same TraceMode when the JIT compiles them; no file changes. The
// hooks assembly is loaded by the loader in the runtime's startup method (hooks_loader.h), and
// nothing is traced until it reports that the hooks loaded: if they fail to, the program runs
// unprofiled, with one line on stderr saying why.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

#include "instrument/hook_contract.h"
#include "instrument/trace_mode.h"
#include "metadata/module.h"
#include "metadata/runtime_refs.h"
#include "profiler/com_ptr.h"
#include "profiler/emit_sink.h"
#include "profiler/profiler_base.h"

namespace cil::profiler {

class TraceProfiler final : public ProfilerBase {
 public:
  explicit TraceProfiler(Config config) : ProfilerBase(std::move(config)) {}

  HRESULT JITCompilationStarted(FunctionID function, BOOL safe_to_block) override;
  HRESULT JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) override;
  HRESULT JITInlining(FunctionID caller, FunctionID callee, BOOL* should_inline) override;
  HRESULT ModuleUnloadStarted(ModuleID module) override;

 protected:
  std::pair<DWORD, DWORD> event_mask() const override;
  /// Reads the hooks assembly and checks its contract: any error declines.
  Status start() override;
  /// Says so when the hooks were never loaded (no startup method was JIT-compiled).
  void finish() override;
  /// Trace mode writes no file of its own: nothing to save on a signal or a flush period.
  void save(int) override {}

 private:
  struct TraceModule {
    std::shared_ptr<ModuleEntry> entry;
    std::mutex mutex;  ///< guards everything below
    bool setup_tried = false;
    std::unique_ptr<EmitSink> sink;  ///< null when set-up failed
    std::optional<md::RuntimeRefs> refs;
    std::optional<instrument::TraceMode> trace;
    std::unordered_map<mdMethodDef, bool> selected;
    std::set<mdMethodDef> done, failed;
  };

  std::shared_ptr<TraceModule> state_of(ModuleID module);
  /// Selected, not the hooks' own, with an IL body in the module's file; cached per method.
  bool selects(TraceModule& state, mdMethodDef token);
  bool selected_function(FunctionID function, std::shared_ptr<TraceModule>* state, mdMethodDef* token);
  /// The helper type and the references, once per module, before its first traced body.
  Status set_up(TraceModule& state);
  Status instrument(TraceModule& state, mdMethodDef token, FunctionID function);
  /// The loader into the core library's startup method; true when `function` is that method.
  bool load_hooks_in(FunctionID function);
  /// The loader's report (hooks_loader.h), called from managed code.
  static void report(int32_t status);

  std::unique_ptr<md::Module> hooks_module_;
  instrument::HookContract contract_;
  std::string hooks_path_;  ///< absolute
  std::mutex mutex_;
  std::unordered_map<ModuleID, std::shared_ptr<TraceModule>> modules_by_id_;
  bool loader_placed_ = false;  ///< under mutex_
  std::atomic<bool> core_refused_{false};  ///< the core library's methods were selected (said once)
};

}  // namespace cil::profiler
