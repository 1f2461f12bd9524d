// The signal test's app (tests/scripts/signal_test.sh), instrumented in count mode.
//   Signals self SIGNAL CALLS   calls Work.Step CALLS times, then sends itself SIGNAL and waits
//   Signals loop                calls Work.Step until stopped; prints "ready" after 1,000 calls
//   Signals exit CALLS          calls Work.Step CALLS times and returns 0
using System;
using System.Runtime.InteropServices;
using System.Threading;

static class Work {
  public static int Step(int x) => x + 1;
}

static class Program {
  [DllImport("libc", EntryPoint = "kill")]
  static extern int Kill(int pid, int signal);

  static int Main(string[] args) {
    int calls = 0;
    switch (args[0]) {
      case "self":
        for (int i = 0, n = int.Parse(args[2]); i < n; i++) calls = Work.Step(calls);
        Console.WriteLine("calls " + calls);
        Console.Out.Flush();
        Kill(Environment.ProcessId, int.Parse(args[1]));
        Thread.Sleep(Timeout.Infinite);
        return 1;
      case "exit":
        for (int i = 0, n = int.Parse(args[1]); i < n; i++) calls = Work.Step(calls);
        Console.WriteLine("calls " + calls);
        return 0;
      default:
        while (true) {
          calls = Work.Step(calls);
          if (calls == 1000) {
            Console.WriteLine("ready");
            Console.Out.Flush();
          }
          if ((calls & 255) == 0) Thread.Sleep(1);
        }
    }
  }
}
