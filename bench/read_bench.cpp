// Reading speed: parse System.Private.CoreLib and decode every method body (MB/s, methods/s).
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "il/body_reader.h"
#include "il/instruction.h"
#include "metadata/module.h"
#include "metadata/printer.h"
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

void BM_ParseModule(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  for (auto _ : state) {
    auto module = md::Module::parse(bytes);
    benchmark::DoNotOptimize(module);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
}
BENCHMARK(BM_ParseModule)->Unit(benchmark::kMillisecond);

void BM_DecodeEveryBody(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  int64_t methods = 0;
  for (auto _ : state) {
    auto module = md::Module::parse(bytes);
    const md::Module& m = **module;
    for (uint32_t rid = 1; rid <= m.tables().rows(md::TableId::MethodDef); ++rid) {
      if (!il::has_il_body(m, rid)) continue;
      auto body = il::read_body(m, rid);
      if (!body) continue;
      auto code = il::decode_code(body->code, body->code_file_offset);
      benchmark::DoNotOptimize(code);
      ++methods;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
  state.SetItemsProcessed(methods);
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DecodeEveryBody)->Unit(benchmark::kMillisecond);

void BM_NameEveryMethod(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  auto module = md::Module::parse(bytes);
  int64_t methods = 0;
  for (auto _ : state) {
    md::Printer printer(**module);
    for (uint32_t rid = 1; rid <= (*module)->tables().rows(md::TableId::MethodDef); ++rid) {
      benchmark::DoNotOptimize(printer.method_header(rid));
      ++methods;
    }
  }
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NameEveryMethod)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
