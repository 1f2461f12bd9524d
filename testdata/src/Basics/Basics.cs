// Basics: structs, enums ([Flags], non-int underlying types), properties, events (field-like and
// custom add/remove), static constructors, nested types, inheritance/virtual calls, default
// interface methods, params arrays, operator overloading, indexers.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Fixtures
{
    [Flags]
    public enum Perm : byte { None = 0, Read = 1, Write = 2, Exec = 4, All = Read | Write | Exec }

    public enum Big : long { Small = 1, Huge = 1L << 40 }

    public enum Level : sbyte { Low = -1, Mid = 0, High = 1 }

    [Flags]
    public enum Wide : ulong { A = 1, B = 2, Top = 1UL << 63 }

    public enum Color { Red, Green, Blue }

    public struct Point
    {
        public int X;
        public int Y;

        public Point(int x, int y) { X = x; Y = y; }

        public int Manhattan => Math.Abs(X) + Math.Abs(Y);

        public Point Add(Point o) => new Point(X + o.X, Y + o.Y);

        public static Point operator +(Point a, Point b) => a.Add(b);

        public static bool operator ==(Point a, Point b) => a.X == b.X && a.Y == b.Y;

        public static bool operator !=(Point a, Point b) => !(a == b);

        public override bool Equals(object obj) => obj is Point p && p == this;

        public override int GetHashCode() => X * 31 + Y;

        public string Show() => "(" + X.ToString(CultureInfo.InvariantCulture) + "," + Y.ToString(CultureInfo.InvariantCulture) + ")";
    }

    public interface IShape
    {
        double Area();
        string Name => "shape";
        string Describe() => Name + " area=" + Area().ToString("F3", CultureInfo.InvariantCulture);
    }

    public sealed class Circle : IShape
    {
        private readonly double r;
        public Circle(double r) { this.r = r; }
        public double Area() => Math.PI * r * r;
        public string Name => "circle";
    }

    public sealed class Rect : IShape
    {
        public double W { get; }
        public double H { get; }
        public Rect(double w, double h) { W = w; H = h; }
        public double Area() => W * H;
    }

    public abstract class Animal
    {
        public static int Created;
        protected readonly string name;
        protected Animal(string name) { this.name = name; Created++; }
        public abstract string Sound();
        public virtual string Speak() => name + " says " + Sound();
    }

    public class Dog : Animal
    {
        public Dog(string name) : base(name) { }
        public Dog() : this("Rex") { }
        public override string Sound() => "woof";
        public override string Speak() => base.Speak() + "!";
    }

    public sealed class Puppy : Dog
    {
        public Puppy() : base("Bit") { }
        public override string Sound() => "yip";
    }

    public class Counter
    {
        private static readonly List<string> log;
        private EventHandler<int> changed;
        private int value;

        static Counter()
        {
            log = new List<string>();
            Console.WriteLine("Counter static constructor");
        }

        public static IReadOnlyList<string> Log => log;

        public event EventHandler<int> Changed
        {
            add { log.Add("add"); changed += value; }
            remove { log.Add("remove"); changed -= value; }
        }

        public event Action<string> Renamed;

        private string name = "counter";

        public string Name
        {
            get => name;
            set { name = value; Renamed?.Invoke(value); }
        }

        public int Value
        {
            get { return value; }
            set { this.value = value; changed?.Invoke(this, value); }
        }

        public int this[int i] => value * i;
    }

    public class Basics
    {
        public static class Nested
        {
            public class Deeper
            {
                private readonly int depth;
                public Deeper(int d) { depth = d; }
                public string Where() => "Nested.Deeper depth " + depth.ToString(CultureInfo.InvariantCulture);
            }

            public enum Inner : short { One = 1, Two = 2 }
        }

        private static int changedSum;

        static void OnChanged(object sender, int v)
        {
            changedSum += v;
            Console.WriteLine("changed -> " + v.ToString(CultureInfo.InvariantCulture));
        }

        static void OnRenamed(string n) => Console.WriteLine("renamed -> " + n);

        static int Sum(params int[] xs)
        {
            int s = 0;
            foreach (int x in xs) s += x;
            return s;
        }

        static string Join(string sep, params object[] items)
        {
            var sb = new StringBuilder();
            for (int i = 0; i < items.Length; i++)
            {
                if (i > 0) sb.Append(sep);
                sb.Append(Convert.ToString(items[i], CultureInfo.InvariantCulture));
            }
            return sb.ToString();
        }

        static string PermText(Perm p) => p.ToString();

        static int Main()
        {
            // structs
            var a = new Point(1, 2);
            var b = new Point(-3, 4);
            Point c = a + b;
            Console.WriteLine("point " + c.Show() + " manhattan " + c.Manhattan);
            Console.WriteLine("equal " + (c == new Point(-2, 6)) + " " + (a != b) + " " + a.Equals(new Point(1, 2)));

            // enums
            Perm p = Perm.Read | Perm.Exec;
            Console.WriteLine("perm " + PermText(p) + " = " + (byte)p + " hasWrite=" + p.HasFlag(Perm.Write));
            Console.WriteLine("perm all " + PermText(Perm.All) + " none " + PermText(Perm.None));
            Console.WriteLine("big " + Big.Huge + " " + (long)Big.Huge);
            Console.WriteLine("level " + Level.Low + " " + (sbyte)Level.Low + " " + (Level)1);
            Wide w = Wide.A | Wide.Top;
            Console.WriteLine("wide " + w + " " + ((ulong)w).ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("inner " + Nested.Inner.Two + " " + (short)Nested.Inner.One);
            for (Color col = Color.Red; col <= Color.Blue; col++)
                Console.WriteLine("color " + (int)col + " " + col);

            // interfaces with default methods
            IShape[] shapes = { new Circle(1.5), new Rect(2, 3.25) };
            foreach (var s in shapes) Console.WriteLine(s.Describe());

            // inheritance
            Animal[] animals = { new Dog(), new Dog("Max"), new Puppy() };
            foreach (var an in animals) Console.WriteLine(an.Speak());
            Console.WriteLine("animals created " + Animal.Created);

            // properties, events, static ctor
            var counter = new Counter();
            counter.Changed += OnChanged;
            counter.Renamed += OnRenamed;
            counter.Value = 5;
            counter.Value = 7;
            counter.Name = "ticks";
            counter.Changed -= OnChanged;
            counter.Value = 100;
            Console.WriteLine("value " + counter.Value + " name " + counter.Name + " idx " + counter[3] + " sum " + changedSum);
            Console.WriteLine("log " + string.Join(",", Counter.Log));

            // params
            Console.WriteLine("sum " + Sum() + " " + Sum(1) + " " + Sum(1, 2, 3) + " " + Sum(new[] { 10, 20 }));
            Console.WriteLine("join " + Join("|", 1, "two", 3.5, Perm.Write, 'c'));

            // nested
            Console.WriteLine(new Nested.Deeper(3).Where());
            return 0;
        }
    }
}
