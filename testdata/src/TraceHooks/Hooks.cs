// The hooks of the trace-mode tests: log every callback with its values to $CIL_TRACE_LOG.
using System;
using System.Collections;
using System.Globalization;
using System.IO;
using System.Text;
using System.Threading;

namespace TraceHooks
{
    public static class Hooks
    {
        static readonly object Gate = new object();
        [ThreadStatic] static int depth;

        // Read once: without a log, the hooks build no strings (a million-deep traced recursion
        // then costs the calls, not the formatting).
        static readonly string LogPath = Environment.GetEnvironmentVariable("CIL_TRACE_LOG");
        static bool Logging { get { return !string.IsNullOrEmpty(LogPath); } }

        static void Log(string line)
        {
            lock (Gate) File.AppendAllText(LogPath, new string(' ', 2 * depth) + line + "\n");
        }

        // Plain `is` tests rather than patterns, so that Mono's mcs compiles the same file.
        static string Format(object value)
        {
            if (value == null) return "null";
            if (value is string) return "\"" + (string)value + "\"";
            if (value is double) return ((double)value).ToString("R", CultureInfo.InvariantCulture) + "d";
            if (value is float) return ((float)value).ToString("R", CultureInfo.InvariantCulture) + "f";
            if (value is bool) return (bool)value ? "true" : "false";
            if (value is char) return "'" + (char)value + "'";
            if (value is Enum) return value.GetType().Name + "." + value.ToString();
            if (value is IFormattable) return ((IFormattable)value).ToString(null, CultureInfo.InvariantCulture);
            Array a = value as Array;
            if (a != null)
            {
                var sb = new StringBuilder(a.GetType().GetElementType().Name + "[" + a.Length + "]{");
                for (int i = 0; i < a.Length && i < 4; i++) sb.Append(i == 0 ? "" : ", ").Append(Format(a.GetValue(i)));
                return sb.Append(a.Length > 4 ? ", ...}" : "}").ToString();
            }
            if (value is Delegate) return "delegate " + value.GetType().Name;
            if (value is IEnumerable && value.GetType().Name.Contains("<")) return value.GetType().Name;
            return value.ToString();  // app types: this may call instrumented code (the guard stops recursion)
        }

        static string FormatArgs(object[] args)
        {
            var parts = new string[args.Length];
            for (int i = 0; i < args.Length; i++) parts[i] = Format(args[i]);
            return string.Join(", ", parts);
        }

        public static object OnEnter(string method, int token, object instance, object[] args)
        {
            if (Logging) Log("enter " + method + " 0x" + token.ToString("X8", CultureInfo.InvariantCulture) + "(" + FormatArgs(args) + ")" +
                (instance != null ? " this=" + instance.GetType().Name : ""));
            depth++;
            if (method.EndsWith("::HookThrowsHere")) throw new InvalidOperationException("a hook that throws");
            return "state of " + method.Substring(method.IndexOf("::") + 2);
        }

        public static void OnLeave(string method, object state, object result, Exception exception, object[] args)
        {
            depth--;
            if (Logging) Log("leave " + method + (exception != null ? " threw " + exception.GetType().Name : " -> " + Format(result)) +
                " [" + state + "]" + (args.Length > 0 ? " args(" + FormatArgs(args) + ")" : ""));
            if (method.Contains("::HookThrowsOn")) throw new InvalidOperationException("OnLeave throws");
        }

        public static void OnException(string method, Exception exception, object state)
        {
            if (Logging) Log("exception in " + method + ": " + exception.GetType().FullName + ": " + exception.Message + " [" + state + "]");
            if (method.Contains("::HookThrowsOn")) throw new InvalidOperationException("OnException throws");
        }
    }
}
