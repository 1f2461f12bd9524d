// Generics: generic classes/structs/interfaces, generic methods, constraints (class, struct,
// new(), interface, unmanaged, base class), nested types inside generic types, generic static
// constructors (one per instantiation), generic virtual methods, variance, ref generic params.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Fixtures
{
    public interface IHasId
    {
        int Id { get; }
    }

    public class Item : IHasId
    {
        public int Id { get; set; }
        public string Label { get; set; } = "";
        public Item() { }
        public Item(int id, string label) { Id = id; Label = label; }
    }

    public struct Pair<TFirst, TSecond>
    {
        public TFirst First;
        public TSecond Second;
        public Pair(TFirst f, TSecond s) { First = f; Second = s; }
        public Pair<TSecond, TFirst> Swap() => new Pair<TSecond, TFirst>(Second, First);
        public string Show() => "<" + Generics.Fmt(First) + "," + Generics.Fmt(Second) + ">";
    }

    public class Box<T>
    {
        private T value;

        public Box(T value) { this.value = value; }

        public T Get() => value;

        public void Set(T v) { value = v; }

        public Box<U> Map<U>(Func<T, U> f) => new Box<U>(f(value));

        public class Inner
        {
            public string Describe(Box<T> b) => "Inner<" + typeof(T).Name + "> holds " + Generics.Fmt(b.Get());
        }

        public class Tagged<TTag>
        {
            public readonly T Value;
            public readonly TTag Tag;
            public Tagged(T v, TTag t) { Value = v; Tag = t; }
            public string Show() => Generics.Fmt(Tag) + ":" + Generics.Fmt(Value);
        }
    }

    public static class TypeName<T>
    {
        public static readonly string Name;

        static TypeName()
        {
            Name = typeof(T).Name;
            Console.WriteLine("TypeName cctor for " + Name);
        }
    }

    public class Repo<TKey, TValue>
        where TKey : notnull, IComparable<TKey>
        where TValue : class, IHasId, new()
    {
        private readonly SortedDictionary<TKey, TValue> items = new SortedDictionary<TKey, TValue>();

        public TValue GetOrCreate(TKey key)
        {
            if (!items.TryGetValue(key, out var v))
            {
                v = new TValue();
                items[key] = v;
            }
            return v;
        }

        public int Count => items.Count;

        public IEnumerable<TKey> Keys => items.Keys;
    }

    public interface IProducer<out T>
    {
        T Produce();
    }

    public interface IConsumer<in T>
    {
        string Consume(T value);
    }

    public sealed class StringProducer : IProducer<string>, IConsumer<object>
    {
        private int n;
        public string Produce() => "s" + (n++).ToString(CultureInfo.InvariantCulture);
        public string Consume(object value) => "consumed " + value;
    }

    public abstract class Visitor
    {
        public abstract string Visit<T>(T item);
    }

    public sealed class ShowVisitor : Visitor
    {
        public override string Visit<T>(T item) => typeof(T).Name + "=" + Generics.Fmt(item);
    }

    public static class Algo
    {
        public static T Max<T>(T a, T b) where T : IComparable<T> => a.CompareTo(b) >= 0 ? a : b;

        public static T Create<T>() where T : new() => new T();

        public static int CountNonNull<T>(T[] items) where T : class
        {
            int n = 0;
            foreach (var it in items) if (it != null) n++;
            return n;
        }

        public static T? FirstPositive<T>(T[] items, Func<T, bool> positive) where T : struct
        {
            foreach (var it in items) if (positive(it)) return it;
            return null;
        }

        public static unsafe int SizeOf<T>() where T : unmanaged => sizeof(T);

        public static unsafe T ReadAt<T>(byte[] data, int offset) where T : unmanaged
        {
            fixed (byte* p = &data[offset]) return *(T*)p;
        }

        public static int SumIds<T>(IEnumerable<T> items) where T : IHasId
        {
            int s = 0;
            foreach (var it in items) s += it.Id;
            return s;
        }

        public static void Swap<T>(ref T a, ref T b)
        {
            T t = a;
            a = b;
            b = t;
        }

        public static TBase Upcast<TBase, TDerived>(TDerived d) where TDerived : TBase => d;
    }

    public class Generics
    {
        public static string Fmt<T>(T v) => v is IFormattable f ? f.ToString(null, CultureInfo.InvariantCulture) : (v?.ToString() ?? "null");

        static int Main()
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;

            var bi = new Box<int>(41);
            bi.Set(bi.Get() + 1);
            var bs = bi.Map(x => "n" + x.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("box " + bi.Get() + " " + bs.Get());
            Console.WriteLine(new Box<int>.Inner().Describe(bi));
            Console.WriteLine(new Box<string>.Inner().Describe(bs));
            Console.WriteLine(new Box<double>.Tagged<string>(2.5, "half").Show());

            var p = new Pair<int, string>(7, "seven");
            Console.WriteLine("pair " + p.Show() + " swapped " + p.Swap().Show());

            Console.WriteLine("names " + TypeName<int>.Name + " " + TypeName<string>.Name + " " + TypeName<int>.Name + " " + TypeName<List<int>>.Name);

            Console.WriteLine("max " + Algo.Max(3, 9) + " " + Algo.Max("pear", "apple") + " " + Algo.Max(2.5, -1.0));
            var created = Algo.Create<Item>();
            created.Id = 5;
            Console.WriteLine("create " + created.Id + " " + Algo.Create<StringBuilder>().Append("sb").ToString());
            Console.WriteLine("nonnull " + Algo.CountNonNull(new[] { "a", null, "b", null, "c" }));
            Console.WriteLine("firstpos " + Algo.FirstPositive(new[] { -2, 0, 4, 5 }, x => x > 0) + " " + (Algo.FirstPositive(new[] { -1L }, x => x > 0).HasValue ? "some" : "none"));
            Console.WriteLine("sizeof " + Algo.SizeOf<byte>() + " " + Algo.SizeOf<long>() + " " + Algo.SizeOf<Pair<int, long>>() + " " + Algo.SizeOf<decimal>());
            var bytes = new byte[] { 1, 0, 0, 0, 2, 0, 0, 0, 0xFF, 0xFF };
            Console.WriteLine("readat " + Algo.ReadAt<int>(bytes, 0) + " " + Algo.ReadAt<long>(bytes, 0) + " " + Algo.ReadAt<short>(bytes, 8));

            var items = new List<Item> { new Item(1, "one"), new Item(2, "two"), new Item(30, "thirty") };
            Console.WriteLine("sumids " + Algo.SumIds(items));

            int x1 = 1, x2 = 2;
            Algo.Swap(ref x1, ref x2);
            string s1 = "L", s2 = "R";
            Algo.Swap(ref s1, ref s2);
            Console.WriteLine("swap " + x1 + x2 + " " + s1 + s2);

            var repo = new Repo<string, Item>();
            repo.GetOrCreate("b").Id = 2;
            repo.GetOrCreate("a").Id = 1;
            repo.GetOrCreate("b").Id += 10;
            Console.WriteLine("repo " + repo.Count + " keys " + string.Join(",", repo.Keys) + " b=" + repo.GetOrCreate("b").Id);

            var sp = new StringProducer();
            IProducer<object> prod = sp;       // covariance
            IConsumer<string> cons = sp;       // contravariance
            Console.WriteLine("variance " + prod.Produce() + " " + prod.Produce() + " " + cons.Consume("x"));

            Visitor v = new ShowVisitor();
            Console.WriteLine("visit " + v.Visit(12) + " " + v.Visit("str") + " " + v.Visit(new Pair<byte, bool>(1, true).Show()));
            object up = Algo.Upcast<object, string>("up");
            Console.WriteLine("upcast " + up);

            var dict = new Dictionary<string, List<Pair<int, int>>>();
            for (int i = 0; i < 6; i++)
            {
                string key = (i % 2 == 0) ? "even" : "odd";
                if (!dict.TryGetValue(key, out var list)) dict[key] = list = new List<Pair<int, int>>();
                list.Add(new Pair<int, int>(i, i * i));
            }
            foreach (var key in new[] { "even", "odd" })
            {
                var sb = new StringBuilder(key).Append(':');
                foreach (var pr in dict[key]) sb.Append(' ').Append(pr.Show());
                Console.WriteLine(sb.ToString());
            }
            return 0;
        }
    }
}
