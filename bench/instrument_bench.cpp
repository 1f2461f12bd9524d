// Instrumenting speed: il::instrument over every method of System.Private.CoreLib, in count and
// noop mode (methods/s, MB/s of input), with and without parsing the module first.
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "il/instrumenter.h"
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

/// One il::instrument per iteration on a module parsed once.
void instrument_parsed(benchmark::State& state, il::Mode mode) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  auto module = md::Module::parse(bytes);
  if (!module) return state.SkipWithError("System.Private.CoreLib.dll does not parse");
  il::InstrumentOptions options;
  options.mode = mode;
  int64_t methods = 0;
  for (auto _ : state) {
    auto report = il::instrument(**module, options);
    if (!report) return state.SkipWithError("il::instrument failed");
    methods += static_cast<int64_t>(report->instrumented.size());
    benchmark::DoNotOptimize(report);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
  state.SetItemsProcessed(methods);
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}

void BM_InstrumentCount(benchmark::State& state) { instrument_parsed(state, il::Mode::Count); }
BENCHMARK(BM_InstrumentCount)->Unit(benchmark::kMillisecond);

void BM_InstrumentNoop(benchmark::State& state) { instrument_parsed(state, il::Mode::Noop); }
BENCHMARK(BM_InstrumentNoop)->Unit(benchmark::kMillisecond);

/// The command's work minus file I/O: parse the bytes, then instrument in count mode.
void BM_ParseAndInstrumentCount(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  il::InstrumentOptions options;
  int64_t methods = 0;
  for (auto _ : state) {
    auto module = md::Module::parse(bytes);
    if (!module) return state.SkipWithError("System.Private.CoreLib.dll does not parse");
    auto report = il::instrument(**module, options);
    if (!report) return state.SkipWithError("il::instrument failed");
    methods += static_cast<int64_t>(report->instrumented.size());
    benchmark::DoNotOptimize(report);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
  state.SetItemsProcessed(methods);
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseAndInstrumentCount)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
