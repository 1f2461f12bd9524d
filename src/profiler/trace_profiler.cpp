// Trace mode at JIT time: the gate the loader opens, the per-module set-up of TraceMode over the
// runtime's metadata, and the rewrite at JITCompilationStarted.
#include "profiler/trace_profiler.h"

#include <cstdio>
#include <filesystem>
#include <time.h>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/instruction.h"
#include "il/max_stack.h"
#include "il/method_body.h"
#include "il/rewrite.h"
#include "profiler/hooks_loader.h"
#include "metadata/rows.h"
#include "metadata/signature.h"

namespace cil::profiler {

namespace {

/// Whether the hooks are loaded: nothing is traced before the loader says so, and nothing ever
/// when it says they failed. One profiler per process, and the loader's report has no context.
/// One word holds the loader session whose reports count (attach: a number per session; 0 for
/// the startup loader), the gate's state and a failed report's status, so that a report from an
/// earlier session's loader (a call that entered it before that session's revert and reports
/// after the next session began) can neither shut nor open the next session's gate, and whoever
/// sees the gate shut reads the status that shut it.
enum Gate : int { kWaiting, kOpen, kClosed };
constexpr uint32_t kSessionMask = 0xFFFFFF;
constexpr uint64_t gate_word(uint32_t session, int state, int32_t status) {
  return (uint64_t{session & kSessionMask} << 40) | (uint64_t{static_cast<uint8_t>(state)} << 32) | static_cast<uint32_t>(status);
}
std::atomic<uint64_t> g_gate{gate_word(0, kWaiting, 0)};
int gate_state() { return static_cast<int>((g_gate.load() >> 32) & 0xFF); }
std::string g_hooks_name;  ///< for the failure line; set once in start()
/// Attached: a failure is the session's (the client prints it), not a line on the program's stderr.
std::atomic<bool> g_report_quietly{false};

/// This thread's CPU time in microseconds: the rewrite statistics of trace mode are CPU time, so
/// that a loaded machine (other processes, the program's own threads) does not inflate them.
double thread_cpu_micros() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e6 + static_cast<double>(now.tv_nsec) / 1e3;
}

}  // namespace

void TraceProfiler::report(int32_t status, int32_t session) {
  // Attach: the loader runs in every selected method until phase 2 replaces it; the first report
  // of this session counts, and none of another session's.
  uint64_t expected = gate_word(static_cast<uint32_t>(session), kWaiting, 0);
  if (!g_gate.compare_exchange_strong(expected, gate_word(static_cast<uint32_t>(session), status == 0 ? kOpen : kClosed, status)))
    return;
  if (status == 0 || g_report_quietly) return;
  // The line comes before the program's own output: the loader runs before Main.
  decline(fmt::format("hooks {}: cannot be loaded at run time (HRESULT 0x{:08X}): the program runs untraced", g_hooks_name,
                      static_cast<uint32_t>(status)));
  std::fflush(stderr);
}

bool TraceProfiler::hooks_loaded() { return gate_state() == kOpen; }
bool TraceProfiler::hooks_failed() { return gate_state() == kClosed; }
int32_t TraceProfiler::hooks_failure() { return static_cast<int32_t>(static_cast<uint32_t>(g_gate.load())); }
int32_t TraceProfiler::begin_loader_session() {
  uint64_t word = g_gate.load();
  for (;;) {
    auto session = static_cast<uint32_t>(word >> 40);
    if (((word >> 32) & 0xFF) == kOpen) return static_cast<int32_t>(session);
    uint32_t next = (session + 1) & kSessionMask;
    if (g_gate.compare_exchange_weak(word, gate_word(next, kWaiting, 0))) return static_cast<int32_t>(next);
  }
}
int32_t TraceProfiler::loader_session() { return static_cast<int32_t>(g_gate.load() >> 40); }

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
    std::lock_guard lock(loader_mutex_);
    placed = loader_placed_;
  }
  if (!placed)
    diagnostics_.warn(fmt::format("hooks {}: never loaded: no startup method of the runtime (System.StartupHookProvider) was "
                                  "JIT-compiled, so nothing was traced",
                                  g_hooks_name));
}

bool TraceProfiler::chooses(RewriteModule& state, mdMethodDef token) {
  ModuleEntry& entry = *state.entry;
  std::string assembly = modules_->assembly_name(entry);
  // The hooks' own assembly is never traced with itself, nor is the core library: the guard and
  // the hook calls run its code, and a traced method there would recur without end.
  if (assembly == "System.Private.CoreLib") {
    // --include-framework: patterns that reach the core library get nothing there, and say so once.
    std::string name = config_.framework_selected ? modules_->method_name(entry, token) : "";
    if (config_.framework_selected && config_.filter.selects(name) && !core_refused_.exchange(true))
      diagnostics_.warn(fmt::format("{} and every other method of System.Private.CoreLib is never traced: the hooks' guard and "
                                    "calls run the core library's code, so a traced method there would recur without end",
                                    name));
    return false;
  }
  if (module_left_out(entry) || assembly == contract_.assembly) return false;
  if (!config_.filter.selects(modules_->method_name(entry, token))) return false;
  // The reads go to the file: a method the runtime added (our helper's) is not in it, and
  // neither is a module already traced offline (it has the helper type) traced again.
  bool chosen = false;
  modules_->with_file(entry, [&](const md::Module* file, md::Printer*) {
    chosen = file && RidFromToken(token) <= file->tables().rows(md::TableId::MethodDef) && il::has_il_body(*file, md::MethodDefId(RidFromToken(token)));
  });
  return chosen;
}

Status TraceProfiler::open_sink(TraceModule& state) {
  if (!state.sink) state.sink = CIL_TRY(EmitSink::open(info(), state.entry->id));
  return ok();
}

Status TraceProfiler::set_up(RewriteModule& base) {
  TraceModule& state = trace_state(base);
  Status made = [&]() -> Status {
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
  }();
  // A helper type made halfway traces nothing.
  if (!made) state.trace.reset();
  return made;
}

bool TraceProfiler::rejit_ready(RewriteModule& base) {
  TraceModule& state = trace_state(base);
  return state.trace || state.loader;
}

Expected<il::EncodedBody> TraceProfiler::rewritten_body(RewriteModule& base, mdMethodDef token, std::span<const uint8_t> il) {
  TraceModule& state = trace_state(base);
  if (!state.trace) return loader_body(*state.loader, il, &TraceProfiler::report);
  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(il, 0, "method body")));
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  md::MethodDefId method(RidFromToken(token));
  std::string name = modules_->method_name(*state.entry, token);
  if (!state.call_effects) state.call_effects.emplace(*state.sink);
  il::CallEffects& effects = *state.call_effects;
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

bool TraceProfiler::load_hooks_in(FunctionID function) {
  {
    std::lock_guard lock(loader_mutex_);
    if (loader_placed_) return false;
  }
  ClassID klass = 0;
  ModuleID module = 0;
  mdToken token = 0;
  if (FAILED(info()->GetFunctionInfo(function, &klass, &module, &token)) || TypeFromToken(token) != mdtMethodDef) return false;
  auto entry = modules_->get(module);
  if (!entry || modules_->assembly_name(*entry) != "System.Private.CoreLib") return false;
  if (!is_startup_method(modules_->method_name(*entry, token))) return false;
  std::lock_guard lock(loader_mutex_);
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
    g_gate = gate_word(0, kClosed, 0);
    decline(fmt::format("hooks {}: the loader could not be placed: {}: the program runs untraced", g_hooks_name,
                        placed.error().to_string()));
  }
  return true;
}

HRESULT TraceProfiler::JITCompilationStarted(FunctionID function, BOOL) {
  return guarded("JITCompilationStarted", [&] {
    if (gate_state() == kWaiting && load_hooks_in(function)) return;
    // Through ReJIT (a window) the traced bodies come with GetReJITParameters, from START to END.
    if (rejit_mode()) return;
    double started = thread_cpu_micros();
    JitOutcome outcome = rewrite_at_jit(function);
    // CPU time of the rewrite, set-up of the module included (--stats; bench/jit_trace_bench.sh).
    if (outcome == JitOutcome::Rewritten) stats_.rewritten(thread_cpu_micros() - started);
    else if (outcome == JitOutcome::Refused) stats_.passed(thread_cpu_micros() - started);
  });
}

HRESULT TraceProfiler::JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) {
  // Until the loader reports, nothing is selected.
  if (gate_state() != kWaiting) return RewriteProfiler::JITCachedFunctionSearchStarted(function, use_cached);
  return guarded("JITCachedFunctionSearchStarted", [&] {
    if (!use_cached) return;
    // The startup method is precompiled: it must be JIT-compiled to get the loader.
    ClassID klass = 0;
    ModuleID module = 0;
    mdToken token = 0;
    if (SUCCEEDED(info()->GetFunctionInfo(function, &klass, &module, &token))) {
      auto entry = modules_->get(module);
      if (entry && modules_->assembly_name(*entry) == "System.Private.CoreLib" && is_startup_method(modules_->method_name(*entry, token)))
        *use_cached = FALSE;
    }
  });
}

}  // namespace cil::profiler
