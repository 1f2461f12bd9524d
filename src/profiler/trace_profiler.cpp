// Trace mode at JIT time: the gate the loader opens, the per-module set-up of TraceMode over the
// runtime's metadata, and the rewrite at JITCompilationStarted.
#include "profiler/trace_profiler.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <time.h>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/instruction.h"
#include "il/max_stack.h"
#include "il/method_body.h"
#include "il/rewrite.h"
#include "profiler/hooks_loader.h"
#include "profiler/probe_rewrite.h"
#include "metadata/rows.h"
#include "metadata/signature.h"

namespace cil::profiler {

namespace {

/// Whether the hooks are loaded: nothing is traced before the loader says so, and nothing ever
/// when it says they failed. One profiler per process, and the loader's report has no context.
enum Gate : int { kWaiting, kOpen, kClosed };
std::atomic<int> g_gate{kWaiting};
std::string g_hooks_name;  ///< for the failure line; set once in start()
/// Attached: a failure is the session's (the client prints it), not a line on the program's stderr.
std::atomic<bool> g_report_quietly{false};
std::atomic<int32_t> g_failure{0};  ///< the failed report's status

std::string trace_token_text(mdToken token) { return fmt::format("0x{:08X}", static_cast<uint32_t>(token)); }

/// This thread's CPU time in microseconds: the rewrite statistics of trace mode are CPU time, so
/// that a loaded machine (other processes, the program's own threads) does not inflate them.
double thread_cpu_micros() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e6 + static_cast<double>(now.tv_nsec) / 1e3;
}

}  // namespace

void TraceProfiler::report(int32_t status) {
  if (status == 0) {
    int waiting = kWaiting;
    g_gate.compare_exchange_strong(waiting, kOpen);
    return;
  }
  int expected = kWaiting;
  // Attach: the loader runs in every selected method until phase 2 replaces it; one report counts.
  if (!g_gate.compare_exchange_strong(expected, kClosed)) return;
  g_failure = status;
  if (g_report_quietly) return;
  // The line comes before the program's own output: the loader runs before Main.
  decline(fmt::format("hooks {}: cannot be loaded at run time (HRESULT 0x{:08X}): the program runs untraced", g_hooks_name,
                      static_cast<uint32_t>(status)));
  std::fflush(stderr);
}

bool TraceProfiler::hooks_loaded() { return g_gate == kOpen; }
bool TraceProfiler::hooks_failed() { return g_gate == kClosed; }
int32_t TraceProfiler::hooks_failure() { return g_failure; }
void TraceProfiler::reopen_gate() {
  int closed = kClosed;
  g_gate.compare_exchange_strong(closed, kWaiting);
}

std::pair<DWORD, DWORD> TraceProfiler::event_mask() const {
  // Attached, the startup method has run: the loader comes through ReJIT, as the traced bodies.
  if (attached()) return {COR_PRF_MONITOR_MODULE_LOADS, 0};
  DWORD low = COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_CACHE_SEARCHES;
  if (config_.framework_selected) low |= COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_ALL_NGEN_IMAGES;
  return {low, 0};
}

Status TraceProfiler::start() {
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(config_.hooks_path, ec);
  hooks_path_ = ec ? config_.hooks_path : path.lexically_normal().string();
  g_hooks_name = std::filesystem::path(hooks_path_).filename().string();
  g_report_quietly = attached();
  auto failed = [&](const Error& e) {
    return make_error(ErrorKind::Usage, "", fmt::format("hooks {}: {}", hooks_path_, e.to_string()));
  };
  auto module = md::Module::load(hooks_path_);
  if (!module) return failed(module.error());
  hooks_module_ = std::move(*module);
  auto contract = instrument::read_hook_contract(
      *hooks_module_, config_.hook_type.empty() ? std::nullopt : std::optional<std::string>(config_.hook_type));
  if (!contract) return failed(contract.error());
  contract_ = std::move(*contract);
  hooks_key_ = config_.hooks_path + "\n" + config_.hook_type;
  return ok();
}

void TraceProfiler::finish() {
  if (attached()) return;
  bool placed;
  {
    std::lock_guard lock(mutex_);
    placed = loader_placed_;
  }
  if (!placed)
    diagnostics_.warn(fmt::format("hooks {}: never loaded: no startup method of the runtime (System.StartupHookProvider) was "
                                  "JIT-compiled, so nothing was traced",
                                  g_hooks_name));
}

std::shared_ptr<TraceProfiler::TraceModule> TraceProfiler::state_of(ModuleID module) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = modules_by_id_.find(module); it != modules_by_id_.end()) return it->second;
  }
  auto state = std::make_shared<TraceModule>();
  state->entry = modules_->get(module);
  if (!state->entry) return state;
  std::lock_guard lock(mutex_);
  return modules_by_id_.try_emplace(module, std::move(state)).first->second;
}

bool TraceProfiler::selects(TraceModule& state, mdMethodDef token) {
  if (auto it = state.selected.find(token); it != state.selected.end()) return it->second;
  bool chosen = false;
  ModuleEntry* entry = state.entry.get();
  // The hooks' own assembly is never traced with itself, nor is the core library: the guard and
  // the hook calls run its code, and a traced method there would recur without end.
  bool core = entry && modules_->assembly_name(*entry) == "System.Private.CoreLib";
  if (core && config_.framework_selected && TypeFromToken(token) == mdtMethodDef) {
    // --include-framework: patterns that reach the core library get nothing there, and say so once.
    std::string name = modules_->method_name(*entry, token);
    if (config_.filter.selects(name) && !core_refused_.exchange(true))
      diagnostics_.warn(fmt::format("{} and every other method of System.Private.CoreLib is never traced: the hooks' guard and "
                                    "calls run the core library's code, so a traced method there would recur without end",
                                    name));
  }
  if (entry && TypeFromToken(token) == mdtMethodDef && !module_left_out(*entry) && !core &&
      modules_->assembly_name(*entry) != contract_.assembly) {
    std::string name = modules_->method_name(*entry, token);
    chosen = config_.filter.selects(name);
    if (chosen) {
      // The reads go to the file: a method the runtime added (our helper's) is not in it, and
      // neither is a module already traced offline (it has the helper type) traced again.
      modules_->with_file(*entry, [&](const md::Module* file, md::Printer*) {
        chosen = file && RidFromToken(token) <= file->tables().rows(md::TableId::MethodDef) &&
                 il::has_il_body(*file, md::MethodDefId(RidFromToken(token)));
      });
    }
  }
  state.selected.emplace(token, chosen);
  return chosen;
}

bool TraceProfiler::selected_function(FunctionID function, std::shared_ptr<TraceModule>* state, mdMethodDef* token) {
  if (g_gate != kOpen) return false;
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

Status TraceProfiler::open_sink(TraceModule& state) {
  if (!state.sink) state.sink = CIL_TRY(EmitSink::open(info(), state.entry->id));
  return ok();
}

Status TraceProfiler::set_up(TraceModule& state) {
  state.setup_tried = true;
  const md::Module* file = nullptr;
  modules_->with_file(*state.entry, [&](const md::Module* f, md::Printer*) { file = f; });
  // The entry keeps its file for as long as the module state lives.
  if (!file) return make_error(ErrorKind::Unsupported, "", "its file could not be read");
  for (uint32_t rid = 1; rid <= file->tables().rows(md::TableId::TypeDef); ++rid)
    if (file->row<md::TableId::TypeDef>(rid).type_name() == "<CilInstrument>")
      return make_error(ErrorKind::Unsupported, "", "it is instrumented already (it has <CilInstrument>)");
  CIL_TRY(open_sink(state));
  if (!state.refs) state.refs.emplace(CIL_TRY(md::RuntimeRefs::create(*state.sink)));
  state.trace.emplace(CIL_TRY(instrument::TraceMode::begin(*file, *state.sink, *state.sink, *state.refs, contract_)));
  // The helper's bodies go in before any traced body that refers to them.
  il::CallEffects effects(*state.sink);
  CIL_TRY(state.trace->finish(effects));
  return ok();
}

Expected<il::EncodedBody> TraceProfiler::traced_body(TraceModule& state, mdMethodDef token) {
  ModuleID module = state.entry->id;
  LPCBYTE header = nullptr;
  ULONG size = 0;
  if (HRESULT hr = info()->GetILFunctionBody(module, token, &header, &size); FAILED(hr) || !header)
    return com_error("GetILFunctionBody", hr);
  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(std::span<const uint8_t>(header, size), 0, "method body")));
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  md::MethodDefId method(RidFromToken(token));
  std::string name = modules_->method_name(*state.entry, token);
  il::CallEffects effects(*state.sink);
  il::BodyEdit edit;
  edit.edit = [&](il::BodyModel& model) -> Status {
    CIL_TRY(state.trace->instrument(method, name, model));
    bool returns_value = false;
    modules_->with_file(*state.entry, [&](const md::Module* file, md::Printer*) {
      if (!file) return;
      if (auto r = file->row(method).signature_reader("method signature"))
        if (auto sig = md::decode_method_sig(*r)) returns_value = sig->return_type.element != md::ElementType::Void;
    });
    model.max_stack = std::max(model.max_stack, CIL_TRY(il::compute_max_stack(model, returns_value, effects)));
    return ok();
  };
  return il::rewrite_body(body, code, edit);
}

Status TraceProfiler::instrument(TraceModule& state, mdMethodDef token, FunctionID function) {
  il::EncodedBody rewritten = CIL_TRY(traced_body(state, token));
  CIL_TRY(state.sink->set_new_method_body(md::Token(token), rewritten.bytes));
  // Stack traces keep the original lines: the runtime maps the new offsets back.
  std::vector<COR_IL_MAP> map = instrumented_code_map(rewritten.map);
  if (!map.empty()) {
    if (HRESULT hr = info()->SetILInstrumentedCodeMap(function, TRUE, static_cast<ULONG>(map.size()), map.data()); FAILED(hr))
      diagnostics_.warn(fmt::format("{} ({} in {}): stack traces may show shifted lines: {}", modules_->method_name(*state.entry, token), trace_token_text(token),
                                    state.entry->name, com_error("SetILInstrumentedCodeMap", hr).to_string()));
  }
  return ok();
}

bool TraceProfiler::load_hooks_in(FunctionID function) {
  {
    std::lock_guard lock(mutex_);
    if (loader_placed_) return false;
  }
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken token = 0;
  if (FAILED(info()->GetFunctionInfo(function, &klass, &module, &token)) || TypeFromToken(token) != mdtMethodDef) return false;
  auto entry = modules_->get(module);
  if (!entry || modules_->assembly_name(*entry) != "System.Private.CoreLib") return false;
  if (!is_startup_method(modules_->method_name(*entry, token))) return false;
  std::lock_guard lock(mutex_);
  if (loader_placed_) return false;
  loader_placed_ = true;
  auto placed = [&]() -> Status {
    auto core = CIL_TRY(EmitSink::open(info(), module));
    LPCBYTE header = nullptr;
    ULONG size = 0;
    if (HRESULT hr = info()->GetILFunctionBody(module, token, &header, &size); FAILED(hr) || !header)
      return com_error("GetILFunctionBody", hr);
    LoaderTokens tokens = CIL_TRY(core_loader_tokens(*core, hooks_path_, hook_type_name()));
    il::EncodedBody body = CIL_TRY(loader_body(tokens, std::span<const uint8_t>(header, size), &TraceProfiler::report));
    return core->set_new_method_body(md::Token(token), body.bytes);
  }();
  if (!placed) {
    g_gate = kClosed;
    decline(fmt::format("hooks {}: the loader could not be placed: {}: the program runs untraced", g_hooks_name,
                        placed.error().to_string()));
  }
  return true;
}

HRESULT TraceProfiler::JITCompilationStarted(FunctionID function, BOOL) {
  return guarded("JITCompilationStarted", [&] {
    if (g_gate == kWaiting && load_hooks_in(function)) return;
    // Through ReJIT (a window) the traced bodies come with GetReJITParameters, from START to END.
    if (rejit_mode()) return;
    double started = thread_cpu_micros();
    std::shared_ptr<TraceModule> state;
    mdMethodDef token = 0;
    if (!selected_function(function, &state, &token)) return;
    std::lock_guard lock(state->mutex);
    // Tiered compilation and OSR compile a method again from the IL we set: once is enough.
    if (state->done.count(token) || state->failed.count(token)) return;
    Status status = ok();
    if (!state->setup_tried) {
      status = set_up(*state);
      if (!status) {
        state->sink.reset();
        diagnostics_.warn(fmt::format("{}: no method of this module is traced: {}", state->entry->name, status.error().to_string()));
      }
    }
    if (!state->sink) return (void)state->failed.insert(token);
    status = instrument(*state, token, function);
    // CPU time of the rewrite, set-up of the module included (--stats; bench/jit_trace_bench.sh).
    if (status) stats_.rewritten(thread_cpu_micros() - started);
    else stats_.passed(thread_cpu_micros() - started);
    if (status) {
      state->done.insert(token);
    } else {
      state->failed.insert(token);
      diagnostics_.warn(fmt::format("{} ({} in {}) left as it was: {}", modules_->method_name(*state->entry, token), trace_token_text(token),
                                    state->entry->name, status.error().to_string()));
    }
  });
}

HRESULT TraceProfiler::JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) {
  return guarded("JITCachedFunctionSearchStarted", [&] {
    if (!use_cached) return;
    // The startup method is precompiled: it must be JIT-compiled to get the loader.
    if (g_gate == kWaiting) {
      ClassID klass = 0;
      ModuleID module = 0;
      mdToken token = 0;
      if (SUCCEEDED(info()->GetFunctionInfo(function, &klass, &module, &token))) {
        auto entry = modules_->get(module);
        if (entry && modules_->assembly_name(*entry) == "System.Private.CoreLib" && is_startup_method(modules_->method_name(*entry, token)))
          *use_cached = FALSE;
      }
      return;
    }
    std::shared_ptr<TraceModule> state;
    mdMethodDef token = 0;
    // (Through ReJIT, precompiled code is replaced too.)
    if (!rejit_mode() && selected_function(function, &state, &token)) *use_cached = FALSE;
  });
}

HRESULT TraceProfiler::JITInlining(FunctionID, FunctionID callee, BOOL* should_inline) {
  return guarded("JITInlining", [&] {
    std::shared_ptr<TraceModule> state;
    mdMethodDef token = 0;
    if (!should_inline || !selected_function(callee, &state, &token)) return;
    // Through ReJIT, an inlined copy would keep the body of the moment it was inlined: never.
    if (rejit_mode()) return (void)(*should_inline = FALSE);
    std::lock_guard lock(state->mutex);
    if (!state->done.count(token) && !state->failed.count(token)) *should_inline = FALSE;
  });
}

HRESULT TraceProfiler::ModuleUnloadStarted(ModuleID module) {
  return guarded("ModuleUnloadStarted", [&] {
    std::lock_guard lock(mutex_);
    modules_by_id_.erase(module);
    modules_->forget(module);
  });
}

}  // namespace cil::profiler
