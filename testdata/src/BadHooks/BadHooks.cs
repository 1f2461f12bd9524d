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
}
