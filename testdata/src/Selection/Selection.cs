// Methods the instrument command must select, exclude or skip (tests/scripts/instrument_cases_test.sh):
// every kind of method without an IL body, nested types, two namespaces for --include/--exclude.
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Selection.Alpha
{
    public delegate int Transform(int value);          // .ctor, Invoke, BeginInvoke, EndInvoke: runtime-implemented

    public abstract class Shape
    {
        public abstract double Area();                  // abstract: no body
        public virtual string Name() => "shape";
    }

    public sealed class Square : Shape
    {
        readonly double side;
        public Square(double side) { this.side = side; }
        public override double Area() => side * side;

        public sealed class Unit
        {
            public static Square Make() => new Square(1);
        }
    }

    public static class Native
    {
        [DllImport("libc")] public static extern int abs(int value);           // P/Invoke: no body

        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern int Internal(int value);                          // internal call: no body
    }
}

namespace Selection.Beta
{
    public static class Tools
    {
        public static int Twice(int x) => 2 * x;
        public static int Apply(Selection.Alpha.Transform f, int x) => f(x);
    }
}
