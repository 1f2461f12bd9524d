// The rewriting modes' shared steps: module states, selection, the rewrite at JIT compilation,
// and the ReJIT session's requests, new bodies and revert.
#include "profiler/rewrite_profiler.h"

#include <chrono>

#include <fmt/format.h>

#include "metadata/token_text.h"
#include "profiler/probe_rewrite.h"

namespace cil::profiler {

namespace {

// (Names of their own: the unity build puts this file in one batch with other profiler files.)
double rewrite_micros_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::shared_ptr<RewriteModule> RewriteProfiler::state_of(ModuleID module) {
  {
    std::lock_guard lock(states_mutex_);
    if (auto it = modules_by_id_.find(module); it != modules_by_id_.end()) return it->second;
  }
  std::shared_ptr<RewriteModule> state = new_module();
  state->entry = modules_->get(module);
  if (!state->entry) return state;
  std::lock_guard lock(states_mutex_);
  auto [it, added] = modules_by_id_.try_emplace(module, std::move(state));
  if (added) it->second->sequence = next_sequence_++;
  return it->second;
}

std::vector<std::shared_ptr<RewriteModule>> RewriteProfiler::module_states() {
  std::lock_guard lock(states_mutex_);
  std::vector<std::shared_ptr<RewriteModule>> all;
  for (const auto& [id, state] : modules_by_id_) all.push_back(state);
  return all;
}

void RewriteProfiler::forget_modules() {
  std::lock_guard lock(states_mutex_);
  modules_by_id_.clear();
}

bool RewriteProfiler::selects(RewriteModule& state, mdMethodDef token) {
  if (auto it = state.selected.find(token); it != state.selected.end()) return it->second;
  bool chosen = state.entry && TypeFromToken(token) == mdtMethodDef && chooses(state, token);
  state.selected.emplace(token, chosen);
  return chosen;
}

bool RewriteProfiler::selected_function(FunctionID function, std::shared_ptr<RewriteModule>* state, mdMethodDef* token) {
  if (!selecting()) return false;
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken t = 0;
  if (FAILED(info()->GetFunctionInfo(function, &klass, &module, &t)) || !module || TypeFromToken(t) != mdtMethodDef)
    return false;
  auto s = state_of(module);
  std::lock_guard lock(s->mutex);
  if (!selects(*s, t)) return false;
  *state = std::move(s);
  *token = t;
  return true;
}

bool RewriteProfiler::ensure_set_up(RewriteModule& state) {
  if (!state.setup_tried) {
    state.setup_tried = true;
    if (Status status = set_up(state); !status) {
      state.setup_failed = true;
      diagnostics_.warn(fmt::format("{}: no method of this module is {}: {}", state.entry->name, rewritten_word(),
                                    status.error().to_string()));
    }
  }
  return !state.setup_failed;
}

Expected<std::span<const uint8_t>> RewriteProfiler::original_il(ModuleID module, mdMethodDef token) {
  LPCBYTE header = nullptr;
  ULONG size = 0;
  if (HRESULT hr = info()->GetILFunctionBody(module, token, &header, &size); FAILED(hr) || !header)
    return com_error("GetILFunctionBody", hr);
  return std::span<const uint8_t>(header, size);
}

Status RewriteProfiler::install(RewriteModule& state, mdMethodDef token, FunctionID function, const il::EncodedBody& body) {
  if (!state.sink) state.sink = CIL_TRY(EmitSink::open(info(), state.entry->id));
  CIL_TRY(state.sink->set_new_method_body(md::Token(token), body.bytes));
  // Without the map, the JIT's IL offsets are the new body's, and stack traces name the line of
  // an instruction further on. The runtime copies the caller-allocated array. A refusal leaves
  // the rewrite right and the lines shifted: a warning, not a failure of the method.
  std::vector<COR_IL_MAP> map = instrumented_code_map(body.map);
  if (!map.empty()) {
    if (HRESULT hr = info()->SetILInstrumentedCodeMap(function, TRUE, static_cast<ULONG>(map.size()), map.data()); FAILED(hr))
      diagnostics_.warn(fmt::format("{} ({} in {}): stack traces may show shifted lines: {}", modules_->method_name(*state.entry, token),
                                    md::token_text(md::Token(token)), state.entry->name,
                                    com_error("SetILInstrumentedCodeMap", hr).to_string()));
  }
  return ok();
}

RewriteProfiler::JitOutcome RewriteProfiler::rewrite_at_jit(FunctionID function) {
  std::shared_ptr<RewriteModule> state;
  mdMethodDef token = 0;
  if (!selected_function(function, &state, &token)) return JitOutcome::NotSelected;
  std::lock_guard lock(state->mutex);
  // Tiered compilation and OSR compile a method again from the IL we set: once is enough.
  if (state->done.count(token) || state->failed.count(token)) return JitOutcome::Seen;
  if (!ensure_set_up(*state)) {
    state->failed.insert(token);
    return JitOutcome::NoSetUp;
  }
  Status status = [&]() -> Status {
    std::span<const uint8_t> il = CIL_TRY(original_il(state->entry->id, token));
    il::EncodedBody body = CIL_TRY(rewritten_body(*state, token, il));
    return install(*state, token, function, body);
  }();
  if (status) {
    state->done.insert(token);
    return JitOutcome::Rewritten;
  }
  state->failed.insert(token);
  diagnostics_.warn(fmt::format("{} ({} in {}) left as it was: {}", modules_->method_name(*state->entry, token),
                                md::token_text(md::Token(token)), state->entry->name, status.error().to_string()));
  return JitOutcome::Refused;
}

HRESULT RewriteProfiler::JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) {
  return guarded("JITCachedFunctionSearchStarted", [&] {
    std::shared_ptr<RewriteModule> state;
    mdMethodDef token = 0;
    // (Through ReJIT, precompiled code is replaced too.)
    if (use_cached && !rejit_mode() && selected_function(function, &state, &token)) *use_cached = FALSE;
  });
}

HRESULT RewriteProfiler::JITInlining(FunctionID, FunctionID callee, BOOL* should_inline) {
  return guarded("JITInlining", [&] {
    std::shared_ptr<RewriteModule> state;
    mdMethodDef token = 0;
    if (!should_inline || !selected_function(callee, &state, &token)) return;
    // Through ReJIT, an inlined copy would keep the body of the moment it was inlined: never.
    if (rejit_mode()) return (void)(*should_inline = FALSE);
    // A callee whose IL we set before may be inlined: its copy carries the rewrite. Otherwise the
    // JIT may already hold the original IL, and the copy would have none.
    std::lock_guard lock(state->mutex);
    if (!state->done.count(token) && !state->failed.count(token)) *should_inline = FALSE;
  });
}

HRESULT RewriteProfiler::ModuleUnloadStarted(ModuleID module) {
  return guarded("ModuleUnloadStarted", [&] {
    std::lock_guard lock(states_mutex_);
    if (auto it = modules_by_id_.find(module); it != modules_by_id_.end()) {
      // A later module may reuse the id.
      module_unloaded(it->second);
      modules_by_id_.erase(it);
    }
    modules_->forget(module);
  });
}

HRESULT RewriteProfiler::ModuleLoadFinished(ModuleID module, HRESULT status) {
  if (!rejit_mode() || FAILED(status) || !session_open_) return S_OK;
  // RequestReJIT is not made from inside a callback: the session's thread asks, on its next tick.
  std::lock_guard lock(session_mutex_);
  loaded_during_session_.push_back(module);
  return S_OK;
}

std::vector<ModuleID> RewriteProfiler::take_loaded() {
  std::vector<ModuleID> loaded;
  std::lock_guard lock(session_mutex_);
  loaded.swap(loaded_during_session_);
  return loaded;
}

size_t RewriteProfiler::request_rejit(ModuleID module, const Prepare& prepare) {
  auto state = state_of(module);
  // The framework's modules are left out before their file is read (CoreLib's alone is 10 MB).
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
    // The metadata the bodies need is added now, outside the runtime's callbacks.
    if (tokens.empty() || !prepare(*state)) return 0;
  }
  std::vector<ModuleID> modules(tokens.size(), module);
  HRESULT hr = info()->RequestReJIT(static_cast<ULONG>(tokens.size()), modules.data(), tokens.data());
  if (FAILED(hr)) {
    diagnostics_.warn(fmt::format("{}: RequestReJIT of {} methods failed (HRESULT 0x{:08X}): none is {}", state->entry->name,
                                  tokens.size(), static_cast<uint32_t>(hr), rewritten_word()));
    return 0;
  }
  std::lock_guard lock(session_mutex_);
  for (mdMethodDef token : tokens) rejit_methods_.emplace(module, token);
  return tokens.size();
}

std::pair<size_t, size_t> RewriteProfiler::request_all(const Prepare& prepare) {
  ComPtr<ICorProfilerModuleEnum> modules;
  if (HRESULT hr = info()->EnumModules(modules.out_as<ICorProfilerModuleEnum>()); FAILED(hr) || !modules) {
    diagnostics_.warn(fmt::format("EnumModules failed (HRESULT 0x{:08X}): only modules loaded from now on are {}",
                                  static_cast<uint32_t>(hr), rewritten_word()));
    return {0, 0};
  }
  std::vector<ModuleID> ids;
  ModuleID batch[64];
  ULONG got = 0;
  while (SUCCEEDED(modules->Next(64, batch, &got)) && got > 0) ids.insert(ids.end(), batch, batch + got);
  size_t requested = 0;
  for (ModuleID id : ids) requested += request_rejit(id, prepare);
  return {ids.size(), requested};
}

std::string RewriteProfiler::revert_all() {
  std::vector<ModuleID> modules;
  std::vector<mdMethodDef> methods;
  {
    std::lock_guard lock(session_mutex_);
    for (const auto& [module, token] : rejit_methods_) {
      modules.push_back(module);
      methods.push_back(token);
    }
  }
  size_t reverted = 0;
  if (!methods.empty()) {
    std::vector<HRESULT> status(methods.size(), S_OK);
    HRESULT hr = info()->RequestRevert(static_cast<ULONG>(methods.size()), modules.data(), methods.data(), status.data());
    if (FAILED(hr))
      diagnostics_.warn(fmt::format("RequestRevert of {} methods failed (HRESULT 0x{:08X}): they stay {}", methods.size(),
                                    static_cast<uint32_t>(hr), rewritten_word()));
    for (HRESULT one : status) reverted += SUCCEEDED(one) ? 1 : 0;
    if (FAILED(hr)) reverted = 0;
  }
  return fmt::format("rejit-total {}\nreverted {}\nrejit-errors {}\n", methods.size(), reverted, rejit_errors_.load());
}

void RewriteProfiler::reset_session_state() {
  std::lock_guard lock(session_mutex_);
  rejit_methods_.clear();
  loaded_during_session_.clear();
  rejit_errors_ = 0;
}

HRESULT RewriteProfiler::GetReJITParameters(ModuleID module, mdMethodDef token, ICorProfilerFunctionControl* control) {
  return guarded("GetReJITParameters", [&] {
    auto started = std::chrono::steady_clock::now();
    auto state = state_of(module);
    if (!state->entry || !control) return;
    std::lock_guard lock(state->mutex);
    if (!rejit_ready(*state)) return;  // set-up failed: the original IL stays
    Expected<il::EncodedBody> body = [&]() -> Expected<il::EncodedBody> {
      std::span<const uint8_t> il = CIL_TRY(original_il(module, token));
      return rewritten_body(*state, token, il);
    }();
    if (!body) {
      state->failed.insert(token);
      diagnostics_.warn(fmt::format("{} ({} in {}) left as it was: {}", modules_->method_name(*state->entry, token),
                                    md::token_text(md::Token(token)), state->entry->name, body.error().to_string()));
      stats_.passed(rewrite_micros_since(started));
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
    stats_.rewritten(rewrite_micros_since(started));
  });
}

HRESULT RewriteProfiler::ReJITError(ModuleID module, mdMethodDef token, FunctionID, HRESULT status) {
  return guarded("ReJITError", [&] {
    ++rejit_errors_;
    auto state = state_of(module);
    std::string name = state->entry ? modules_->method_name(*state->entry, token) : md::token_text(md::Token(token));
    diagnostics_.warn(fmt::format("{} ({}): ReJIT failed (HRESULT 0x{:08X}): not {}", name, md::token_text(md::Token(token)),
                                  static_cast<uint32_t>(status), rewritten_word()));
  });
}

}  // namespace cil::profiler
