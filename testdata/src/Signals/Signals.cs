// Stopped by signals, for the tests of what count mode writes then (profiler_signals_test.sh).
//   loop            calls Work without end, printing "ready" after the first call and "done N"
//                   after every 2000 calls; the test kills it at a random moment
//   self N SIG      calls Work N times, sends itself SIG (a number) and waits to be ended by it
//   handled N SIG   registers a PosixSignalRegistration for SIG that cancels it (and, for SIGINT,
//                   a Console.CancelKeyPress handler that cancels it), calls Work N times, sends
//                   itself SIG, waits for the handler, calls Work N more times and returns 0
//   observed N SIG  the same with a handler that does not cancel: the signal then ends the process
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Fixtures
{
    public static class Signals
    {
        static long total;

        [DllImport("libc", SetLastError = true)]
        static extern int kill(int pid, int sig);

        [MethodImpl(MethodImplOptions.NoInlining)]
        public static int Work(int i)
        {
            total += i;
            return (int)(total & 0xFF);
        }

        static void Calls(int n)
        {
            for (int i = 0; i < n; i++) Work(i);
        }

        static PosixSignal Posix(int sig) => sig switch
        {
            2 => PosixSignal.SIGINT,
            3 => PosixSignal.SIGQUIT,
            15 => PosixSignal.SIGTERM,
            _ => throw new ArgumentException("signal " + sig),
        };

        static int Main(string[] args)
        {
            string mode = args.Length > 0 ? args[0] : "loop";
            if (mode == "loop")
            {
                Work(0);
                Console.WriteLine("ready");
                for (int i = 1; ; i++)
                {
                    Work(i);
                    if (i % 2000 == 0)
                    {
                        Console.WriteLine("done " + (i + 1));
                        Thread.Sleep(1);
                    }
                }
            }
            int n = int.Parse(args[1]);
            int sig = int.Parse(args[2]);
            var handled = new ManualResetEventSlim();
            PosixSignalRegistration registration = null;
            if (mode == "handled" || mode == "observed")
            {
                bool cancel = mode == "handled";
                registration = PosixSignalRegistration.Create(Posix(sig), context =>
                {
                    Console.WriteLine("handler saw " + context.Signal);
                    context.Cancel = cancel;
                    handled.Set();
                });
                if (sig == 2)
                {
                    Console.CancelKeyPress += (sender, e) =>
                    {
                        Console.WriteLine("cancel key press");
                        e.Cancel = cancel;
                    };
                }
            }
            Calls(n);
            Console.WriteLine("sending " + sig);
            kill(Environment.ProcessId, sig);
            if (mode == "handled")
            {
                handled.Wait();
                Calls(n);
                Console.WriteLine("survived");
                GC.KeepAlive(registration);
                return 0;
            }
            Thread.Sleep(Timeout.Infinite);
            return 1;
        }
    }
}
