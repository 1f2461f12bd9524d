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
#include <chrono>

#include <fmt/format.h>

#include "metadata/token_text.h"
#include "profiler/probe_rewrite.h"
#include "profiler/trace_profiler.h"

namespace cil::profiler {

namespace {

// (Names of their own: the unity build puts this file in one batch with other profiler files.)
double rejit_micros_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

const char* trace_phase_name(int phase) {
  static const char* const names[] = {"idle", "waiting", "loader", "traced"};
  return phase >= 0 && phase < 4 ? names[phase] : "?";
}

}  // namespace

HRESULT TraceProfiler::ModuleLoadFinished(ModuleID module, HRESULT status) {
  if (!rejit_mode() || FAILED(status) || !session_open_) return S_OK;
  // RequestReJIT is not made from inside a callback: the session's thread asks, on its next tick.
  std::lock_guard lock(session_mutex_);
  loaded_during_session_.push_back(module);
  return S_OK;
}

size_t TraceProfiler::request_rejit(ModuleID module, Phase phase) {
  auto state = state_of(module);
  if (!state->entry || module_left_out(*state->entry)) return 0;
  std::vector<mdMethodDef> tokens;
  {
    std::lock_guard lock(state->mutex);
    uint32_t methods = 0;
    modules_->with_file(*state->entry, [&](const md::Module* file, md::Printer*) {
      if (file) methods = file->tables().rows(md::TableId::MethodDef);
    });
    for (uint32_t rid = 1; rid <= methods; ++rid) {
      mdMethodDef token = md::make_token(md::TableId::MethodDef, rid).value();
      if (selects(*state, token) && !state->failed.count(token)) tokens.push_back(token);
    }
    if (tokens.empty()) return 0;
    // The metadata the bodies need is added now, outside the runtime's callbacks: the helper
    // type is new (nothing has loaded it), defined once per module for every later session.
    if (phase == Phase::Traced && !state->setup_tried) {
      if (Status status = set_up(*state); !status) {
        state->trace.reset();
        diagnostics_.warn(fmt::format("{}: no method of this module is traced: {}", state->entry->name, status.error().to_string()));
      }
    }
    if (phase == Phase::Traced && !state->trace) return 0;
    if (phase == Phase::Loader && !state->loader) {
      Status status = [&]() -> Status {
        CIL_TRY(open_sink(*state));
        if (!state->refs) state->refs.emplace(CIL_TRY(md::RuntimeRefs::create(*state->sink)));
        state->loader = CIL_TRY(module_loader_tokens(*state->sink, *state->refs, hooks_path_, hook_type_name()));
        return ok();
      }();
      if (!status) {
        diagnostics_.warn(fmt::format("{}: no method of this module can load the hooks: {}", state->entry->name, status.error().to_string()));
        return 0;
      }
    }
  }
  std::vector<ModuleID> modules(tokens.size(), module);
  HRESULT hr = info()->RequestReJIT(static_cast<ULONG>(tokens.size()), modules.data(), tokens.data());
  if (FAILED(hr)) {
    diagnostics_.warn(fmt::format("{}: RequestReJIT of {} methods failed (HRESULT 0x{:08X}): none is traced", state->entry->name,
                                  tokens.size(), static_cast<uint32_t>(hr)));
    return 0;
  }
  std::lock_guard lock(session_mutex_);
  for (mdMethodDef token : tokens) rejit_methods_.emplace(module, token);
  return tokens.size();
}

size_t TraceProfiler::request_all(Phase phase) {
  ComPtr<ICorProfilerModuleEnum> modules;
  if (HRESULT hr = info()->EnumModules(modules.out_as<ICorProfilerModuleEnum>()); FAILED(hr) || !modules) {
    diagnostics_.warn(fmt::format("EnumModules failed (HRESULT 0x{:08X}): only modules loaded from now on are traced",
                                  static_cast<uint32_t>(hr)));
    return 0;
  }
  std::vector<ModuleID> ids;
  ModuleID batch[64];
  ULONG got = 0;
  while (SUCCEEDED(modules->Next(64, batch, &got)) && got > 0) ids.insert(ids.end(), batch, batch + got);
  size_t requested = 0;
  for (ModuleID id : ids) requested += request_rejit(id, phase);
  return requested;
}

void TraceProfiler::fail_session(std::string reason) {
  std::lock_guard lock(session_mutex_);
  if (failure_.empty()) failure_ = std::move(reason);
  phase_ = Phase::Idle;
  session_failed_ = true;
}

std::string TraceProfiler::begin_session() {
  session_open_ = true;
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
  if (attached() && hooks_failed()) reopen_gate();
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
  std::vector<ModuleID> loaded;
  Phase phase;
  {
    std::lock_guard lock(session_mutex_);
    loaded.swap(loaded_during_session_);
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
    for (ModuleID id : loaded) request_rejit(id, phase);
}

std::string TraceProfiler::end_session() {
  session_open_ = false;
  std::vector<ModuleID> modules;
  std::vector<mdMethodDef> methods;
  std::string failure;
  {
    std::lock_guard lock(session_mutex_);
    phase_ = Phase::Idle;
    for (const auto& [module, token] : rejit_methods_) {
      modules.push_back(module);
      methods.push_back(token);
    }
    failure = failure_;
  }
  size_t reverted = 0;
  if (!methods.empty()) {
    std::vector<HRESULT> status(methods.size(), S_OK);
    HRESULT hr = info()->RequestRevert(static_cast<ULONG>(methods.size()), modules.data(), methods.data(), status.data());
    if (FAILED(hr))
      diagnostics_.warn(fmt::format("RequestRevert of {} methods failed (HRESULT 0x{:08X}): they stay traced", methods.size(),
                                    static_cast<uint32_t>(hr)));
    for (HRESULT one : status) reverted += SUCCEEDED(one) ? 1 : 0;
    if (FAILED(hr)) reverted = 0;
  }
  std::string text = fmt::format("rejit-total {}\nreverted {}\nrejit-errors {}\n", methods.size(), reverted, rejit_errors_.load());
  if (!failure.empty()) text += fmt::format("failed {}\n", failure);
  return text;
}

void TraceProfiler::reset_session_state() {
  // The modules keep their sink, references and helper type (defined once); the filters may
  // differ from the earlier session's.
  std::vector<std::shared_ptr<TraceModule>> all;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, state] : modules_by_id_) all.push_back(state);
  }
  for (const auto& state : all) {
    std::lock_guard lock(state->mutex);
    state->selected.clear();
    state->failed.clear();
    state->loader.reset();  // its user string names the earlier session's hooks
  }
  std::lock_guard lock(session_mutex_);
  phase_ = Phase::Idle;
  rejit_methods_.clear();
  loaded_during_session_.clear();
  failure_.clear();
  session_failed_ = false;
  rejit_errors_ = 0;
}

HRESULT TraceProfiler::GetReJITParameters(ModuleID module, mdMethodDef token, ICorProfilerFunctionControl* control) {
  return guarded("GetReJITParameters", [&] {
    auto started = std::chrono::steady_clock::now();
    auto state = state_of(module);
    if (!state->entry || !control) return;
    std::lock_guard lock(state->mutex);
    Expected<il::EncodedBody> body = make_error(ErrorKind::Unsupported, "", "no body");
    if (state->trace) {
      body = traced_body(*state, token);
    } else if (state->loader) {
      LPCBYTE header = nullptr;
      ULONG size = 0;
      if (HRESULT hr = info()->GetILFunctionBody(module, token, &header, &size); FAILED(hr) || !header)
        body = com_error("GetILFunctionBody", hr);
      else
        body = loader_body(*state->loader, std::span<const uint8_t>(header, size), &TraceProfiler::report);
    } else {
      return;  // set-up failed: the original IL stays
    }
    if (!body) {
      state->failed.insert(token);
      diagnostics_.warn(fmt::format("{} ({} in {}) left as it was: {}", modules_->method_name(*state->entry, token), md::token_text(md::Token(token)),
                                    state->entry->name, body.error().to_string()));
      stats_.passed(rejit_micros_since(started));
      return;
    }
    // The runtime copies both the body and the map.
    if (HRESULT hr = control->SetILFunctionBody(static_cast<ULONG>(body->bytes.size()), body->bytes.data()); FAILED(hr)) {
      state->failed.insert(token);
      diagnostics_.warn(fmt::format("{} ({} in {}): {}", modules_->method_name(*state->entry, token), md::token_text(md::Token(token)),
                                    state->entry->name, com_error("SetILFunctionBody", hr).to_string()));
      return;
    }
    std::vector<COR_IL_MAP> map = instrumented_code_map(body->map);
    if (!map.empty()) control->SetILInstrumentedCodeMap(static_cast<ULONG>(map.size()), map.data());
    stats_.rewritten(rejit_micros_since(started));
  });
}

HRESULT TraceProfiler::ReJITError(ModuleID module, mdMethodDef token, FunctionID, HRESULT status) {
  return guarded("ReJITError", [&] {
    ++rejit_errors_;
    auto state = state_of(module);
    std::string name = state->entry ? modules_->method_name(*state->entry, token) : md::token_text(md::Token(token));
    diagnostics_.warn(fmt::format("{} ({}): ReJIT failed (HRESULT 0x{:08X}): not traced", name, md::token_text(md::Token(token)), static_cast<uint32_t>(status)));
  });
}

}  // namespace cil::profiler
