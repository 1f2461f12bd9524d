// Prints to stdout, then Main ends in an unhandled exception thrown three frames down. On .NET the
// runtime prints "Unhandled exception. System.InvalidOperationException: ..." with a stack trace to
// stderr and the process is aborted (exit code 134 = SIGABRT on Linux). A filter on the way up
// returns false (it runs during the first pass, before the runtime decides the exception is
// unhandled).
using System;

namespace Fixtures
{
    public static class Unhandled
    {
        private static int depth;

        static bool Observe(Exception e)
        {
            Console.WriteLine("filter saw " + e.GetType().Name + ": " + e.Message);
            return false;
        }

        static void Inner(int n)
        {
            depth++;
            Console.WriteLine("inner " + n);
            throw new InvalidOperationException("fixture failure " + n);
        }

        static void Middle(int n)
        {
            depth++;
            try
            {
                Inner(n);
            }
            catch (Exception e) when (Observe(e))
            {
                Console.WriteLine("not reached");
            }
        }

        static void Outer(int n)
        {
            depth++;
            Middle(n * 2);
        }

        static int Square(int x) => x * x;

        static void Main()
        {
            Console.WriteLine("start");
            int s = 0;
            for (int i = 1; i <= 3; i++) s += Square(i);
            Console.WriteLine("squares " + s);
            Outer(21);
            Console.WriteLine("not reached, depth " + depth);
        }
    }
}
