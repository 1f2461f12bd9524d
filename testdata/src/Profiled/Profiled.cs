// Profiled: the program the runtime profiler's tests run (`cil-instrument run`). Calls with
// arguments of every kind the args log shows (ints, doubles, floats, bools, chars, strings with
// escapes, a long string, null, objects, arrays, structs, enums, ref, generics, `this` of a class
// and of a struct), return values of every kind (Returns), class loads, an exception thrown two frames down and caught (with a
// finally on the way), and a forced GC.Collect(). Deterministic output.
using System;
using System.Globalization;

namespace Fixtures
{
    public enum Shade { Light = 1, Dark = 2 }

    public struct Pair
    {
        public int A;
        public int B;
        public Pair(int a, int b) { A = a; B = b; }
        public int Sum() => A + B;
    }

    public class Shape
    {
        public virtual string Kind() => "shape";
    }

    public sealed class Square : Shape
    {
        private readonly double side;
        public Square(double side) { this.side = side; }
        public override string Kind() => "square";
        public double Area(int times) => side * side * times;
    }

    public static class Calls
    {
        public static int Add(int a, int b) => a + b;
        public static double Scale(double x, float factor) => x * factor;
        public static string Flag(bool on, char c) => on ? c.ToString() : "-";
        public static int Length(string s) => s == null ? -1 : s.Length;
        public static string Describe(object o) => o == null ? "nothing" : o.GetType().Name;
        public static long Wide(long l, ulong u, byte b, sbyte sb, short s, ushort us) => l + (long)u + b + sb + s + us;
        public static int Measure(Pair p, Shade shade) => p.Sum() * (int)shade;
        public static void Bump(ref int counter) { counter++; }
        public static T Echo<T>(T value) => value;
        public static int Count(int[] items) => items == null ? 0 : items.Length;
    }

    // Return values of every kind the args log's leave lines show.
    public static class Returns
    {
        public static Pair MakePair(int a, int b) => new Pair(a, b);
        public static Shade Darker(Shade s) => Shade.Dark;
        public static int? Maybe(bool some) => some ? 5 : (int?)null;
        public static ref int First(int[] items) => ref items[0];
        public static Span<int> Tail(int[] items) => items.AsSpan(1);
        public static float Half(float f) => f / 2;
        public static char Upper(char c) => char.ToUpperInvariant(c);
        public static bool Odd(int n) => (n & 1) != 0;
        public static byte Low(int n) => (byte)n;
        public static ulong Big() => ulong.MaxValue;
        public static sbyte Signed(int n) => (sbyte)n;
        public static short Short(int n) => (short)n;
        public static ushort Unsigned(int n) => (ushort)n;
        public static uint Word(int n) => (uint)n;
        public static nint Native(int n) => n;
        public static nuint NativeUnsigned(int n) => (nuint)n;
        public static int[] Three() => new[] { 1, 2, 3 };
        public static object Boxed() => 42;
    }

    public static class Program
    {
        static int finallies;

        static void Fail(string why) => throw new InvalidOperationException(why);

        static void Middle(string why)
        {
            try { Fail(why); }
            finally { finallies++; }
        }

        static string Guarded()
        {
            try
            {
                Middle("expected failure");
                return "not thrown";
            }
            catch (InvalidOperationException e)
            {
                return "caught " + e.Message;
            }
        }

        static string Show(double d) => d.ToString("R", CultureInfo.InvariantCulture);

        public static int Main()
        {
            Console.WriteLine("add " + Calls.Add(2, -3));
            Console.WriteLine("scale " + Show(Calls.Scale(1.5, 0.25f)));
            Console.WriteLine("flag " + Calls.Flag(true, 'x') + Calls.Flag(false, '\n'));
            Console.WriteLine("length " + Calls.Length("tab\there \"quoted\"") + " " + Calls.Length(null));
            Console.WriteLine("long " + Calls.Length(new string('a', 250)));
            Console.WriteLine("describe " + Calls.Describe(null) + " " + Calls.Describe(new Square(2)) + " " + Calls.Describe("text"));
            Console.WriteLine("wide " + Calls.Wide(-5000000000, 7, 255, -128, -300, 65535));
            Console.WriteLine("measure " + Calls.Measure(new Pair(3, 4), Shade.Dark));
            int counter = 41;
            Calls.Bump(ref counter);
            Console.WriteLine("bump " + counter);
            Console.WriteLine("echo " + Calls.Echo(7) + " " + Calls.Echo("seven") + " " + Show(Calls.Echo(0.5)));
            Console.WriteLine("count " + Calls.Count(new[] { 1, 2, 3 }) + " " + Calls.Count(null));
            Shape shape = new Square(1.5);
            Console.WriteLine("kind " + shape.Kind() + " " + new Shape().Kind());
            Console.WriteLine("area " + Show(((Square)shape).Area(2)));
            Console.WriteLine("sum " + new Pair(5, 6).Sum());
            int[] items = { 4, 5, 6 };
            Console.WriteLine("returns " + Returns.MakePair(1, 2).Sum() + " " + Returns.Darker(Shade.Light) + " " +
                              Returns.Maybe(true) + " " + Returns.Maybe(false).HasValue + " " + Returns.First(items) + " " +
                              Returns.Tail(items).Length + " " + Returns.Half(3f).ToString(CultureInfo.InvariantCulture) + " " +
                              Returns.Upper('q') + " " + Returns.Odd(3) + " " + Returns.Low(258) + " " + Returns.Big() + " " +
                              Returns.Signed(-5) + " " + Returns.Short(-300) + " " + Returns.Unsigned(-1) + " " + Returns.Word(-1) + " " +
                              Returns.Native(-7) + " " + Returns.NativeUnsigned(9) + " " +
                              Returns.Three().Length + " " + Returns.Boxed());
            Console.WriteLine(Guarded() + ", finally ran " + finallies + " time(s)");
            GC.Collect();
            Console.WriteLine("collected");
            return 0;
        }
    }
}
