// Async and compiler-generated state machines: async Task / Task<T> / ValueTask / ValueTask<T>
// methods (with real suspension via Task.Yield / Task.Delay and synchronous fast paths), iterators
// (yield return / yield break / try-finally in an iterator), async iterators (IAsyncEnumerable and
// await foreach), lambdas and closures (captured locals, captured loop variables, captured `this`),
// static lambdas, local functions (static and capturing), LINQ.
// Output order is deterministic: every await is awaited sequentially before printing.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;

namespace Fixtures
{
    public sealed class Accumulator
    {
        private int total;
        private readonly string name;

        public Accumulator(string name) { this.name = name; }

        // lambda capturing `this`
        public Func<int, int> Adder() => x => total += x;

        // closure capturing `this` and a local
        public Action<int> ScaledAdder(int factor)
        {
            int calls = 0;
            return x => { calls++; total += x * factor; Console.WriteLine(name + " scaled call " + calls.ToString(CultureInfo.InvariantCulture)); };
        }

        public int Total => total;

        public async Task<int> AddLaterAsync(int x)
        {
            await Task.Yield();
            total += x;
            return total;
        }
    }

    public class AsyncIter
    {
        static async Task DelayAndPrintAsync(string msg)
        {
            await Task.Delay(1);
            Console.WriteLine("async: " + msg);
        }

        static async Task<int> SquareAsync(int x)
        {
            await Task.Yield();
            return x * x;
        }

        static async Task<int> SumSquaresAsync(int n)
        {
            int s = 0;
            for (int i = 1; i <= n; i++) s += await SquareAsync(i);
            return s;
        }

        static async ValueTask<int> MaybeAsync(int x)
        {
            if (x < 0) return -x;            // synchronous completion
            await Task.Yield();
            return x + 1000;
        }

        static async ValueTask LogValueTaskAsync(string msg)
        {
            await Task.Yield();
            Console.WriteLine("valuetask: " + msg);
        }

        static async Task<string> FailAsync(int code)
        {
            await Task.Yield();
            throw new InvalidOperationException("async failure " + code.ToString(CultureInfo.InvariantCulture));
        }

        static async Task<string> CatchAsync()
        {
            try
            {
                return await FailAsync(5);
            }
            catch (InvalidOperationException e)
            {
                return "caught " + e.Message;
            }
            finally
            {
                Console.WriteLine("async finally");
            }
        }

        // Enumerates with foreach, so an iterator's MoveNext runs once per element plus once more.
        static string JoinAll<T>(IEnumerable<T> items)
        {
            var parts = new List<string>();
            foreach (T item in items) parts.Add(Convert.ToString(item, CultureInfo.InvariantCulture));
            return string.Join(",", parts);
        }

        static IEnumerable<int> Range(int start, int count)
        {
            for (int i = 0; i < count; i++) yield return start + i;
        }

        static IEnumerable<string> WithFinally(List<string> log)
        {
            try
            {
                log.Add("begin");
                yield return "a";
                yield return "b";
                yield return "c";
                log.Add("end");
            }
            finally
            {
                log.Add("finally");
            }
        }

        static IEnumerable<int> Evens(IEnumerable<int> source)
        {
            foreach (int x in source)
            {
                if (x > 20) yield break;
                if (x % 2 == 0) yield return x;
            }
        }

        static async IAsyncEnumerable<int> ProduceAsync(int n)
        {
            for (int i = 0; i < n; i++)
            {
                await Task.Yield();
                yield return i * 10;
            }
        }

        static async Task<int> ConsumeAsync()
        {
            int sum = 0;
            await foreach (int v in ProduceAsync(4))
            {
                Console.WriteLine("await foreach " + v.ToString(CultureInfo.InvariantCulture));
                sum += v;
            }
            return sum;
        }

        static int LocalFunctions(int seed)
        {
            int counter = seed;
            int Bump(int by) { counter += by; return counter; }          // capturing
            static int Twice(int v) => v * 2;                            // static
            int Fact(int k) => k <= 1 ? 1 : k * Fact(k - 1);           // recursive, non-capturing
            Bump(1);
            Bump(Twice(3));
            return counter + Fact(5);
        }

        static async Task RunAsync()
        {
            await DelayAndPrintAsync("first");
            Console.WriteLine("sumsquares " + await SumSquaresAsync(4));
            Console.WriteLine("maybe " + await MaybeAsync(-7) + " " + await MaybeAsync(7));
            await LogValueTaskAsync("done");
            Console.WriteLine(await CatchAsync());
            var acc = new Accumulator("acc");
            Console.WriteLine("addlater " + await acc.AddLaterAsync(5) + " " + await acc.AddLaterAsync(6));
            Console.WriteLine("consume " + await ConsumeAsync());
            var tasks = new List<Task<int>>();
            for (int i = 1; i <= 3; i++) tasks.Add(SquareAsync(i));
            int[] results = await Task.WhenAll(tasks);
            Console.WriteLine("whenall " + string.Join(",", results));
        }

        static int Main()
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;

            // iterators
            Console.WriteLine("range " + JoinAll(Range(5, 4)));
            int total = 0;
            foreach (int x in Range(1, 10)) total += x;
            Console.WriteLine("range total " + total);
            var log = new List<string>();
            foreach (var s in WithFinally(log)) log.Add(s);
            Console.WriteLine("withfinally " + string.Join(",", log));
            log.Clear();
            foreach (var s in WithFinally(log)) { log.Add(s); if (s == "b") break; }
            Console.WriteLine("withfinally-break " + string.Join(",", log));
            Console.WriteLine("evens " + JoinAll(Evens(Range(10, 20))));

            // lambdas and closures
            Func<int, int> square = x => x * x;
            Func<int, int, int> add = static (a, b) => a + b;
            int captured = 10;
            Func<int, int> addCaptured = x => x + captured;
            captured = 20;
            Console.WriteLine("lambdas " + square(7) + " " + add(2, 3) + " " + addCaptured(1));
            var actions = new List<Func<int>>();
            for (int i = 0; i < 3; i++)
            {
                int copy = i;
                actions.Add(() => copy * 100);
            }
            Console.WriteLine("closures " + string.Join(",", actions.Select(f => f())));
            var acc = new Accumulator("acc0");
            var adder = acc.Adder();
            adder(3);
            adder(4);
            var scaled = acc.ScaledAdder(10);
            scaled(1);
            scaled(2);
            Console.WriteLine("accumulator " + acc.Total);
            Console.WriteLine("localfunctions " + LocalFunctions(5));
            var query = Enumerable.Range(1, 10).Where(n => n % 3 != 0).Select(n => n * n).OrderByDescending(n => n).Take(4);
            Console.WriteLine("linq " + string.Join(",", query));

            // async
            RunAsync().GetAwaiter().GetResult();
            Console.WriteLine("end");
            return 0;
        }
    }
}
