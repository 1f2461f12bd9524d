// Trace mode through ReJIT. `run --window`: the hooks loaded at startup, START ReJITs the
// selected methods to their traced bodies and END reverts them. `attach`: the startup method has
// run, so phase 1 ReJITs the selected methods to the loader alone (hooks_loader.h) in front of
// their own IL, and once a call of one of them reports that the hooks loaded, phase 2 defines the
// helper type in each module and ReJITs the methods to their traced bodies; a failed load
// reverts everything and ends the session with the reason.
// ReJIT keeps a running frame on the code it entered: a call that began before its method was
// ReJIT-ed runs untraced to its end (no OnEnter, no OnLeave), and a call that began in a traced
// body still gets its OnLeave or OnException when it returns, even after the revert. Every call
// that begins after the revert runs the original IL.
#include <fmt/format.h>

#include "profiler/trace_profiler.h"

namespace cil::profiler {

namespace {

// (A name of its own: the unity build puts this file in one batch with other profiler files.)
const char* trace_phase_name(int phase) {
  static const char* const names[] = {"idle", "waiting", "loader", "traced"};
  return phase >= 0 && phase < 4 ? names[phase] : "?";
}

}  // namespace

bool TraceProfiler::prepare(TraceModule& state, Phase phase) {
  // The helper type is new (nothing has loaded it), defined once per module for every later
  // session.
  if (phase == Phase::Traced) return ensure_set_up(state) && state.trace;
  if (phase != Phase::Loader || state.loader) return true;
  Status status = [&]() -> Status {
    CIL_TRY(open_sink(state));
    if (!state.refs) state.refs.emplace(CIL_TRY(md::RuntimeRefs::create(*state.sink)));
    state.loader = CIL_TRY(module_loader_tokens(*state.sink, *state.refs, hooks_path_, hook_type_name()));
    state.loader->session = loader_session();
    return ok();
  }();
  if (!status)
    diagnostics_.warn(fmt::format("{}: no method of this module can load the hooks: {}", state.entry->name, status.error().to_string()));
  return static_cast<bool>(status);
}

size_t TraceProfiler::request_all(Phase phase) {
  return RewriteProfiler::request_all([this, phase](RewriteModule& state) { return prepare(trace_state(state), phase); }).second;
}

void TraceProfiler::fail_session(std::string reason) {
  std::lock_guard lock(session_mutex_);
  if (failure_.empty()) failure_ = std::move(reason);
  phase_ = Phase::Idle;
  session_failed_ = true;
}

std::string TraceProfiler::begin_session() {
  set_session_open(true);
  // The helper types defined in the first traced session call that session's hooks: a later
  // session reuses them, so it must name the same hooks. Until then other hooks may be read.
  std::string hooks = config_.hooks_path + "\n" + config_.hook_type;
  std::string traced;
  {
    std::lock_guard lock(session_mutex_);
    traced = session_hooks_;
  }
  if (!traced.empty() && hooks != traced) {
    fail_session(fmt::format("hooks {}: this process was traced with {} before; a later session must name the same hooks and "
                             "hook type (the first hooks stay loaded)",
                             config_.hooks_path, hooks_path_));
    return "phase failed\nrejit 0\n";
  }
  if (hooks != hooks_key_) {
    if (Status read = start(); !read) {
      fail_session(read.error().message);
      return "phase failed\nrejit 0\n";
    }
  }
  // (A loader of an earlier session still running past its revert reports into nothing.)
  if (attached()) begin_loader_session();
  Phase phase = hooks_loaded() ? Phase::Traced : hooks_failed() ? Phase::Idle : attached() ? Phase::Loader : Phase::Waiting;
  {
    std::lock_guard lock(session_mutex_);
    phase_ = phase;
  }
  if (phase == Phase::Traced) {
    std::lock_guard lock(session_mutex_);
    session_hooks_ = hooks;
  }
  size_t requested = phase == Phase::Loader || phase == Phase::Traced ? request_all(phase) : 0;
  return fmt::format("phase {}\nrejit {}\n", trace_phase_name(static_cast<int>(phase)), requested);
}

void TraceProfiler::session_tick() {
  std::vector<ModuleID> loaded = take_loaded();
  Phase phase;
  {
    std::lock_guard lock(session_mutex_);
    phase = phase_;
  }
  if ((phase == Phase::Loader || phase == Phase::Waiting) && hooks_loaded()) {
    // Phase 2 (or a window opened before the startup loader reported): the traced bodies, in
    // every module, those loaded meanwhile too.
    {
      std::lock_guard lock(session_mutex_);
      phase_ = Phase::Traced;
      session_hooks_ = hooks_key_;
    }
    request_all(Phase::Traced);
    return;
  }
  if (phase == Phase::Loader && hooks_failed()) {
    fail_session(fmt::format("hooks {}: cannot be loaded in the process (HRESULT 0x{:08X}); nothing was traced",
                             hooks_path_, static_cast<uint32_t>(hooks_failure())));
    return;
  }
  if (phase == Phase::Waiting && hooks_failed()) {
    std::lock_guard lock(session_mutex_);
    phase_ = Phase::Idle;
    return;
  }
  if (phase == Phase::Loader || phase == Phase::Traced)
    for (ModuleID id : loaded)
      request_rejit(id, [this, phase](RewriteModule& state) { return prepare(trace_state(state), phase); });
}

std::string TraceProfiler::end_session() {
  set_session_open(false);
  std::string failure;
  {
    std::lock_guard lock(session_mutex_);
    phase_ = Phase::Idle;
    failure = failure_;
  }
  std::string text = revert_all();
  if (!failure.empty()) text += fmt::format("failed {}\n", failure);
  return text;
}

void TraceProfiler::reset_session_state() {
  RewriteProfiler::reset_session_state();
  // The modules keep their sink, references and helper type (defined once); the filters may
  // differ from the earlier session's.
  for (const auto& base : module_states()) {
    TraceModule& state = trace_state(*base);
    std::lock_guard lock(state.mutex);
    state.selected.clear();
    state.failed.clear();
    state.loader.reset();  // its user string names the earlier session's hooks
  }
  std::lock_guard lock(session_mutex_);
  phase_ = Phase::Idle;
  failure_.clear();
  session_failed_ = false;
}

}  // namespace cil::profiler
