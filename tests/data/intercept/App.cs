// Interception fixture (issue 13): methods that hooks memoize, validate, rewrite, replace the
// exceptions of, or suppress them in; Main prints what each call gave.
using System;
using System.Threading;

namespace InterceptApp
{
    public struct Point
    {
        public int X, Y;
        public Point(int x, int y) { X = x; Y = y; }
        public override string ToString() => "(" + X + ", " + Y + ")";
    }

    public static class Work
    {
        public static int SlowCalls;

        // Memoized by the hooks: 26 calls instead of 242,785 for Fib(25).
        public static long Fib(int n)
        {
            SlowCalls++;
            return n < 2 ? n : Fib(n - 1) + Fib(n - 2);
        }

        // The hooks reject a percentage over 100 with their own exception.
        public static int Checked(int percent) => percent * 2;

        // The hooks upper-case the result.
        public static string Greet(string name) => "hello " + name;

        // The hooks replace the result, a value type.
        public static Point Shift(Point p) => new Point(p.X + 1, p.Y);

        // The hooks replace the result with a string: an InvalidCastException from the method.
        public static double Half(int x) => x / 2.0;

        // The hooks skip it and supply the result, through a generic parameter.
        public static T Same<T>(T value) => value;

        // The hooks replace a DivideByZeroException with an ArgumentException.
        public static int Divide(int a, int b) => a / b;

        // Suppressed by the second hooks (a void method); RiskyValue has a result, so it throws.
        public static void Risky() => throw new InvalidOperationException("risky");
        public static int RiskyValue() => throw new InvalidOperationException("risky value");

        // Sleeps: the hooks see an elapsed time of at least 30 ms.
        public static void Nap() => Thread.Sleep(30);
    }

    public static class Program
    {
        static void Show(string label, Func<object> call)
        {
            try { Console.WriteLine(label + " = " + call()); }
            catch (Exception e) { Console.WriteLine(label + " threw " + e.GetType().Name + ": " + e.Message); }
        }

        public static int Main()
        {
            Show("Fib(25)", () => Work.Fib(25));
            Console.WriteLine("Fib's body ran " + Work.SlowCalls + " times");
            Show("Checked(40)", () => Work.Checked(40));
            Show("Checked(140)", () => Work.Checked(140));
            Show("Greet(world)", () => Work.Greet("world"));
            Show("Shift((1, 2))", () => Work.Shift(new Point(1, 2)));
            Show("Half(3)", () => Work.Half(3));
            Show("Same(7)", () => Work.Same(7));
            Show("Same(text)", () => Work.Same("text"));
            Show("Divide(6, 3)", () => Work.Divide(6, 3));
            Show("Divide(6, 0)", () => Work.Divide(6, 0));
            Show("Risky()", () => { Work.Risky(); return "returned"; });
            Show("RiskyValue()", () => Work.RiskyValue());
            Work.Nap();
            return 0;
        }
    }
}
