// Hooks that take everything (and do nothing with it): the cost of building the arguments.
using System;

namespace FullHooks
{
    public static class Hooks
    {
        public static object OnEnter(string method, int token, object instance, object[] args) => null;
        public static void OnLeave(string method, object state, object result, Exception exception, object[] args) { }
        public static void OnException(string method, Exception exception) { }
    }
}
