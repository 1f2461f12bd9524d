// Wrong interception signatures: each type is one case (--hook-type), refused with one line.
using System;

namespace BadIntercept
{
    public static class EnterResultNotOut { public static bool OnEnter(string method, object result) => true; }
    public static class EnterResultWithoutBool { public static void OnEnter(string method, out object result) { result = null; } }
    public static class EnterReturnsInt { public static int OnEnter(string method) => 0; }
    public static class LeaveResultRefString { public static void OnLeave(string method, ref string result) { } }
    public static class ElapsedInt { public static void OnLeave(string method, int elapsed) { } }
    public static class ElapsedInOnEnter { public static void OnEnter(string method, long elapsed) { } }
    public static class ExceptionReturnsInt { public static int OnException(string method, Exception exception) => 0; }
    public static class ExceptionReturnsObject { public static object OnException(string method, Exception exception) => null; }
}
