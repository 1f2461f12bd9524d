// Count mode at run time: each selected method gets offline count mode's entry probe when it
// is first JIT-compiled, with its counter in native memory owned by the profiler; at Shutdown,
// one <Assembly>.<pid>.counts.json per module, in offline count mode's format.
// Coverage mode, the same way: offline coverage mode's probes (coverage_probes.h) in the
// methods of modules with a matching portable PDB; one <Assembly>.<pid>.hits.json per module.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "profiler/coverage_probes.h"
#include "profiler/emit_sink.h"
#include "profiler/rewrite_profiler.h"

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

class CountProfiler final : public RewriteProfiler {
 public:
  explicit CountProfiler(Config config) : RewriteProfiler(std::move(config)) {}

  HRESULT JITCompilationStarted(FunctionID function, BOOL safe_to_block) override;
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
  std::string begin_session() override;
  void session_tick() override;
  std::string end_session() override;
  bool accepts_mode(Mode mode) const override { return mode == Mode::Count || mode == Mode::Coverage; }
  void reset_session_state() override;

  std::shared_ptr<RewriteModule> new_module() const override { return std::make_shared<CountModule>(); }
  bool chooses(RewriteModule& state, mdMethodDef token) override;
  /// Opens the module's metadata and finds or adds the Interlocked.Increment reference.
  Status set_up(RewriteModule& state) override;
  /// The probed body of `token` (its counter or probes recorded in `state`).
  Expected<il::EncodedBody> rewritten_body(RewriteModule& state, mdMethodDef token, std::span<const uint8_t> il) override;
  std::string_view rewritten_word() const override { return "instrumented"; }
  /// Its counts are written at Shutdown.
  void module_unloaded(std::shared_ptr<RewriteModule> state) override;

 private:
  struct Instrumented {
    int64_t* counter = nullptr;
  };
  /// Count-mode state of one module.
  struct CountModule : RewriteModule {
    md::Token increment;
    uint16_t probe_depth = 0;
    std::map<mdMethodDef, Instrumented> instrumented;
    // Coverage mode: the module's plan (null without a matching PDB: nothing is selected), and
    // the probes of each instrumented method.
    bool coverage_tried = false;
    std::unique_ptr<ModuleCoverage> coverage;
    std::map<mdMethodDef, std::vector<CoverageProbe>> probes;
  };
  static CountModule& count_state(RewriteModule& state) { return static_cast<CountModule&>(state); }

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
  std::mutex unloaded_mutex_;
  std::vector<std::shared_ptr<RewriteModule>> unloaded_;
};

}  // namespace cil::profiler
