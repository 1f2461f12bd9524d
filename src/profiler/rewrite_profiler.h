// What the modes that rewrite methods at run time share (count and coverage, trace): the state
// of each module, the methods a mode selects, the rewrite when the JIT compiles a method (the
// new body and its IL map set), and, through ReJIT (`attach`, `run --window`), the requests, the
// modules loaded meanwhile, the new body on the next call and the revert. A mode brings only its
// own selection, module set-up and emission.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "il/body_encoder.h"
#include "profiler/emit_sink.h"
#include "profiler/profiler_base.h"

namespace cil::profiler {

/// What every rewriting mode keeps of one module; a mode derives its own from it.
struct RewriteModule {
  virtual ~RewriteModule() = default;

  std::shared_ptr<ModuleEntry> entry;
  /// Order of first use (count mode names its files in this order).
  uint64_t sequence = 0;
  std::mutex mutex;  ///< guards everything below, and the mode's own fields
  std::unordered_map<mdMethodDef, bool> selected;  ///< the mode's decisions, by token
  bool setup_tried = false;
  bool setup_failed = false;
  std::unique_ptr<EmitSink> sink;  ///< over the module's metadata, once opened
  std::set<mdMethodDef> done;      ///< rewritten when the JIT compiled them
  std::set<mdMethodDef> failed;    ///< left as they were
};

class RewriteProfiler : public ProfilerBase {
 public:
  using ProfilerBase::ProfilerBase;

  /// Precompiled code of a selected method has no rewrite: have it JIT-compiled instead.
  HRESULT JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) override;
  HRESULT JITInlining(FunctionID caller, FunctionID callee, BOOL* should_inline) override;
  HRESULT ModuleUnloadStarted(ModuleID module) override;
  /// Through ReJIT: a module loaded during the session has its selected methods ReJIT-ed too.
  HRESULT ModuleLoadFinished(ModuleID module, HRESULT status) override;
  /// Through ReJIT: the mode's body of a method asked for by RequestReJIT, on its next call.
  HRESULT GetReJITParameters(ModuleID module, mdMethodDef token, ICorProfilerFunctionControl* control) override;
  HRESULT ReJITError(ModuleID module, mdMethodDef token, FunctionID function, HRESULT status) override;

 protected:
  bool uses_rejit() const final { return true; }
  /// Forgets the earlier session's requests; a mode that overrides it calls it too.
  void reset_session_state() override;

  // The mode's part.
  virtual std::shared_ptr<RewriteModule> new_module() const = 0;
  /// Whether the mode selects `token` of a module with an entry (under state.mutex); asked once
  /// per method until the state is forgotten.
  virtual bool chooses(RewriteModule& state, mdMethodDef token) = 0;
  /// The module's metadata for the mode's bodies, once, before the first (under state.mutex).
  virtual Status set_up(RewriteModule& state) = 0;
  /// The mode's body of `token` from its original IL `il` (under state.mutex).
  virtual Expected<il::EncodedBody> rewritten_body(RewriteModule& state, mdMethodDef token, std::span<const uint8_t> il) = 0;
  /// Through ReJIT: whether the module gets the mode's bodies (false: the original IL stays).
  virtual bool rejit_ready(RewriteModule& state) { return state.setup_tried && !state.setup_failed; }
  /// What a method the mode rewrote is, for the diagnostics: "instrumented", "traced".
  virtual std::string_view rewritten_word() const = 0;
  /// The mode's gate: nothing is selected while it is shut.
  virtual bool selecting() const { return true; }
  /// A module is unloaded and its state leaves the table (under the table's lock).
  virtual void module_unloaded(std::shared_ptr<RewriteModule> state) { (void)state; }

  /// The module's state, made on first use. A module the runtime cannot describe yet gets a
  /// state without entry, not kept: it is asked about again later.
  std::shared_ptr<RewriteModule> state_of(ModuleID module);
  /// Every module's state now in the table.
  std::vector<std::shared_ptr<RewriteModule>> module_states();
  /// Drops every module's state (a later session starts afresh).
  void forget_modules();
  /// The mode's decision for a method, cached (under state.mutex).
  bool selects(RewriteModule& state, mdMethodDef token);
  /// Whether `function` is a selected method; fills `state` and `token` when it is.
  bool selected_function(FunctionID function, std::shared_ptr<RewriteModule>* state, mdMethodDef* token);
  /// set_up once (under state.mutex); false when it failed, which is said once.
  bool ensure_set_up(RewriteModule& state);
  /// The original IL of `token` as the runtime has it.
  Expected<std::span<const uint8_t>> original_il(ModuleID module, mdMethodDef token);

  enum class JitOutcome {
    NotSelected,
    Seen,       ///< rewritten or refused before (tiered compilation and OSR compile it again)
    NoSetUp,    ///< the module's set-up failed
    Refused,    ///< the mode's body could not be made or set: left as it was, with a warning
    Rewritten,
  };
  /// At JITCompilationStarted: the mode's body for a selected method not seen yet, with the map
  /// that keeps stack traces on the original lines.
  JitOutcome rewrite_at_jit(FunctionID function);

  // Through ReJIT. `prepare` readies a module with selected methods for what is asked (under
  // state.mutex); false leaves the module out.
  using Prepare = std::function<bool(RewriteModule&)>;
  /// The selected methods of `module` not refused before, asked for with RequestReJIT; their
  /// number.
  size_t request_rejit(ModuleID module, const Prepare& prepare);
  /// request_rejit for every module loaded now: the number of modules and of methods.
  std::pair<size_t, size_t> request_all(const Prepare& prepare);
  /// Opens or closes the session: ModuleLoadFinished notes the modules loaded while it is open.
  void set_session_open(bool open) { session_open_ = open; }
  /// The modules loaded since the last call (RequestReJIT is not made from inside a callback).
  std::vector<ModuleID> take_loaded();
  /// RequestRevert of every method asked for: "rejit-total N\nreverted N\nrejit-errors N\n".
  std::string revert_all();

 private:
  /// Sets `body` as the method's IL for `function` being compiled, with its IL map.
  Status install(RewriteModule& state, mdMethodDef token, FunctionID function, const il::EncodedBody& body);

  std::mutex states_mutex_;
  std::unordered_map<ModuleID, std::shared_ptr<RewriteModule>> modules_by_id_;
  uint64_t next_sequence_ = 0;
  // Through ReJIT: what RequestReJIT was asked for (to revert it), the modules loaded meanwhile.
  std::mutex session_mutex_;
  std::set<std::pair<ModuleID, mdMethodDef>> rejit_methods_;
  std::vector<ModuleID> loaded_during_session_;
  std::atomic<bool> session_open_{false};
  std::atomic<size_t> rejit_errors_{0};
};

}  // namespace cil::profiler
