// Hooks that declare fewer callbacks than TraceHooks, in a strong-named assembly with a version,
// for the trace-mode tests: a void OnEnter alone, an OnLeave alone, an OnException alone. The
// instrumented output must reference this assembly by name, version and public key token, and
// must generate code only for the hooks declared here.
using System;
using System.Globalization;
using System.IO;
using System.Reflection;

[assembly: AssemblyVersion("1.2.3.4")]

namespace SlimHooks
{
    static class Log
    {
        static readonly object Gate = new object();

        public static void Write(string line)
        {
            string path = Environment.GetEnvironmentVariable("CIL_TRACE_LOG");
            if (string.IsNullOrEmpty(path)) return;
            lock (Gate) File.AppendAllText(path, line + "\n");
        }

        // Never calls the application's own code.
        public static string Format(object value)
        {
            if (value == null) return "null";
            if (value is string) return "\"" + (string)value + "\"";
            if (value is bool) return (bool)value ? "true" : "false";
            if (value is Enum || value.GetType().IsPrimitive)
                return Convert.ToString(value, CultureInfo.InvariantCulture);
            return value.GetType().Name;
        }
    }

    public static class EnterOnly
    {
        public static void OnEnter(string method) { Log.Write("enter " + method); }
    }

    public static class LeaveOnly
    {
        public static void OnLeave(string method, object result) { Log.Write("leave " + method + " = " + Log.Format(result)); }
    }

    public static class ExceptionOnly
    {
        public static void OnException(int token, Exception exception)
        {
            Log.Write("exception in 0x" + token.ToString("X8", CultureInfo.InvariantCulture) + ": " +
                      exception.GetType().Name + ": " + exception.Message);
        }
    }
}
