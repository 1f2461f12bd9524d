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
      if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
      auto body = il::read_body(m, md::MethodDefId(rid));
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

// The decoder alone: every body's code, found once, decoded into one reused buffer (as the
// instrumenter and the self-check do), so what is timed is instructions decoded, not parsing.
void BM_DecodeCodeOnly(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  auto module = md::Module::parse(bytes);
  const md::Module& m = **module;
  std::vector<std::pair<std::span<const uint8_t>, uint64_t>> codes;
  int64_t code_bytes = 0;
  for (uint32_t rid = 1; rid <= m.tables().rows(md::TableId::MethodDef); ++rid) {
    if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
    auto body = il::read_body(m, md::MethodDefId(rid));
    if (!body) continue;
    codes.emplace_back(body->code, body->code_file_offset);
    code_bytes += static_cast<int64_t>(body->code.size());
  }
  il::DecodedCode out;
  int64_t instructions = 0;
  for (auto _ : state) {
    for (const auto& [code, offset] : codes) {
      if (!il::decode_code_into(code, offset, out)) state.SkipWithError("a body failed to decode");
      instructions += static_cast<int64_t>(out.instructions.size());
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * code_bytes);
  state.SetItemsProcessed(instructions);
}
BENCHMARK(BM_DecodeCodeOnly)->Unit(benchmark::kMillisecond);

void BM_NameEveryMethod(benchmark::State& state) {
  const auto& bytes = corelib_bytes();
  if (bytes.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  auto module = md::Module::parse(bytes);
  int64_t methods = 0;
  for (auto _ : state) {
    md::Printer printer(**module);
    for (uint32_t rid = 1; rid <= (*module)->tables().rows(md::TableId::MethodDef); ++rid) {
      benchmark::DoNotOptimize(printer.method_header(md::MethodDefId(rid)));
      ++methods;
    }
  }
  state.counters["methods/s"] = benchmark::Counter(double(methods), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NameEveryMethod)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
