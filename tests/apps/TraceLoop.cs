// A long-running program for trace sessions through ReJIT (tests/scripts/jit_trace_window_test.sh):
// it calls Work.Step(i) for i = 0, 1, 2, ... about once a millisecond, taking the Stopwatch time
// (CLOCK_MONOTONIC nanoseconds on Linux, the clock of the profiler's session record) just before
// each call, until HOLDFILE says "end"; so the test, not the machine's speed, decides when it
// ends. Then it writes "i time" lines to LOGFILE and prints the number of calls and their total,
// which depends on that number only, and exits with status 3.
//   scripts/csc.sh TraceLoop.dll tests/apps/TraceLoop.cs
//   dotnet TraceLoop.dll LOGFILE READYFILE HOLDFILE
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;

static class Work {
  static long total;

  [MethodImpl(MethodImplOptions.NoInlining)]
  public static void Step(int i) { total += i & 7; }

  public static long Total => total;
}

static class Program {
  static bool Says(string hold, string word) {
    try {
      return File.ReadAllText(hold).Contains(word);
    } catch (IOException) {
      return false;
    }
  }

  static int Main(string[] args) {
    var times = new List<long>();
    File.WriteAllText(args[1], Environment.ProcessId.ToString());
    for (int i = 0; i % 10 != 0 || !Says(args[2], "end"); i++) {
      times.Add(Stopwatch.GetTimestamp());
      Work.Step(i);
      Thread.Sleep(1);
    }
    var text = new StringBuilder();
    for (int i = 0; i < times.Count; i++) text.Append(i).Append(' ').Append(times[i]).Append('\n');
    File.WriteAllText(args[0], text.ToString());
    Console.WriteLine($"{times.Count} calls, total {Work.Total}");
    return 3;
  }
}
