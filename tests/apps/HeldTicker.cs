// testdata/src/Ticker/Ticker.cs with a hold file, for `cil-instrument attach` tests that must not
// depend on how fast the machine is: compiled together with Ticker.cs, it fills in Ticker's
// partial methods, so the program cannot finish its ticks while the test still attaches to it.
// Until HOLDFILE says "late" it waits at its midpoint (before the first Work.Late), and until it
// says "end" it waits after its last tick; while waiting it goes on calling Work.Tick (and, at
// the end, Work.Late(0)) about once a millisecond, logged like any other call, so every session
// still sees calls come. The k-th held call of Work.Tick passes 8k: it adds 0 to the total (Tick
// adds i & 7), so the output and exit status are those of `Ticker TICKS` whatever the waits, and
// a trace hook's log names the call (tests/scripts/jit_trace_window_test.sh runs TICKS 0: every
// call is held, and its log's k-th Tick line is the call that passed 8k).
//   scripts/csc.sh HeldTicker.dll testdata/src/Ticker/Ticker.cs tests/apps/HeldTicker.cs
//   dotnet HeldTicker.dll TICKS LOGFILE READYFILE HOLDFILE
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;
using System.Threading;

static partial class Program {
  static readonly List<long> heldTicks = new List<long>();
  static readonly List<long> heldLates = new List<long>();

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
      heldTicks.Add(Stopwatch.GetTimestamp());
      Work.Tick(8 * (heldTicks.Count - 1));
      if (late) {
        heldLates.Add(Stopwatch.GetTimestamp());
        Work.Late(0);
      }
      Thread.Sleep(1);
    }
  }

  static partial void BeforeTick(int i, int ticks, string[] args) {
    if (i == ticks / 2) Hold(args[3], "late", false);
  }

  static partial void AfterTicks(string[] args) { Hold(args[3], "end", true); }

  // The log's order does not matter: the tests count the calls of each method by their times.
  static partial void LogHeld(StringBuilder text) {
    foreach (long t in heldTicks) text.Append("Tick ").Append(t).Append('\n');
    foreach (long t in heldLates) text.Append("Late ").Append(t).Append('\n');
  }
}
