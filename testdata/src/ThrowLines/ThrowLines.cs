// Throws from known lines in every shape a method body takes (sync, first line and mid-method,
// hardware faults, async, iterator, lambda, generic, constructor, finally, filter) and prints each
// exception's stack trace: with its portable PDB, every frame names file:line, which a rewrite
// that shifts IL offsets must not change (profiler count mode gives the runtime its offset map).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Fixtures
{
    public sealed class Thrower
    {
        readonly int size;
        readonly int[] cells = new int[4];

        public Thrower(int size)
        {
            this.size = size;
            cells[0] = size;
            if (size < 0) throw new ArgumentOutOfRangeException(nameof(size), "negative size");
        }

        public int Size => size;
    }

    public static class Boxes<T>
    {
        public static T Pick(T value, int index)
        {
            var items = new List<T> { value };
            Console.WriteLine("pick " + typeof(T).Name);
            return items[index];
        }
    }

    public static class ThrowLines
    {
        static int zero;
        static string nothing;

        static void FirstLine() { throw new InvalidOperationException("first line"); }

        static int MidMethod(int n)
        {
            int sum = 0;
            for (int i = 0; i < n; i++) sum += i;
            Console.WriteLine("sum " + sum);
            if (sum > 3) throw new InvalidOperationException("mid-method");
            return sum;
        }

        static int Outer(int n)
        {
            int x = n * 2;
            x += Middle(x);
            return x;
        }

        static int Middle(int n)
        {
            Console.WriteLine("middle " + n);
            return MidMethod(n) + 1;
        }

        static int Divide(int n)
        {
            int a = n + 1;
            int b = a / zero;
            return b;
        }

        static int Length()
        {
            int k = 3;
            return nothing.Length + k;
        }

        static async Task<int> ThrowAsync(int n)
        {
            await Task.Yield();
            int m = n + 1;
            if (m > 0) throw new InvalidOperationException("async");
            return m;
        }

        static IEnumerable<int> Iterate(int n)
        {
            yield return n;
            int m = n + 1;
            if (m > 0) throw new InvalidOperationException("iterator");
            yield return m;
        }

        static int Lambda(int n)
        {
            Func<int, int> f = x =>
            {
                int y = x + 1;
                return y / zero;
            };
            return f(n);
        }

        static void InFinally()
        {
            int k = 0;
            try
            {
                k = 1;
                Console.WriteLine("try " + k);
            }
            finally
            {
                k = 2;
                throw new InvalidOperationException("finally " + k);
            }
        }

        static void ThroughFinally()
        {
            try
            {
                MidMethod(5);
            }
            finally
            {
                Console.WriteLine("finally ran");
            }
        }

        static void Rethrown()
        {
            try
            {
                FirstLine();
            }
            catch (InvalidOperationException e) when (e.Message.Length > 0)
            {
                Console.WriteLine("filter saw it");
                throw;
            }
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
                Console.WriteLine("== " + name);
                Console.WriteLine(e.ToString());
            }
        }

        static int Main(string[] args)
        {
            Report("first line", () => FirstLine());
            Report("mid-method", () => MidMethod(5));
            Report("nested", () => Outer(3));
            Report("divide", () => Divide(4));
            Report("null", () => Length());
            Report("async", () => ThrowAsync(2).GetAwaiter().GetResult());
            Report("iterator", () => { foreach (int i in Iterate(1)) Console.WriteLine("item " + i); });
            Report("lambda", () => Lambda(6));
            Report("generic value", () => Boxes<int>.Pick(1, 2));
            Report("generic reference", () => Boxes<string>.Pick("a", 3));
            Report("constructor", () => Console.WriteLine(new Thrower(-1).Size));
            Report("in finally", () => InFinally());
            Report("through finally", () => ThroughFinally());
            Report("filter", () => Rethrown());
            if (args.Length > 0) Outer(4);  // unhandled: the runtime prints the trace on stderr
            return 0;
        }
    }
}
