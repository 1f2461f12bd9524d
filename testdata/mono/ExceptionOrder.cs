// Exception order fixture: filters, finallys and catches across 1, 2 and 3 frames, `throw;` in a
// catch, a framework frame in between, hooks that throw. Every event goes to standard output
// and, when CIL_TRACE_LOG is set, to the hooks' log too, so the trace tests see the hooks'
// calls between the program's own events. Built with mcs: the same file runs on dotnet and mono.
using System;
using System.Diagnostics;
using System.IO;

namespace OrderFixtures
{
    class OrderException : Exception
    {
        public OrderException(string message) : base(message) { }
    }

    static class Program
    {
        static Exception thrown;
        static int state;

        static void Event(string line)
        {
            Console.WriteLine(line);
            string log = Environment.GetEnvironmentVariable("CIL_TRACE_LOG");
            if (!string.IsNullOrEmpty(log)) File.AppendAllText(log, "# " + line + "\n");
        }

        static bool Filter(string where, bool result)
        {
            Event("filter in " + where + " (state " + state + ") -> " + result);
            return result;
        }

        static void Throw(string message)
        {
            thrown = new OrderException(message);
            throw thrown;
        }

        // Frames, innermost first.
        static void One()
        {
            try { Throw("one"); }
            finally { Event("finally in One"); state++; }
        }

        static void Two()
        {
            try { One(); }
            finally { Event("finally in Two"); state++; }
        }

        static int Three()
        {
            try { Two(); return 1; }
            catch (OrderException e) when (Filter("Three", false)) { Event("caught in Three " + e.Message); return 2; }
            finally { Event("finally in Three"); state++; }
        }

        static void RethrowInCatch()
        {
            try { Throw("rethrown"); }
            catch (OrderException) { Event("catch in RethrowInCatch, then throw;"); throw; }
            finally { Event("finally in RethrowInCatch"); state++; }
        }

        static void ThroughTheFramework()
        {
            try { Array.ForEach(new[] { 1 }, Callback); }
            finally { Event("finally in ThroughTheFramework"); state++; }
        }

        static void Callback(int value)
        {
            try { Throw("callback " + value); }
            finally { Event("finally in Callback"); state++; }
        }

        // TraceHooks throws from OnException and OnLeave for these methods.
        static void HookThrowsOnException()
        {
            try { Throw("under a throwing hook"); }
            finally { Event("finally in HookThrowsOnException"); state++; }
        }

        static int HookThrowsOnLeaveValue() { return 42; }

        static void Run(string name, Action body)
        {
            state = 0;
            Event("== " + name);
            try
            {
                body();
                Event("returned normally");
            }
            catch (OrderException e) when (Filter("Run", true))
            {
                Event("caught in Run: " + e.Message + ", same object " + ReferenceEquals(e, thrown) + ", state " + state);
                // The frames' names inline: the hooks would print an exception argument with the
                // runtime's own stack trace format.
                string frames = "";
                foreach (StackFrame f in new StackTrace(e, false).GetFrames() ?? new StackFrame[0])
                    if (f.GetMethod() != null) frames += (frames.Length > 0 ? " < " : "") + f.GetMethod().Name;
                Event("stack: " + frames);
            }
        }

        static int Main()
        {
            Run("one instrumented frame", () => One());
            Run("two instrumented frames", () => Two());
            Run("three frames, a filter that declines", () => Three());
            Run("throw; in a catch", () => RethrowInCatch());
            Run("a framework frame in between", () => ThroughTheFramework());
            Run("a hook that throws", () => HookThrowsOnException());
            Run("a hook that throws on a normal return", () => Event("value " + HookThrowsOnLeaveValue()));
            return 3;
        }
    }
}
