// Count mode: per-module metadata set-up, the rewrite at JITCompilationStarted, and the count
// files at Shutdown.
#include "profiler/count_profiler.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "instrument/count_mode.h"
#include "instrument/probes.h"
#include "instrument/runtime_contract.h"
#include "metadata/runtime_refs.h"
#include "metadata/token_text.h"
#include "support/file_io.h"
#include "profiler/probe_rewrite.h"

namespace cil::profiler {

namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

/// The probe's own callee is never instrumented (the JIT expands it inline, but a probe
/// calling a probed method must not be possible at all).
bool never_instrumented(std::string_view name) {
  static const std::string kPrefix = fmt::format("{}.{}::", instrument::kIncrementNamespace, instrument::kIncrementType);
  return name.rfind(kPrefix, 0) == 0;
}

/// One entry of a counts or hits file, after `json`'s earlier ones, in offline count mode's pieces.
void append_entry(std::string& json, bool first, mdToken token, std::string_view name, int64_t count) {
  if (!first) json += contract::kCountsSeparator;
  json += contract::counts_method_open();
  md::append_token_digits(json, md::Token(token));
  json += contract::counts_method_name();
  json += md::json_quote(name);
  json += contract::counts_method_count();
  json += std::to_string(count);
  json += contract::kCountsMethodClose;
}

/// Per thread: the state of the exception being dispatched.
struct Dispatch {
  bool catcher_found = false;
  bool written = false;  ///< counts already written for this exception
};
thread_local Dispatch t_dispatch;

}  // namespace

int64_t* NativeCounters::allocate() {
  std::lock_guard lock(mutex_);
  if (used_ == kBlock) {
    blocks_.push_back(new int64_t[kBlock]());
    used_ = 0;
  }
  return &blocks_.back()[used_++];
}

std::pair<DWORD, DWORD> CountProfiler::event_mask() const {
  DWORD low = COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_EXCEPTIONS;
  // Through ReJIT (attached, or a window) the JIT callbacks have nothing to do: the probes come
  // with GetReJITParameters, which replaces precompiled code too. They are not asked for.
  if (!rejit_mode()) low |= COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_CACHE_SEARCHES;
  // Framework code comes precompiled (ReadyToRun) and inlined into other precompiled code: a
  // selected framework method would run without its probe. Everything is JIT-compiled instead.
  if (config_.framework_selected) low |= COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_ALL_NGEN_IMAGES;
  return {low, 0};
}

bool CountProfiler::chooses(RewriteModule& base, mdMethodDef token) {
  CountModule& state = count_state(base);
  if (module_left_out(*state.entry)) return false;
  std::string name = modules_->method_name(*state.entry, token);
  bool chosen = config_.filter.selects(name) && !never_instrumented(name);
  if (chosen) {
    // Methods without IL (abstract, P/Invoke, runtime-implemented) are never rewritten.
    modules_->with_file(*state.entry, [&](const md::Module* file, md::Printer*) {
      if (file) chosen = il::has_il_body(*file, md::MethodDefId(RidFromToken(token)));
    });
  }
  // Coverage: only in modules with a matching PDB, and never what the attributes exclude.
  if (chosen && coverage_mode()) chosen = coverage_ready(state) && !state.coverage->excluded(md::MethodDefId(RidFromToken(token)));
  return chosen;
}

Status CountProfiler::set_up(RewriteModule& base) {
  CountModule& state = count_state(base);
  state.sink = CIL_TRY(EmitSink::open(info(), state.entry->id));
  // As offline count mode: scoped to the module's core library, or its own definition when the
  // module is the core library.
  md::RuntimeRefs refs = CIL_TRY(md::RuntimeRefs::create(*state.sink));
  state.increment = CIL_TRY(instrument::resolve_increment(refs));
  il::CallEffects effects(*state.sink);
  state.probe_depth = CIL_TRY(instrument::probe_max_stack(native_counter(0), state.increment, effects, probe_kind()));
  return ok();
}

Expected<il::EncodedBody> CountProfiler::rewritten_body(RewriteModule& base, mdMethodDef token, std::span<const uint8_t> il) {
  CountModule& state = count_state(base);
  if (coverage_mode()) {
    md::MethodDefId method(RidFromToken(token));
    md::MethodDefId source = state.coverage->attributed(method);
    std::string source_name = modules_->method_name(*state.entry, source.token().value());
    std::vector<CoverageProbe> probes;
    // A method ReJIT-ed again in a later session of the same profiler counts on where it was.
    auto known = state.probes.find(token);
    size_t next = 0;
    auto counter = [&]() -> int64_t* {
      if (known != state.probes.end() && next < known->second.size()) return const_cast<int64_t*>(known->second[next++].counter);
      return counters_.allocate();
    };
    il::EncodedBody body = CIL_TRY(state.coverage->rewrite(method, source_name, il, state.increment, probe_kind(), state.probe_depth,
                                                           counter, probes));
    state.probes[token] = std::move(probes);
    state.instrumented.emplace(token, Instrumented{nullptr});
    return body;
  }
  auto [it, added] = state.instrumented.try_emplace(token, Instrumented{nullptr});
  if (!it->second.counter) it->second.counter = counters_.allocate();
  return add_entry_probe(il, native_counter(reinterpret_cast<uint64_t>(it->second.counter)), state.increment, state.probe_depth);
}

HRESULT CountProfiler::JITCompilationStarted(FunctionID function, BOOL) {
  return guarded("JITCompilationStarted", [&] {
    auto started = Clock::now();
    bool rewritten = rewrite_at_jit(function) == JitOutcome::Rewritten;
    double took = micros_since(started);
    if (rewritten) stats_.rewritten(took);
    else stats_.passed(took);
  });
}

void CountProfiler::module_unloaded(std::shared_ptr<RewriteModule> state) {
  std::lock_guard lock(unloaded_mutex_);
  unloaded_.push_back(std::move(state));
}

HRESULT CountProfiler::ExceptionThrown(ObjectID) {
  t_dispatch = Dispatch{};
  return S_OK;
}

HRESULT CountProfiler::ExceptionSearchCatcherFound(FunctionID) {
  t_dispatch.catcher_found = true;
  return S_OK;
}

HRESULT CountProfiler::ExceptionUnwindFunctionEnter(FunctionID) {
  return guarded("ExceptionUnwindFunctionEnter", [&] {
    if (t_dispatch.catcher_found || t_dispatch.written) return;
    // Unwinding with no catcher: the process is about to end. (A false alarm, such as an
    // exception caught by native code, only writes the files early; Shutdown writes them again.)
    t_dispatch.written = true;
    write_files(0);
  });
}

std::string CountProfiler::begin_session() {
  set_session_open(true);
  // The metadata the probes need (the Interlocked reference) is added before the requests.
  auto [modules, requested] = request_all([this](RewriteModule& state) { return ensure_set_up(state); });
  return fmt::format("modules {}\nrejit {}\n", modules, requested);
}

void CountProfiler::reset_session_state() {
  RewriteProfiler::reset_session_state();
  forget_modules();
  std::lock_guard lock(unloaded_mutex_);
  unloaded_.clear();
}

void CountProfiler::session_tick() {
  for (ModuleID id : take_loaded()) request_rejit(id, [this](RewriteModule& state) { return ensure_set_up(state); });
}

std::string CountProfiler::end_session() {
  set_session_open(false);
  session_tick();
  return revert_all();
}
bool CountProfiler::coverage_ready(CountModule& state) {
  if (!state.coverage_tried) {
    state.coverage_tried = true;
    std::string warning;
    modules_->with_file(*state.entry, [&](const md::Module* file, md::Printer*) {
      // The file outlives the plan: the entry keeps it for as long as the module state lives.
      // Modules without symbols (the framework, most packages) are simply not covered.
      if (file) state.coverage = ModuleCoverage::open(*file, state.entry->path, warning);
    });
    // With a source root (`run -- dotnet test`), only the user's own code under test: the test
    // platform, xunit and packages carry PDBs whose documents are on their build machines, and
    // the test assemblies are left out as coverlet leaves them.
    if (state.coverage && !config_.source_root.empty() &&
        (!state.coverage->has_document_under(config_.source_root) || state.coverage->is_test_assembly())) {
      state.coverage.reset();
      return false;
    }
    if (!warning.empty()) diagnostics_.warn(fmt::format("{}: {}", state.entry->name, warning));
  }
  return state.coverage != nullptr;
}

std::string CountProfiler::hits_entries(CountModule& state) {
  std::string json;
  bool first = true;
  auto add = [&](mdMethodDef token, const std::vector<CoverageProbe>& probes) {
    for (const CoverageProbe& p : probes) {
      append_entry(json, first, token, p.description, p.counter ? __atomic_load_n(p.counter, __ATOMIC_RELAXED) : 0);
      first = false;
    }
  };
  // As offline coverage mode: every selected method with an IL body, in token order, those
  // never compiled with their probes at zero.
  uint32_t methods = 0;
  modules_->with_file(*state.entry, [&](const md::Module* file, md::Printer*) {
    if (file) methods = file->tables().rows(md::TableId::MethodDef);
  });
  for (uint32_t rid = 1; rid <= methods; ++rid) {
    mdMethodDef token = md::make_token(md::TableId::MethodDef, rid).value();
    if (state.failed.count(token)) continue;
    if (auto it = state.probes.find(token); it != state.probes.end()) {
      add(token, it->second);
      continue;
    }
    if (!selects(state, token)) continue;
    md::MethodDefId source = state.coverage->attributed(md::MethodDefId(rid));
    std::string source_name = modules_->method_name(*state.entry, source.token().value());
    std::vector<CoverageProbe> probes;
    if (state.coverage->describe(md::MethodDefId(rid), source_name, probes)) add(token, probes);
  }
  return json;
}

void CountProfiler::write_counts(CountModule& state, std::set<std::string>& used_names) {
  std::lock_guard lock(state.mutex);
  // A method whose probed body the runtime refused is in `failed`: it counts for nothing.
  bool any = std::any_of(state.instrumented.begin(), state.instrumented.end(),
                         [&](const auto& slot) { return !state.failed.count(slot.first); });
  if (!any || !state.entry) return;
  ModuleEntry& entry = *state.entry;
  struct Row {
    mdMethodDef token;
    std::string name;
    int64_t count;
  };
  std::vector<Row> rows;
  auto count_of = [&](mdMethodDef token) -> int64_t {
    auto it = state.instrumented.find(token);
    return it == state.instrumented.end() ? 0 : __atomic_load_n(it->second.counter, __ATOMIC_RELAXED);
  };
  std::string assembly, mvid;
  modules_->with_file(entry, [&](const md::Module* file, md::Printer* printer) {
    if (!file) return;
    const auto& t = file->tables();
    if (t.rows(md::TableId::Assembly)) assembly = file->row<md::TableId::Assembly>(1).name();
    if (t.rows(md::TableId::Module))
      if (auto guid = file->row<md::TableId::Module>(1).mvid()) mvid = md::format_guid(*guid);
    if (coverage_mode()) return;  // the probes, below
    // Like offline count mode: every selected method with an IL body, those never called too.
    for (uint32_t rid = 1; rid <= t.rows(md::TableId::MethodDef); ++rid) {
      mdMethodDef token = md::make_token(md::TableId::MethodDef, rid).value();
      if (!il::has_il_body(*file, md::MethodDefId(rid)) || state.failed.count(token)) continue;
      std::string name = printer->method_name(md::MethodDefId(rid));
      if (!config_.filter.selects(name) || never_instrumented(name)) continue;
      rows.push_back({token, std::move(name), count_of(token)});
    }
  });
  if (coverage_mode()) {
    // Coverage needs the file (the plan reads it): a module with probes has it.
    if (!state.coverage || assembly.empty()) return;
    std::string json = contract::hits_header(md::json_quote(assembly), md::json_quote(mvid));
    json += hits_entries(state);
    json += contract::kCountsTail;
    write_module_file(assembly, contract::kHitsFileSuffix, json, used_names);
    return;
  }
  if (rows.empty()) {
    // No file to read: the methods that were instrumented, by their runtime names.
    for (const auto& [token, slot] : state.instrumented)
      if (!state.failed.count(token)) rows.push_back({token, modules_->method_name(entry, token), count_of(token)});
  }
  if (assembly.empty()) assembly = modules_->assembly_name(entry);
  if (assembly.empty()) assembly = "unknown";
  if (mvid.empty() && state.sink) {
    GUID guid;
    if (SUCCEEDED(state.sink->import()->GetScopeProps(nullptr, 0, nullptr, &guid))) {
      md::Guid bytes;
      std::memcpy(bytes.data(), &guid, 16);
      mvid = md::format_guid(bytes);
    }
  }

  // The pieces offline count mode's injected code writes, in the same order.
  std::string json = contract::counts_header(md::json_quote(assembly), md::json_quote(mvid));
  for (size_t i = 0; i < rows.size(); ++i) append_entry(json, i == 0, rows[i].token, rows[i].name, rows[i].count);
  json += contract::kCountsTail;
  write_module_file(assembly, contract::kCountsFileSuffix, json, used_names);
}

void CountProfiler::write_module_file(const std::string& assembly, std::string_view suffix, const std::string& json,
                                      std::set<std::string>& used_names) {
  // Two modules with one assembly name (loaded twice, in two load contexts): number the second.
  std::string base = fmt::format("{}/{}", config_.output_dir, contract::counts_file_prefix(assembly)) + file_id();
  std::string path = base + std::string(suffix);
  for (int n = 2; used_names.count(path); ++n) path = fmt::format("{}.{}{}", base, n, suffix);
  used_names.insert(path);
  Status written = write_file_atomic(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
  if (!written) diagnostics_.warn(fmt::format("cannot write {}: {}", path, written.error().to_string()));
}

void CountProfiler::finish() {
  std::vector<std::shared_ptr<RewriteModule>> all = module_states();
  {
    std::lock_guard lock(unloaded_mutex_);
    all.insert(all.end(), unloaded_.begin(), unloaded_.end());
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a->sequence < b->sequence; });
  std::set<std::string> used_names;
  for (const auto& state : all) write_counts(count_state(*state), used_names);
}

}  // namespace cil::profiler
