// Throws from known lines in every kind of method the C# compiler makes (sync code, an async
// method, an iterator, a lambda, a generic method, a constructor, a finally block, and a method
// whose lines come from two documents) and prints each stack trace with its file and line. Built
// Debug with a portable and an embedded PDB, so an instrumented copy must print the same lines.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading.Tasks;

namespace Fixtures
{
    sealed class Widget
    {
        public Widget(int size)
        {
            if (size < 0)
                throw new ArgumentOutOfRangeException(nameof(size), "a widget needs a size");
            Size = size;
        }

        public int Size { get; }
    }

    static class DebugLines
    {
        static void Sync(int depth)
        {
            if (depth == 0)
                throw new InvalidOperationException("sync");
            Sync(depth - 1);
        }

        static async Task<int> AsyncWork(int value)
        {
            int before = value * 2;
            await Task.Yield();
            if (before > 0)
                throw new InvalidOperationException("async " + before);
            return before;
        }

        static IEnumerable<int> Numbers(int count)
        {
            for (int i = 0; i < count; i++)
                yield return i;
            throw new InvalidOperationException("iterator");
        }

        static T Pick<T>(T[] items, int index)
        {
            T chosen = items[index];
            return chosen;
        }

        static int InFinally(int value)
        {
            try
            {
                value += 1;
            }
            finally
            {
                if (value > 0)
                    throw new InvalidOperationException("finally");
            }
            return value;
        }

        static string Here(string label)
        {
            const int Marker = 7;
            string trace = new StackTrace(true).ToString();
            return label + " " + Marker + "\n" + trace;
        }

        static void Report(string name, Action action)
        {
            try
            {
                action();
                Console.WriteLine(name + ": no exception");
            }
            catch (Exception e)
            {
                Console.WriteLine(name + ": " + e.GetType().Name + ": " + e.Message);
                Console.WriteLine(e.StackTrace);
            }
        }

        static int Main()
        {
            Report("sync", () => Sync(2));
            Report("async", () => AsyncWork(3).GetAwaiter().GetResult());
            Report("iterator", () =>
            {
                int sum = 0;
                foreach (int n in Numbers(3)) sum += n;
                Console.WriteLine("sum " + sum);
            });
            Func<int, int> divide = x => 10 / (x - x);
            Report("lambda", () => divide(4));
            Report("generic", () => Pick(new[] { "a", "b" }, 5));
            Report("constructor", () => new Widget(-1));
            Report("finally", () => InFinally(1));
            Report("two documents", () => TwoDocuments.Run(0));
            Console.WriteLine(Here("here"));
            return 0;
        }
    }
}
