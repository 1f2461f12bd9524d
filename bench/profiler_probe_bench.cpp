// The runtime profiler's rewrite, without the runtime: add_entry_probe (parse, decode, probe,
// il::rewrite_body) on every IL body of System.Private.CoreLib, one body per iteration, as the
// profiler does it for each JIT-compiled method. The time per method, next to the profiler's own
// per-callback timings (CIL_INSTRUMENT_STATS, see bench/README.md), separates the engine from
// the runtime's part (GetILFunctionBody, names, metadata, SetILFunctionBody).
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "il/body_reader.h"
#include "metadata/module.h"
#include "profiler/probe_rewrite.h"

namespace {

using namespace cil;

struct Bodies {
  std::unique_ptr<md::Module> module;
  std::vector<std::span<const uint8_t>> bodies;  ///< header to the end of the EH sections
};

const Bodies& corelib_bodies() {
  static const Bodies b = [] {
    Bodies out;
    auto module = md::Module::load(bench::corelib_path());
    if (!module) return out;
    out.module = std::move(*module);
    const md::Module& m = *out.module;
    for (uint32_t rid = 1; rid <= m.tables().rows(md::TableId::MethodDef); ++rid) {
      if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
      if (auto body = il::read_body(m, md::MethodDefId(rid))) out.bodies.push_back(m.bytes().subspan(body->file_offset, body->total_size));
    }
    return out;
  }();
  return b;
}

void BM_ProfilerProbeRewrite(benchmark::State& state) {
  const Bodies& b = corelib_bodies();
  if (b.bodies.empty()) return state.SkipWithError("System.Private.CoreLib.dll not found");
  size_t next = 0;
  int64_t failed = 0;
  for (auto _ : state) {
    auto bytes = profiler::add_entry_probe(b.bodies[next], profiler::native_counter(0x00007F0000001000ull), md::Token(0x0A000001), 1);
    if (!bytes) ++failed;
    benchmark::DoNotOptimize(bytes);
    if (++next == b.bodies.size()) next = 0;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["bodies"] = double(b.bodies.size());
  state.counters["failed"] = double(failed);
}
BENCHMARK(BM_ProfilerProbeRewrite)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
