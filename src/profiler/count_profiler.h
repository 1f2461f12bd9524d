// Count mode at run time: each selected method gets offline count mode's entry probe when it
// is first JIT-compiled, with its counter in native memory owned by the profiler; at Shutdown,
// one <Assembly>.<pid>.counts.json per module, in offline count mode's format.
// Coverage mode, the same way: offline coverage mode's probes (coverage_probes.h) in the
// methods of modules with a matching portable PDB; one <Assembly>.<pid>.hits.json per module.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "profiler/coverage_probes.h"
#include "profiler/emit_sink.h"
#include "profiler/profiler_base.h"

namespace cil::profiler {

/// int64 counters at fixed addresses. Blocks are never freed: instrumented code may still run
/// on other threads after Shutdown.
class NativeCounters {
 public:
  static constexpr size_t kBlock = 4096;
  /// A zeroed counter, 8-byte aligned.
  int64_t* allocate();

 private:
  std::mutex mutex_;
  std::vector<int64_t*> blocks_;
  size_t used_ = kBlock;
};

class CountProfiler final : public ProfilerBase {
 public:
  explicit CountProfiler(Config config) : ProfilerBase(std::move(config)) {}

  HRESULT JITCompilationStarted(FunctionID function, BOOL safe_to_block) override;
  HRESULT JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) override;
  HRESULT JITInlining(FunctionID caller, FunctionID callee, BOOL* should_inline) override;
  HRESULT ModuleUnloadStarted(ModuleID module) override;
  /// Attached: a module loaded during the session has its selected methods ReJIT-ed too.
  HRESULT ModuleLoadFinished(ModuleID module, HRESULT status) override;
  /// Attached: the probed body of a method asked for by RequestReJIT, on its next call.
  HRESULT GetReJITParameters(ModuleID module, mdMethodDef token, ICorProfilerFunctionControl* control) override;
  HRESULT ReJITError(ModuleID module, mdMethodDef token, FunctionID function, HRESULT status) override;
  // An exception that no frame catches ends the process without Shutdown: its second pass
  // starts without a catcher found, and the counts are written then (offline count mode
  // writes them from the UnhandledException event, at the same point).
  HRESULT ExceptionThrown(ObjectID thrown) override;
  HRESULT ExceptionSearchCatcherFound(FunctionID function) override;
  HRESULT ExceptionUnwindFunctionEnter(FunctionID function) override;

 protected:
  std::pair<DWORD, DWORD> event_mask() const override;
  Status start() override { return ok(); }
  void finish() override;
  bool uses_rejit() const override { return true; }
  std::string begin_session() override;
  void session_tick() override;
  std::string end_session() override;
  bool accepts_mode(Mode mode) const override { return mode == Mode::Count || mode == Mode::Coverage; }
  void reset_session_state() override;

 private:
  struct Instrumented {
    int64_t* counter = nullptr;
  };
  /// Count-mode state of one module.
  struct CountModule {
    std::shared_ptr<ModuleEntry> entry;
    /// Order of first use: files are named in this order at every write, so a module keeps its
    /// file name (".2"...) from one periodic write to the next.
    uint64_t sequence = 0;
    std::mutex mutex;  ///< guards everything below
    std::unordered_map<mdMethodDef, bool> selected;  ///< filter decisions, by token
    bool setup_tried = false;
    std::unique_ptr<EmitSink> sink;
    ComPtr<IMethodMalloc> allocator;
    md::Token increment;
    uint16_t probe_depth = 0;
    std::map<mdMethodDef, Instrumented> instrumented;
    std::set<mdMethodDef> failed;
    // Coverage mode: the module's plan (null without a matching PDB: nothing is selected), and
    // the probes of each instrumented method.
    bool coverage_tried = false;
    std::unique_ptr<ModuleCoverage> coverage;
    std::map<mdMethodDef, std::vector<CoverageProbe>> probes;
  };

  std::shared_ptr<CountModule> state_of(ModuleID module);
  /// The filter's decision for a method (under state.mutex).
  bool selects(CountModule& state, mdMethodDef token);
  /// Whether `function` is a selected method; fills `state` and `token` when it is.
  bool selected_function(FunctionID function, std::shared_ptr<CountModule>* state, mdMethodDef* token);
  /// Opens the module's metadata and finds or adds the Interlocked.Increment reference.
  Status set_up(CountModule& state);
  /// Sets the probed body of `token` and gives the runtime its offset map (through `function`,
  /// the FunctionID being compiled: the map is kept per method token, for every instantiation).
  Status instrument(CountModule& state, mdMethodDef token, FunctionID function);
  /// The probed body of `token` (its counter or probes recorded in `state`), from its original IL.
  Expected<il::EncodedBody> probed_body(CountModule& state, mdMethodDef token);
  /// Attached: the selected methods of `module`, set up and asked for with RequestReJIT; their
  /// number (added to rejit_requested_).
  size_t request_rejit(ModuleID module);
  /// Instruments the method of `function` when the filters select it and it is not done yet;
  /// true when this call rewrote it.
  bool ensure_instrumented(FunctionID function);
  void write_counts(CountModule& state, std::set<std::string>& used_names);
  /// <output>/<Assembly>.<pid>[.n]<suffix>, numbered past the names already used this write.
  void write_module_file(const std::string& assembly, std::string_view suffix, const std::string& json,
                         std::set<std::string>& used_names);
  bool coverage_mode() const { return config_.mode == Mode::Coverage; }
  /// What each probe does: coverage stores 1 unless CIL_INSTRUMENT_HIT_COUNTS asks for exact
  /// counts; count mode counts.
  instrument::ProbeKind probe_kind() const {
    return coverage_mode() && !config_.hit_counts ? instrument::ProbeKind::Hit : instrument::ProbeKind::Count;
  }
  /// Coverage mode: opens the module's plan once (under state.mutex); false when it has none.
  bool coverage_ready(CountModule& state);
  /// Coverage mode: the hits file's entries of every selected method (under state.mutex).
  std::string hits_entries(CountModule& state);

  NativeCounters counters_;
  std::mutex mutex_;
  std::unordered_map<ModuleID, std::shared_ptr<CountModule>> modules_by_id_;
  std::vector<std::shared_ptr<CountModule>> unloaded_;
  uint64_t next_sequence_ = 0;
  // Attached: what RequestReJIT was asked for (to revert it), the modules loaded meanwhile.
  std::mutex session_mutex_;
  std::vector<ModuleID> rejit_modules_;
  std::vector<mdMethodDef> rejit_methods_;
  std::vector<ModuleID> loaded_during_session_;
  std::atomic<bool> session_open_{false};
  std::atomic<size_t> rejit_errors_{0};
};

}  // namespace cil::profiler
