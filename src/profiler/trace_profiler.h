// Trace mode at JIT time: the selected methods call the user's hooks, as offline trace mode's
// output does, rewritten by the same TraceMode when the JIT compiles them; no file changes. The
// hooks assembly is loaded by the loader in the runtime's startup method (hooks_loader.h), and
// nothing is traced until it reports that the hooks loaded: if they fail to, the program runs
// unprofiled, with one line on stderr saying why.
// Through ReJIT (trace_session.cpp): `run --window` loads the hooks at startup as above, and the
// window's START ReJITs the selected methods to their traced bodies and its END reverts them;
// `attach` first ReJITs them to the loader alone (phase 1), and once a call of one of them has
// loaded the hooks, to their traced bodies (phase 2).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "instrument/hook_contract.h"
#include "instrument/trace_mode.h"
#include "metadata/module.h"
#include "metadata/runtime_refs.h"
#include "profiler/com_ptr.h"
#include "profiler/emit_sink.h"
#include "profiler/hooks_loader.h"
#include "profiler/rewrite_profiler.h"

namespace cil::profiler {

class TraceProfiler final : public RewriteProfiler {
 public:
  explicit TraceProfiler(Config config) : RewriteProfiler(std::move(config)) {}

  /// The loader into the runtime's startup method first; then the traced bodies.
  HRESULT JITCompilationStarted(FunctionID function, BOOL safe_to_block) override;
  HRESULT JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) override;

 protected:
  std::pair<DWORD, DWORD> event_mask() const override;
  /// Reads the hooks assembly and checks its contract: any error declines.
  Status start() override;
  /// Says so when the hooks were never loaded (no startup method was JIT-compiled).
  void finish() override;
  /// Trace mode writes no file of its own: nothing to save on a signal or a flush period.
  void save(int) override {}
  std::string begin_session() override;
  void session_tick() override;
  std::string end_session() override;
  bool session_failed() const override { return session_failed_; }
  bool accepts_mode(Mode mode) const override { return mode == Mode::Trace; }
  void reset_session_state() override;

  std::shared_ptr<RewriteModule> new_module() const override { return std::make_shared<TraceModule>(); }
  /// Selected, not the hooks' own, with an IL body in the module's file.
  bool chooses(RewriteModule& state, mdMethodDef token) override;
  /// The helper type and the references, once per module, before its first traced body.
  Status set_up(RewriteModule& state) override;
  /// The traced body (set up), or through ReJIT before that the loader's (attach, phase 1).
  Expected<il::EncodedBody> rewritten_body(RewriteModule& state, mdMethodDef token, std::span<const uint8_t> il) override;
  bool rejit_ready(RewriteModule& state) override;
  std::string_view rewritten_word() const override { return "traced"; }
  /// Nothing is traced before the loader reports that the hooks loaded.
  bool selecting() const override { return hooks_loaded(); }

 private:
  struct TraceModule : RewriteModule {
    std::optional<md::RuntimeRefs> refs;
    std::optional<instrument::TraceMode> trace;
    /// The stack effect of every method a traced body calls, over `sink`: kept for the module,
    /// so that each call's signature is read and decoded once, not once per method calling it.
    std::optional<il::CallEffects> call_effects;
    /// Attach, phase 1: the loader's references in this module (set when they were added).
    std::optional<LoaderTokens> loader;
  };
  static TraceModule& trace_state(RewriteModule& state) { return static_cast<TraceModule&>(state); }
  /// What a session's RequestReJIT asks for.
  enum class Phase {
    Idle,     ///< nothing (no session, or the hooks failed to load at startup)
    Waiting,  ///< `run --window` opened before the startup loader reported: traced bodies then
    Loader,   ///< attach, phase 1: the loader alone, until it reports
    Traced,   ///< the traced bodies
  };

  /// The loader into the core library's startup method; true when `function` is that method.
  bool load_hooks_in(FunctionID function);
  /// The loader's report (hooks_loader.h), called from managed code: counts only when `session`
  /// is the loader session in force.
  static void report(int32_t status, int32_t session);
  /// The gate the report opens or shuts: whether the hooks loaded, whether they failed to, and
  /// the failed report's status.
  static bool hooks_loaded();
  static bool hooks_failed();
  static int32_t hooks_failure();
  /// An attach session's loaders get a session number of their own (unless the hooks are loaded
  /// already), so that an earlier session's loader, still running past its revert, cannot decide
  /// this one; after a failure the loader is tried again. Returns the number.
  static int32_t begin_loader_session();
  /// The loader session in force: the number the loaders placed now report with.
  static int32_t loader_session();
  /// The sink over the module's metadata, opened once (under state.mutex).
  Status open_sink(TraceModule& state);

  // Through ReJIT (trace_session.cpp).
  /// Readies a module for `phase` (under state.mutex): false leaves it out.
  bool prepare(TraceModule& state, Phase phase);
  /// request_rejit for every module loaded now.
  size_t request_all(Phase phase);
  /// Ends the session with one line saying why (the attach client prints it).
  void fail_session(std::string reason);

  /// Ns.Type of the hooks, as Assembly.GetType takes it.
  std::string hook_type_name() const {
    return contract_.type_namespace.empty() ? contract_.type_name : contract_.type_namespace + "." + contract_.type_name;
  }

  std::unique_ptr<md::Module> hooks_module_;
  instrument::HookContract contract_;
  std::string hooks_path_;  ///< absolute
  std::mutex loader_mutex_;
  bool loader_placed_ = false;  ///< under loader_mutex_
  std::mutex session_mutex_;
  Phase phase_ = Phase::Idle;  ///< under session_mutex_
  std::string failure_;  ///< why the session failed, under session_mutex_
  std::string session_hooks_;  ///< hooks path and type of the first traced session: a later one must use the same
  std::string hooks_key_;      ///< hooks path and type start() read
  std::atomic<bool> session_failed_{false};
  std::atomic<bool> core_refused_{false};  ///< the core library's methods were selected (said once)
};

}  // namespace cil::profiler
