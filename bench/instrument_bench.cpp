// Instrumenting speed: instrument::instrument_module over every method of System.Private.CoreLib, in count and
// noop mode (methods/s, MB/s of input), with and without parsing the module first; and count
// mode's per-body work (decode, then rewrite_body with the probe) through the entry splice and
// through the model, which is what decides whether the splice stays.
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "il/body_reader.h"
#include "instrument/instrumenter.h"
#include "instrument/probes.h"
#include "il/rewrite.h"
#include "metadata/module.h"
#include "support/file_io.h"

namespace {

using namespace cil;

const std::vector<uint8_t>& corelib_bytes() {
  static const std::vector<uint8_t> bytes = [] {
    auto b = read_file(bench::corelib_path());
    return b ? std::move(*b) : std::vector<uint8_t>{};
  }();
  return bytes;
}

/// One instrument::instrument_module per iteration on a module parsed once.
void instrument_parsed(benchmark::State& state, instrument::Mode mode) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  auto module = md::Module::parse(bytes);
  if (!module) return state.SkipWithError("System.Private.CoreLib.dll does not parse");
  instrument::InstrumentOptions options;
  options.mode = mode;
  int64_t methods = 0;
  for (auto _ : state) {
    auto report = instrument::instrument_module(**module, options);
    if (!report) return state.SkipWithError("il::instrument failed");
    methods += static_cast<int64_t>(report->instrumented.size());
    benchmark::DoNotOptimize(report);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
  state.SetItemsProcessed(methods);
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}

void BM_InstrumentCount(benchmark::State& state) { instrument_parsed(state, instrument::Mode::Count); }
BENCHMARK(BM_InstrumentCount)->Unit(benchmark::kMillisecond);

void BM_InstrumentNoop(benchmark::State& state) { instrument_parsed(state, instrument::Mode::Noop); }
BENCHMARK(BM_InstrumentNoop)->Unit(benchmark::kMillisecond);

/// The command's work minus file I/O: parse the bytes, then instrument in count mode.
void BM_ParseAndInstrumentCount(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  instrument::InstrumentOptions options;
  int64_t methods = 0;
  for (auto _ : state) {
    auto module = md::Module::parse(bytes);
    if (!module) return state.SkipWithError("System.Private.CoreLib.dll does not parse");
    auto report = instrument::instrument_module(**module, options);
    if (!report) return state.SkipWithError("il::instrument failed");
    methods += static_cast<int64_t>(report->instrumented.size());
    benchmark::DoNotOptimize(report);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
  state.SetItemsProcessed(methods);
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseAndInstrumentCount)->Unit(benchmark::kMillisecond);

/// Every IL body of CoreLib, parsed once (the code stays in the module's bytes).
struct Bodies {
  std::unique_ptr<md::Module> module;
  std::vector<il::MethodBody> bodies;
};

const Bodies& corelib_bodies() {
  static const Bodies b = [] {
    Bodies out;
    auto module = md::Module::parse(corelib_bytes());
    if (!module) return out;
    out.module = std::move(*module);
    for (uint32_t rid = 1; rid <= out.module->tables().rows(md::TableId::MethodDef); ++rid)
      if (il::has_il_body(*out.module, md::MethodDefId(rid)))
        if (auto body = il::read_body(*out.module, md::MethodDefId(rid))) out.bodies.push_back(std::move(*body));
    return out;
  }();
  return b;
}

/// Count mode's work per body after reading it: decode into a reused buffer, then rewrite_body
/// with the probe, one body per iteration, round robin over CoreLib.
void probe_every_body(benchmark::State& state, il::RewritePath path) {
  const Bodies& b = corelib_bodies();
  if (b.bodies.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  il::BodyModel scratch;
  std::vector<il::Instr> probe = instrument::counter_probe(scratch, instrument::CounterRef{md::Token(0x04000001), md::Token(), 1000, 0}, md::Token(0x0A000001));
  il::BodyEdit edit;
  edit.entry_code = probe;
  edit.entry_max_stack = 2;
  il::DecodedCode code;
  size_t next = 0;
  int64_t failed = 0, bytes = 0;
  for (auto _ : state) {
    const il::MethodBody& body = b.bodies[next];
    if (!il::decode_code_into(body.code, body.code_file_offset, code)) ++failed;
    auto out = il::rewrite_body(body, code, edit, path);
    if (out) bytes += static_cast<int64_t>(out->bytes.size());
    else ++failed;
    benchmark::DoNotOptimize(out);
    if (++next == b.bodies.size()) next = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetBytesProcessed(bytes);
  state.counters["bodies"] = double(b.bodies.size());
  state.counters["failed"] = double(failed);
}

void BM_ProbeEveryBodySplice(benchmark::State& state) { probe_every_body(state, il::RewritePath::Fastest); }
BENCHMARK(BM_ProbeEveryBodySplice)->Unit(benchmark::kNanosecond);

void BM_ProbeEveryBodyModel(benchmark::State& state) { probe_every_body(state, il::RewritePath::Model); }
BENCHMARK(BM_ProbeEveryBodyModel)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
