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

using md::token_text;

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

std::shared_ptr<CountProfiler::CountModule> CountProfiler::state_of(ModuleID module) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = modules_by_id_.find(module); it != modules_by_id_.end()) return it->second;
  }
  auto state = std::make_shared<CountModule>();
  state->entry = modules_->get(module);
  // A module the runtime cannot describe yet selects nothing now, and is asked about again later.
  if (!state->entry) return state;
  std::lock_guard lock(mutex_);
  auto [it, added] = modules_by_id_.try_emplace(module, std::move(state));
  if (added) it->second->sequence = next_sequence_++;
  return it->second;
}

bool CountProfiler::selects(CountModule& state, mdMethodDef token) {
  if (auto it = state.selected.find(token); it != state.selected.end()) return it->second;
  bool chosen = false;
  if (state.entry && TypeFromToken(token) == mdtMethodDef && !module_left_out(*state.entry)) {
    std::string name = modules_->method_name(*state.entry, token);
    chosen = config_.filter.selects(name) && !never_instrumented(name);
    if (chosen) {
      // Methods without IL (abstract, P/Invoke, runtime-implemented) are never rewritten.
      modules_->with_file(*state.entry, [&](const md::Module* file, md::Printer*) {
        if (file) chosen = il::has_il_body(*file, md::MethodDefId(RidFromToken(token)));
      });
    }
    // Coverage: only in modules with a matching PDB, and never what the attributes exclude.
    if (chosen && coverage_mode()) chosen = coverage_ready(state) && !state.coverage->excluded(md::MethodDefId(RidFromToken(token)));
  }
  state.selected.emplace(token, chosen);
  return chosen;
}

bool CountProfiler::selected_function(FunctionID function, std::shared_ptr<CountModule>* state, mdMethodDef* token) {
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

Status CountProfiler::set_up(CountModule& state) {
  state.setup_tried = true;
  state.sink = CIL_TRY(EmitSink::open(info(), state.entry->id));
  if (HRESULT hr = info()->GetILFunctionBodyAllocator(state.entry->id, state.allocator.out_as<IMethodMalloc>()); FAILED(hr))
    return com_error("GetILFunctionBodyAllocator", hr);
  // As offline count mode: scoped to the module's core library, or its own definition when the
  // module is the core library.
  md::RuntimeRefs refs = CIL_TRY(md::RuntimeRefs::create(*state.sink));
  state.increment = CIL_TRY(instrument::resolve_increment(refs));
  il::CallEffects effects(*state.sink);
  state.probe_depth = CIL_TRY(instrument::probe_max_stack(native_counter(0), state.increment, effects, probe_kind()));
  return ok();
}

Expected<il::EncodedBody> CountProfiler::probed_body(CountModule& state, mdMethodDef token) {
  ModuleID module = state.entry->id;
  LPCBYTE header = nullptr;
  ULONG size = 0;
  if (HRESULT hr = info()->GetILFunctionBody(module, token, &header, &size); FAILED(hr) || !header)
    return com_error("GetILFunctionBody", hr);
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
    il::EncodedBody body = CIL_TRY(state.coverage->rewrite(method, source_name, std::span<const uint8_t>(header, size), state.increment,
                                                           probe_kind(), state.probe_depth, counter, probes));
    state.probes[token] = std::move(probes);
    state.instrumented.emplace(token, Instrumented{nullptr});
    return body;
  }
  auto [it, added] = state.instrumented.try_emplace(token, Instrumented{nullptr});
  if (!it->second.counter) it->second.counter = counters_.allocate();
  return add_entry_probe(std::span<const uint8_t>(header, size), native_counter(reinterpret_cast<uint64_t>(it->second.counter)),
                         state.increment, state.probe_depth);
}

Status CountProfiler::instrument(CountModule& state, mdMethodDef token, FunctionID function) {
  ModuleID module = state.entry->id;
  il::EncodedBody rewritten = CIL_TRY(probed_body(state, token));
  const std::vector<uint8_t>& body = rewritten.bytes;
  // The runtime keeps this memory as the method's IL for good (it is never freed).
  void* memory = state.allocator->Alloc(static_cast<ULONG>(body.size()));
  if (!memory) return make_error(ErrorKind::Io, "IMethodMalloc", fmt::format("cannot allocate {} bytes", body.size()));
  std::memcpy(memory, body.data(), body.size());
  if (HRESULT hr = info()->SetILFunctionBody(module, token, static_cast<LPCBYTE>(memory)); FAILED(hr)) {
    state.instrumented.erase(token);
    state.probes.erase(token);
    return com_error("SetILFunctionBody", hr);
  }
  // Without the map, the JIT's IL offsets are the probed body's, and stack traces name the line
  // of an instruction further on. The runtime copies the caller-allocated array. A refusal
  // leaves the counts right and the lines shifted: a warning, not a failure of the method.
  std::vector<COR_IL_MAP> map = instrumented_code_map(rewritten.map);
  if (!map.empty()) {
    if (HRESULT hr = info()->SetILInstrumentedCodeMap(function, TRUE, static_cast<ULONG>(map.size()), map.data()); FAILED(hr))
      diagnostics_.warn(fmt::format("{} ({} in {}): stack traces may show shifted lines: {}",
                                    modules_->method_name(*state.entry, token), token_text(md::Token(token)), state.entry->name,
                                    com_error("SetILInstrumentedCodeMap", hr).to_string()));
  }
  return ok();
}

bool CountProfiler::ensure_instrumented(FunctionID function) {
  auto started = Clock::now();
  std::shared_ptr<CountModule> state;
  mdMethodDef token = 0;
  bool rewritten = false;
  if (selected_function(function, &state, &token)) {
    std::lock_guard lock(state->mutex);
    // Tiered compilation and OSR compile a method again from the IL we set: once is enough.
    if (!state->instrumented.count(token) && !state->failed.count(token)) {
      Status status = ok();
      if (!state->setup_tried) {
        status = set_up(*state);
        if (!status) {
          state->sink.reset();
          diagnostics_.warn(fmt::format("{}: no method of this module is instrumented: {}", state->entry->name,
                                        status.error().to_string()));
        }
      }
      if (!state->sink) status = make_error(ErrorKind::Unsupported, "", "module set-up failed");
      else status = instrument(*state, token, function);
      if (status) {
        rewritten = true;
      } else {
        state->failed.insert(token);
        if (state->sink)
          diagnostics_.warn(fmt::format("{} ({} in {}) left as it was: {}", modules_->method_name(*state->entry, token),
                                        token_text(md::Token(token)), state->entry->name, status.error().to_string()));
      }
    }
  }
  double took = micros_since(started);
  if (rewritten) stats_.rewritten(took);
  else stats_.passed(took);
  return rewritten;
}

HRESULT CountProfiler::JITCompilationStarted(FunctionID function, BOOL) {
  return guarded("JITCompilationStarted", [&] { ensure_instrumented(function); });
}

HRESULT CountProfiler::JITCachedFunctionSearchStarted(FunctionID function, BOOL* use_cached) {
  return guarded("JITCachedFunctionSearchStarted", [&] {
    std::shared_ptr<CountModule> state;
    mdMethodDef token = 0;
    // Precompiled code of a selected method has no probe: have it JIT-compiled instead.
    if (use_cached && selected_function(function, &state, &token)) *use_cached = FALSE;
  });
}

HRESULT CountProfiler::JITInlining(FunctionID, FunctionID callee, BOOL* should_inline) {
  return guarded("JITInlining", [&] {
    std::shared_ptr<CountModule> state;
    mdMethodDef token = 0;
    if (!should_inline || !selected_function(callee, &state, &token)) return;
    bool done;
    {
      std::lock_guard lock(state->mutex);
      done = state->instrumented.count(token) || state->failed.count(token);
    }
    // A callee whose IL we set before may be inlined: its copy carries the probe. Otherwise the
    // JIT may already hold the original IL, and the copy would have none.
    if (!done) *should_inline = FALSE;
  });
}

HRESULT CountProfiler::ModuleUnloadStarted(ModuleID module) {
  return guarded("ModuleUnloadStarted", [&] {
    std::lock_guard lock(mutex_);
    if (auto it = modules_by_id_.find(module); it != modules_by_id_.end()) {
      // Its counts are written at Shutdown; a later module may reuse the id.
      unloaded_.push_back(it->second);
      modules_by_id_.erase(it);
    }
    modules_->forget(module);
  });
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

HRESULT CountProfiler::ModuleLoadFinished(ModuleID module, HRESULT status) {
  if (!rejit_mode() || FAILED(status) || !session_open_) return S_OK;
  // RequestReJIT is not made from inside a callback: the session's thread asks, on its next tick.
  std::lock_guard lock(session_mutex_);
  loaded_during_session_.push_back(module);
  return S_OK;
}

size_t CountProfiler::request_rejit(ModuleID module) {
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
    if (tokens.empty()) return 0;
    // The metadata the probes need (the Interlocked reference) is added now, outside the
    // runtime's callbacks.
    if (!state->setup_tried) {
      Status status = set_up(*state);
      if (!status) {
        state->sink.reset();
        diagnostics_.warn(fmt::format("{}: no method of this module is instrumented: {}", state->entry->name, status.error().to_string()));
      }
    }
    if (!state->sink) return 0;
  }
  std::vector<ModuleID> modules(tokens.size(), module);
  HRESULT hr = info()->RequestReJIT(static_cast<ULONG>(tokens.size()), modules.data(), tokens.data());
  if (FAILED(hr)) {
    diagnostics_.warn(fmt::format("{}: RequestReJIT of {} methods failed (HRESULT 0x{:08X}): none is counted",
                                  state->entry->name, tokens.size(), static_cast<uint32_t>(hr)));
    return 0;
  }
  std::lock_guard lock(session_mutex_);
  rejit_modules_.insert(rejit_modules_.end(), modules.begin(), modules.end());
  rejit_methods_.insert(rejit_methods_.end(), tokens.begin(), tokens.end());
  return tokens.size();
}

std::string CountProfiler::begin_session() {
  session_open_ = true;
  ComPtr<ICorProfilerModuleEnum> modules;
  if (HRESULT hr = info()->EnumModules(modules.out_as<ICorProfilerModuleEnum>()); FAILED(hr) || !modules) {
    diagnostics_.warn(fmt::format("EnumModules failed (HRESULT 0x{:08X}): only modules loaded from now on are instrumented",
                                  static_cast<uint32_t>(hr)));
    return "rejit 0\n";
  }
  std::vector<ModuleID> ids;
  ModuleID batch[64];
  ULONG got = 0;
  while (SUCCEEDED(modules->Next(64, batch, &got)) && got > 0) ids.insert(ids.end(), batch, batch + got);
  size_t requested = 0;
  for (ModuleID id : ids) requested += request_rejit(id);
  return fmt::format("modules {}\nrejit {}\n", ids.size(), requested);
}

void CountProfiler::reset_session_state() {
  {
    std::lock_guard lock(mutex_);
    modules_by_id_.clear();
    unloaded_.clear();
  }
  std::lock_guard lock(session_mutex_);
  rejit_modules_.clear();
  rejit_methods_.clear();
  loaded_during_session_.clear();
  rejit_errors_ = 0;
}

void CountProfiler::session_tick() {
  std::vector<ModuleID> loaded;
  {
    std::lock_guard lock(session_mutex_);
    loaded.swap(loaded_during_session_);
  }
  for (ModuleID id : loaded) request_rejit(id);
}

std::string CountProfiler::end_session() {
  session_open_ = false;
  session_tick();
  std::vector<ModuleID> modules;
  std::vector<mdMethodDef> methods;
  {
    std::lock_guard lock(session_mutex_);
    modules = rejit_modules_;
    methods = rejit_methods_;
  }
  size_t reverted = 0;
  if (!methods.empty()) {
    std::vector<HRESULT> status(methods.size(), S_OK);
    HRESULT hr = info()->RequestRevert(static_cast<ULONG>(methods.size()), modules.data(), methods.data(), status.data());
    if (FAILED(hr))
      diagnostics_.warn(fmt::format("RequestRevert of {} methods failed (HRESULT 0x{:08X}): their probes stay, counting "
                                    "into memory no file reads", methods.size(), static_cast<uint32_t>(hr)));
    for (HRESULT one : status) reverted += SUCCEEDED(one) ? 1 : 0;
    if (FAILED(hr)) reverted = 0;
  }
  return fmt::format("rejit-total {}\nreverted {}\nrejit-errors {}\n", methods.size(), reverted, rejit_errors_.load());
}

HRESULT CountProfiler::GetReJITParameters(ModuleID module, mdMethodDef token, ICorProfilerFunctionControl* control) {
  return guarded("GetReJITParameters", [&] {
    auto started = Clock::now();
    auto state = state_of(module);
    if (!state->entry || !control) return;
    std::lock_guard lock(state->mutex);
    if (!state->sink) return;  // set-up failed: the original IL stays
    Expected<il::EncodedBody> body = probed_body(*state, token);
    if (!body) {
      state->failed.insert(token);
      diagnostics_.warn(fmt::format("{} ({} in {}) left as it was: {}", modules_->method_name(*state->entry, token), token_text(md::Token(token)),
                                    state->entry->name, body.error().to_string()));
      stats_.passed(micros_since(started));
      return;
    }
    // The runtime copies both the body and the map.
    if (HRESULT hr = control->SetILFunctionBody(static_cast<ULONG>(body->bytes.size()), body->bytes.data()); FAILED(hr)) {
      state->failed.insert(token);
      diagnostics_.warn(fmt::format("{} ({} in {}): {}", modules_->method_name(*state->entry, token), token_text(md::Token(token)),
                                    state->entry->name, com_error("SetILFunctionBody", hr).to_string()));
      return;
    }
    std::vector<COR_IL_MAP> map = instrumented_code_map(body->map);
    if (!map.empty()) control->SetILInstrumentedCodeMap(static_cast<ULONG>(map.size()), map.data());
    stats_.rewritten(micros_since(started));
  });
}

HRESULT CountProfiler::ReJITError(ModuleID module, mdMethodDef token, FunctionID, HRESULT status) {
  return guarded("ReJITError", [&] {
    ++rejit_errors_;
    auto state = state_of(module);
    std::string name = state->entry ? modules_->method_name(*state->entry, token) : token_text(md::Token(token));
    diagnostics_.warn(fmt::format("{} ({}): ReJIT failed (HRESULT 0x{:08X}): not counted", name, token_text(md::Token(token)), static_cast<uint32_t>(status)));
  });
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
  if (state.instrumented.empty() || !state.entry) return;
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
      rows.push_back({token, modules_->method_name(entry, token), count_of(token)});
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
  std::vector<std::shared_ptr<CountModule>> all;
  {
    std::lock_guard lock(mutex_);
    all = unloaded_;
    for (const auto& [id, state] : modules_by_id_) all.push_back(state);
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a->sequence < b->sequence; });
  std::set<std::string> used_names;
  for (const auto& state : all) write_counts(*state, used_names);
}

}  // namespace cil::profiler
