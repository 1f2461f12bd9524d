// Intercepting hooks (issue 13): OnEnter returns bool (false skips the body) with `out object
// result`; OnLeave takes `ref object result` (replaces the return value) and `elapsed`
// (Stopwatch ticks); OnException returns the exception to throw instead (null: unchanged).
using System;
using System.Collections.Generic;
using System.Diagnostics;

namespace InterceptHooks
{
    public static class Hooks
    {
        static readonly Dictionary<int, object> fib = new Dictionary<int, object>();

        public static bool OnEnter(string method, object[] args, out object result)
        {
            result = null;
            switch (method)
            {
                case "InterceptApp.Work::Fib":
                    return !fib.TryGetValue((int)args[0], out result);  // cached: skip the body
                case "InterceptApp.Work::Checked":
                    if ((int)args[0] > 100) throw new ArgumentOutOfRangeException("percent", "a percentage over 100");
                    return true;
                case "InterceptApp.Work::Same":
                    result = args[0] is int i ? (object)(i * 6) : "supplied";
                    return false;
            }
            return true;
        }

        public static void OnLeave(string method, object[] args, ref object result, Exception exception, long elapsed)
        {
            if (elapsed < 0) Console.WriteLine("NEGATIVE ELAPSED in " + method);
            switch (method)
            {
                case "InterceptApp.Work::Fib":
                    fib[(int)args[0]] = result;
                    break;
                case "InterceptApp.Work::Greet":
                    result = ((string)result).ToUpperInvariant();
                    break;
                case "InterceptApp.Work::Shift":
                    result = new InterceptApp.Point(100, 200);
                    break;
                case "InterceptApp.Work::Half":
                    result = "not a double";
                    break;
                case "InterceptApp.Work::Nap":
                    Console.WriteLine("Nap took at least 30 ms: " + (elapsed * 1000 >= 30 * Stopwatch.Frequency));
                    break;
            }
        }

        public static Exception OnException(string method, Exception exception)
        {
            if (exception is DivideByZeroException) return new ArgumentException("b must not be 0 (" + exception.Message + ")");
            return null;
        }
    }
}
