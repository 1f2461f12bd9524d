// testdata/src/Ticker/Ticker.cs with a hold file, for `cil-instrument attach` tests that must not
// depend on how fast the machine is: the program cannot finish its ticks while the test still
// attaches to it. Until HOLDFILE says "late" it waits at its midpoint (before the first Work.Late),
// and until it says "end" it waits after its last tick; while waiting it goes on calling
// Work.Tick(0) (and, at the end, Work.Late(0)) about once a millisecond, logged like any other
// call, so every session still sees calls come. Those calls add 0 to the total, so the output
// and exit status are those of `Ticker TICKS` whatever the waits.
//   dotnet HeldTicker.dll TICKS LOGFILE READYFILE HOLDFILE
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
  public static void Tick(int i) { total += i & 7; }

  [MethodImpl(MethodImplOptions.NoInlining)]
  public static void Late(int i) { total += i & 3; }

  [MethodImpl(MethodImplOptions.NoInlining)]
  public static void Quiet() { total = -1; }

  public static long Total => total;
}

static class Program {
  static readonly List<long> tickTimes = new List<long>();
  static readonly List<long> lateTimes = new List<long>();

  static bool Says(string hold, string word) {
    try {
      return File.ReadAllText(hold).Contains(word);
    } catch (IOException) {
      return false;
    }
  }

  // Calls that add nothing, until the hold file says `word`.
  static void Hold(string hold, string word, bool late) {
    for (int n = 0; n % 10 != 0 || !Says(hold, word); n++) {
      tickTimes.Add(Stopwatch.GetTimestamp());
      Work.Tick(0);
      if (late) {
        lateTimes.Add(Stopwatch.GetTimestamp());
        Work.Late(0);
      }
      Thread.Sleep(1);
    }
  }

  static int Main(string[] args) {
    int ticks = int.Parse(args[0]);
    string log = args[1];
    string hold = args[3];
    if (Stopwatch.Frequency != 1_000_000_000) Console.Error.WriteLine("Stopwatch is not in nanoseconds");
    int lateCount = 0;
    File.WriteAllText(args[2], Environment.ProcessId.ToString());
    for (int i = 0; i < ticks; i++) {
      if (i == ticks / 2) Hold(hold, "late", false);
      tickTimes.Add(Stopwatch.GetTimestamp());
      Work.Tick(i);
      if (i >= ticks / 2) {
        lateTimes.Add(Stopwatch.GetTimestamp());
        lateCount++;
        Work.Late(i);
      }
      Thread.Sleep(1);
    }
    Hold(hold, "end", true);
    var text = new StringBuilder();
    foreach (long t in tickTimes) text.Append("Tick ").Append(t).Append('\n');
    foreach (long t in lateTimes) text.Append("Late ").Append(t).Append('\n');
    File.WriteAllText(log, text.ToString());
    Console.WriteLine($"{ticks} ticks, {lateCount} late, total {Work.Total}");
    return 3;
  }
}
