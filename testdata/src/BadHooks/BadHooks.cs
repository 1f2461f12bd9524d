// Hook types that break the trace-mode contract, one defect each (chosen with --hook-type).
using System;

namespace BadHooks
{
    public static class UnknownParameter { public static void OnEnter(string methodName) { } }
    public static class WrongType { public static void OnEnter(int method) { } }
    public class NotStatic { public void OnLeave(string method) { } }
    public static class NotPublicHook { internal static void OnEnter(string method) { } }
    public static class StateInOnEnter { public static void OnEnter(object state) { } }
    public static class BadReturn { public static int OnLeave(string method) => 0; }
    public static class Overloaded
    {
        public static void OnEnter(string method) { }
        public static void OnEnter(int token) { }
    }
    public static class NoHooks { public static void Enter(string method) { } }
    internal static class Hidden { public static void OnEnter(string method) { } }
    // A wrong type for each of the other parameters.
    public static class WrongTokenType { public static void OnEnter(long token) { } }
    public static class WrongInstanceType { public static void OnEnter(string instance) { } }
    public static class WrongArgsType { public static void OnEnter(object args) { } }
    public static class WrongStateType { public static void OnLeave(string state) { } }
    public static class WrongResultType { public static void OnLeave(int result) { } }
    public static class WrongExceptionType { public static void OnException(object exception) { } }
    public static class SubclassException { public static void OnException(InvalidOperationException exception) { } }
    public static class EnterReturnsInt { public static int OnEnter(string method) => 0; }
    public static class GenericHook { public static void OnEnter<T>(string method) { } }
    public static class ByRefParameter { public static void OnEnter(ref string method) { } }
}
