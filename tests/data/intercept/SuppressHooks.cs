// OnException returning bool: true suppresses the exception in a void method (issue 13).
using System;

namespace SuppressHooks
{
    public static class Hooks
    {
        public static bool OnException(string method, Exception exception) => exception is InvalidOperationException;
    }
}
