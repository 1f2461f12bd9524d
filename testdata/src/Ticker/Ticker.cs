// A long-running program for `cil-instrument attach` (issue 17): a fixed number of ticks about a
// millisecond apart, each a call of Work.Tick; Work.Late only in the second half, so a method
// compiled after the attach is counted too; Work.Quiet never. It logs the time of every call
// (Stopwatch ticks: CLOCK_MONOTONIC nanoseconds on Linux, the clock the profiler's done marker
// uses) so the test can count the calls inside an attach session's window. Its output and exit
// status do not depend on timing or on being attached to.
//   dotnet Ticker.dll TICKS LOGFILE [READYFILE]
using System;
using System.Diagnostics;
using System.IO;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;

static class Work {
  static long total;

  [MethodImpl(MethodImplOptions.NoInlining)]
  public static void Tick(int i) { total += i & 7; }

  [MethodImpl(MethodImplOptions.NoInlining)]
  public static void Late(int i) { total += i & 3; }

  [MethodImpl(MethodImplOptions.NoInlining)]
  public static void Quiet() { total = -1; }

  public static long Total => total;
}

static partial class Program {
  // Implemented by tests/apps/HeldTicker.cs when it is compiled with this file (attach sessions
  // that wait on a hold file); here the compiler drops them and every call to them.
  static partial void BeforeTick(int i, int ticks, string[] args);
  static partial void AfterTicks(string[] args);
  static partial void LogHeld(StringBuilder text);

  static int Main(string[] args) {
    int ticks = int.Parse(args[0]);
    string log = args[1];
    if (Stopwatch.Frequency != 1_000_000_000) Console.Error.WriteLine("Stopwatch is not in nanoseconds");
    var tickTimes = new long[ticks];
    var lateTimes = new long[ticks];
    int lateCount = 0;
    if (args.Length > 2) File.WriteAllText(args[2], Environment.ProcessId.ToString());
    for (int i = 0; i < ticks; i++) {
      BeforeTick(i, ticks, args);
      tickTimes[i] = Stopwatch.GetTimestamp();
      Work.Tick(i);
      if (i >= ticks / 2) {
        lateTimes[lateCount++] = Stopwatch.GetTimestamp();
        Work.Late(i);
      }
      Thread.Sleep(1);
    }
    AfterTicks(args);
    var text = new StringBuilder();
    foreach (long t in tickTimes) text.Append("Tick ").Append(t).Append('\n');
    for (int i = 0; i < lateCount; i++) text.Append("Late ").Append(lateTimes[i]).Append('\n');
    LogHeld(text);
    File.WriteAllText(log, text.ToString());
    Console.WriteLine($"{ticks} ticks, {lateCount} late, total {Work.Total}");
    return 3;
  }
}
