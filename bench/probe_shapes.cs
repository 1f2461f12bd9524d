// Per-probe cost of coverage probe shapes (issue 39): 64 probes per loop iteration, each at its
// own int64 (or byte) counter in native memory, as a probed body hits its line and branch
// counters; best of 5 runs, on 1 thread and on 2 threads sharing the counters.
//   scripts/csc.sh /tmp/probe_shapes.dll /unsafe+ /optimize+ bench/probe_shapes.cs && dotnet /tmp/probe_shapes.dll [ITERATIONS]
// 2026-11-28, commit after 215910b, 2 cores under a load average of 11 (ns a probe, loop included):
//   1 thread:  loop only 0.63, Interlocked.Increment 15.2, store int64 1 0.60, store byte 1 0.74, test-and-set 0.83
//   2 threads: loop only 1.55, Interlocked.Increment 28.3, store int64 1 3.82, store byte 1 2.22, test-and-set 2.31
// Coverage's default probe is the int64 store (instrument/probes.h, ProbeKind::Hit): as cheap as
// any on one thread, and the counters keep their type. Two threads storing into the same cache
// lines pay for it; test-and-set (a read, then a store only the first time) pays less there, at
// the price of a branch in every probe.
using System;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

unsafe static class P {
  const int N = 64;
  static long* c8;
  static byte* c1;
  static volatile int sink;

  static void Interlocked_(long iters) { for (long i = 0; i < iters; i++) for (int k = 0; k < N; k++) Interlocked.Increment(ref c8[k]); }
  static void Store8(long iters) { for (long i = 0; i < iters; i++) for (int k = 0; k < N; k++) c8[k] = 1; }
  static void Store1(long iters) { for (long i = 0; i < iters; i++) for (int k = 0; k < N; k++) c1[k] = 1; }
  static void TestSet(long iters) { for (long i = 0; i < iters; i++) for (int k = 0; k < N; k++) if (c8[k] == 0) c8[k] = 1; }
  static void Empty(long iters) { for (long i = 0; i < iters; i++) for (int k = 0; k < N; k++) sink = k; }

  static double Run(Action<long> f, long iters, int threads) {
    f(1000);
    var sw = Stopwatch.StartNew();
    var ts = new Thread[threads];
    for (int t = 0; t < threads; t++) { ts[t] = new Thread(() => f(iters)); ts[t].Start(); }
    foreach (var t in ts) t.Join();
    return sw.Elapsed.TotalMilliseconds * 1e6 / (iters * (double)N);  // ns per probe per thread
  }

  static void Main(string[] args) {
    c8 = (long*)NativeMemory.AllocZeroed(N * 8);
    c1 = (byte*)NativeMemory.AllocZeroed(N);
    long iters = args.Length > 0 ? long.Parse(args[0]) : 2_000_000;
    foreach (int threads in new[] { 1, 2 }) {
      foreach (var (name, f) in new (string, Action<long>)[] { ("loop only", Empty), ("Interlocked.Increment", Interlocked_), ("store int64 1", Store8), ("store byte 1", Store1), ("test-and-set", TestSet) }) {
        var best = double.MaxValue;
        for (int r = 0; r < 5; r++) best = Math.Min(best, Run(f, iters, threads));
        Console.WriteLine($"threads {threads}  {name,-22} {best,6:F2} ns/probe");
      }
    }
  }
}
