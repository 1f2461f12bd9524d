// A small but non-trivial program for tests/scripts/realworld_test.sh: compiled by an
// uninstrumented and an instrumented compiler (Roslyn on .NET, mcs on Mono), which must produce
// the same assembly, and then run. Its output is deterministic (tests/data/realworld/expected.txt).
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading.Tasks;

namespace RealWorld
{
    public interface IShape
    {
        string Name { get; }
        double Area();
    }

    public abstract class Shape : IShape
    {
        public abstract string Name { get; }
        public abstract double Area();
        public override string ToString() { return string.Format("{0}({1:F2})", Name, Area()); }
    }

    public sealed class Circle : Shape
    {
        private readonly double radius;
        public Circle(double radius)
        {
            if (radius < 0) throw new ArgumentOutOfRangeException("radius", "negative radius");
            this.radius = radius;
        }
        public override string Name { get { return "circle"; } }
        public override double Area() { return Math.PI * radius * radius; }
    }

    public sealed class Rect : Shape
    {
        public double Width { get; private set; }
        public double Height { get; private set; }
        public Rect(double w, double h) { Width = w; Height = h; }
        public override string Name { get { return Width == Height ? "square" : "rect"; } }
        public override double Area() { return Width * Height; }
    }

    public struct Pair<TFirst, TSecond>
    {
        public readonly TFirst First;
        public readonly TSecond Second;
        public Pair(TFirst first, TSecond second) { First = first; Second = second; }
        public override string ToString() { return "<" + First + ", " + Second + ">"; }
    }

    public class Registry<TKey, TValue> where TKey : IComparable<TKey>
    {
        private readonly SortedDictionary<TKey, List<TValue>> items = new SortedDictionary<TKey, List<TValue>>();

        public void Add(TKey key, TValue value)
        {
            List<TValue> list;
            if (!items.TryGetValue(key, out list))
            {
                list = new List<TValue>();
                items.Add(key, list);
            }
            list.Add(value);
        }

        public IEnumerable<Pair<TKey, int>> Sizes()
        {
            foreach (var kv in items) yield return new Pair<TKey, int>(kv.Key, kv.Value.Count);
        }

        public TValue First(TKey key)
        {
            List<TValue> list;
            if (items.TryGetValue(key, out list) && list.Count > 0) return list[0];
            throw new KeyNotFoundException("no item for " + key);
        }
    }

    public class ValidationException : Exception
    {
        public int Code { get; private set; }
        public ValidationException(string message, int code) : base(message) { Code = code; }
    }

    public static class Extensions
    {
        public static IEnumerable<T> EveryOther<T>(this IEnumerable<T> source)
        {
            bool take = true;
            foreach (var item in source)
            {
                if (take) yield return item;
                take = !take;
            }
        }

        public static string Join<T>(this IEnumerable<T> source, string separator)
        {
            var sb = new StringBuilder();
            foreach (var item in source)
            {
                if (sb.Length > 0) sb.Append(separator);
                sb.Append(item);
            }
            return sb.ToString();
        }
    }

    public static class Program
    {
        static async Task<int> SumAsync(IEnumerable<int> values)
        {
            int total = 0;
            foreach (var v in values)
            {
                await Task.Yield();
                total += await SquareAsync(v);
            }
            return total;
        }

        static Task<int> SquareAsync(int v) { return Task.FromResult(v * v); }

        static async Task<string> FailAsync(int code)
        {
            await Task.Delay(1);
            throw new ValidationException("async failure", code);
        }

        static int Fib(int n) { return n < 2 ? n : Fib(n - 1) + Fib(n - 2); }

        static string Classify(object o)
        {
            if (o == null) return "null";
            if (o is int) return (int)o < 0 ? "negative int" : "int " + (int)o;
            var s = o as string;
            if (s != null) return "string of " + s.Length;
            var shape = o as IShape;
            if (shape != null) return "shape " + shape.Name;
            return o.GetType().Name;
        }

        public static int Main(string[] args)
        {
            int unused = 7; // a warning (CS0219) for both compilers: their diagnostics are compared
            var shapes = new List<Shape> { new Circle(1), new Rect(2, 3), new Rect(2, 2), new Circle(0.5), new Rect(1, 4) };
            Console.WriteLine("shapes: " + shapes.Join(", "));
            var byName = shapes.GroupBy(s => s.Name).OrderBy(g => g.Key)
                               .Select(g => string.Format("{0}={1}:{2:F3}", g.Key, g.Count(), g.Sum(s => s.Area())));
            Console.WriteLine("groups: " + string.Join(" ", byName));
            var largest = shapes.OrderByDescending(s => s.Area()).First();
            Console.WriteLine("largest: " + largest);

            var registry = new Registry<string, Shape>();
            foreach (var s in shapes) registry.Add(s.Name, s);
            Console.WriteLine("registry: " + registry.Sizes().Join(" "));
            Console.WriteLine("first rect: " + registry.First("rect"));
            try
            {
                registry.First("triangle");
            }
            catch (KeyNotFoundException e)
            {
                Console.WriteLine("caught: " + e.Message);
            }

            try
            {
                new Circle(-1);
            }
            catch (ArgumentOutOfRangeException e) when (e.ParamName == "radius")
            {
                Console.WriteLine("caught filtered: " + e.ParamName);
            }
            finally
            {
                Console.WriteLine("finally ran");
            }

            var squares = Enumerable.Range(1, 10).Where(n => n % 3 != 0).Select(n => n * n).ToArray();
            Console.WriteLine("squares: " + squares.Join(","));
            Console.WriteLine("every other: " + squares.EveryOther().Join(","));
            var query = from n in Enumerable.Range(1, 20)
                        let f = Fib(n)
                        where f % 2 == 0
                        select new Pair<int, int>(n, f);
            Console.WriteLine("even fibs: " + query.Join(" "));

            int sum = SumAsync(Enumerable.Range(1, 5)).Result;
            Console.WriteLine("async sum: " + sum);
            try
            {
                FailAsync(42).GetAwaiter().GetResult();
            }
            catch (ValidationException e)
            {
                Console.WriteLine("async caught: " + e.Message + " code " + e.Code);
            }

            object[] things = { 3, -7, "hello", new Rect(1, 1), null, 2.5 };
            Console.WriteLine("classify: " + things.Select(Classify).Join("; "));

            var words = "the quick brown fox jumps over the lazy dog the end".Split(' ');
            var freq = words.GroupBy(w => w).Where(g => g.Count() > 1).Select(g => g.Key + "x" + g.Count());
            Console.WriteLine("repeated: " + freq.Join(","));
            Func<int, Func<int, int>> adder = a => b => a + b;
            Console.WriteLine("closure: " + adder(40)(2));
            return sum == 55 ? 0 : 1;
        }
    }
}
