// Trace-mode fixture: every kind of method the hooks must see, with deterministic output.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Threading.Tasks;

namespace TraceFixtures
{
    enum Color : byte { Red = 1, Green = 2 }

    struct Money
    {
        public decimal Amount;
        public string Currency;
        public Money(decimal amount, string currency) { Amount = amount; Currency = currency; }
        public Money Add(Money other) => new Money(Amount + other.Amount, Currency);
        public override string ToString() => Amount.ToString(CultureInfo.InvariantCulture) + " " + Currency;
    }

    struct Pair<T>
    {
        public T First, Second;
        public Pair(T a, T b) { First = a; Second = b; }
        public T Pick(bool first) => first ? First : Second;
    }

    ref struct Window
    {
        public Span<int> Data;
        public Window(Span<int> data) { Data = data; }
        public int Sum() { int s = 0; foreach (var x in Data) s += x; return s; }
    }

    class Animal
    {
        protected readonly string name;
        public Animal(string name) { this.name = name; }
        public virtual string Speak() => name + " makes a sound";
        public override string ToString() => "Animal(" + name + ")";
    }

    class Dog : Animal
    {
        readonly int age;
        public Dog(string name, int age) : base(name) { this.age = age; }
        public Dog(string name) : this(name, 1) { }
        public override string Speak() => name + " barks (" + age + ")";
    }

    class Box<T>
    {
        readonly List<T> items = new List<T>();
        public void Put(T item) => items.Add(item);
        public T Get(int index) => items[index];
        public static Box<T> Of(T a, T b) { var box = new Box<T>(); box.Put(a); box.Put(b); return box; }
    }

    static class Program
    {
        static int counter;
        static int[] cells = { 1, 2, 3 };

        static int Add(int a, int b) => a + b;
        static double Scale(double x, float factor, long offset) => x * factor + offset;
        static string Describe(string s, object o, bool flag, char c, Color color) =>
            s + "/" + (o ?? "null") + "/" + flag + "/" + c + "/" + color;
        static void Nothing() { counter++; }
        static T Identity<T>(T value) => value;
        static (int, string) Tuple(int n) => (n, "n" + n);
        static ref int Cell(int i) => ref cells[i];
        static void Swap(ref int a, ref int b) { int t = a; a = b; b = t; }
        static bool TryHalf(int n, out int half) { half = n / 2; return n % 2 == 0; }
        static unsafe int StackSum(int n)
        {
            int* p = stackalloc int[n];
            for (int i = 0; i < n; i++) p[i] = i * i;
            int s = 0;
            for (int i = 0; i < n; i++) s += p[i];
            return s;
        }
        static int SpanSum(Span<int> span) { int s = 0; foreach (var x in span) s += x; return s; }

        static int Divide(int a, int b) => a / b;
        static int CatchInside(int b)
        {
            try { return Divide(10, b); }
            catch (DivideByZeroException) { return -1; }
        }
        static string Filtered(int code)
        {
            try
            {
                try { throw new ArgumentException("code " + code); }
                finally { counter += 10; }
            }
            catch (ArgumentException e) when (code > 5) { return "big: " + e.Message; }
            catch (ArgumentException e) { return "small: " + e.Message; }
        }
        static void Escapes(string why) => throw new InvalidOperationException(why);
        static int EndsInThrow(int x)
        {
            if (x > 0) return x;
            throw new ArgumentOutOfRangeException(nameof(x), "not positive");
        }
        static int HookThrowsHere(int x) => x * 3;

        // Completes synchronously, so the hook log does not depend on thread timing. (An await
        // that suspends shows up as further MoveNext calls, on whichever thread resumes it.)
        static async Task<int> ComputeAsync(int x)
        {
            int doubled = await Task.FromResult(x * 2);
            return doubled;
        }
        static IEnumerable<int> Evens(int limit)
        {
            for (int i = 0; i <= limit; i += 2) yield return i;
        }

        static int Main()
        {
            Console.WriteLine("add " + Add(2, 3));
            Console.WriteLine("scale " + Scale(1.5, 2f, 7).ToString(CultureInfo.InvariantCulture));
            Console.WriteLine(Describe("s", null, true, 'x', Color.Green));
            Nothing();
            Console.WriteLine("identity " + Identity(42) + " " + Identity("text") + " " + Identity<object>(null));
            Console.WriteLine("tuple " + Tuple(7));
            Cell(1) = 20;
            Console.WriteLine("cells " + string.Join(",", cells));
            int x = 1, y = 2;
            Swap(ref x, ref y);
            Console.WriteLine("swap " + x + " " + y);
            Console.WriteLine("half " + TryHalf(8, out int h) + " " + h);
            Console.WriteLine("stack " + StackSum(5));
            Console.WriteLine("span " + SpanSum(new int[] { 4, 5, 6 }));
            Console.WriteLine("window " + new Window(new int[] { 1, 1, 1 }).Sum());
            var money = new Money(1.5m, "EUR").Add(new Money(2.25m, "EUR"));
            Console.WriteLine("money " + money);
            Console.WriteLine("pair " + new Pair<string>("a", "b").Pick(false));
            Animal a = new Dog("Rex");
            Console.WriteLine(a.Speak() + " / " + new Animal("Cat").Speak());
            var box = Box<double>.Of(0.25, 0.5);
            Console.WriteLine("box " + box.Get(1).ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("catch inside " + CatchInside(0) + " " + CatchInside(5));
            Console.WriteLine(Filtered(3) + " | " + Filtered(9));
            try { Escapes("boom"); }
            catch (InvalidOperationException e) { Console.WriteLine("caught " + e.Message); }
            try { EndsInThrow(-1); }
            catch (ArgumentOutOfRangeException e) { Console.WriteLine("caught " + e.ParamName); }
            Console.WriteLine("ends in throw " + EndsInThrow(4));
            Console.WriteLine("hook throws " + HookThrowsHere(5));
            Console.WriteLine("async " + ComputeAsync(21).GetAwaiter().GetResult());
            Console.WriteLine("evens " + string.Join(",", Evens(6)));
            Console.WriteLine("counter " + counter);
            return 0;
        }
    }
}
