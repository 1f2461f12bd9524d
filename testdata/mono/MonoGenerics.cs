// .NET Framework (mcs) fixture: generic classes/structs/methods with constraints, nested types in a
// generic type, generic static constructors, generic interfaces.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace MonoFixtures
{
    public interface IKeyed
    {
        string Key { get; }
    }

    public class Named : IKeyed
    {
        private string key;
        public Named() { key = "default"; }
        public Named(string key) { this.key = key; }
        public string Key { get { return key; } }
    }

    public struct Slot<T>
    {
        public T Value;
        public bool Filled;
        public Slot(T value) { Value = value; Filled = true; }
    }

    public class Stack<T>
    {
        private readonly List<T> items = new List<T>();

        public int Count { get { return items.Count; } }

        public void Push(T item) { items.Add(item); }

        public T Pop()
        {
            T top = items[items.Count - 1];
            items.RemoveAt(items.Count - 1);
            return top;
        }

        public Slot<T> TryPeek()
        {
            return items.Count == 0 ? new Slot<T>() : new Slot<T>(items[items.Count - 1]);
        }

        public class Walker
        {
            private readonly Stack<T> owner;
            public Walker(Stack<T> owner) { this.owner = owner; }
            public string Walk()
            {
                var sb = new StringBuilder();
                for (int i = owner.items.Count - 1; i >= 0; i--) sb.Append(owner.items[i]).Append(';');
                return sb.ToString();
            }
        }
    }

    public static class Registry<T>
    {
        public static readonly List<string> Seen;
        static Registry()
        {
            Seen = new List<string>();
            Console.WriteLine("Registry cctor " + typeof(T).Name);
        }
    }

    public static class MonoGenerics
    {
        static T Largest<T>(IEnumerable<T> items) where T : IComparable<T>
        {
            bool first = true;
            T best = default(T);
            foreach (T x in items)
            {
                if (first || x.CompareTo(best) > 0) best = x;
                first = false;
            }
            return best;
        }

        static T Make<T>() where T : new() { return new T(); }

        static string Keys<T>(IEnumerable<T> items) where T : class, IKeyed
        {
            var parts = new List<string>();
            foreach (T x in items) parts.Add(x.Key);
            return string.Join(",", parts.ToArray());
        }

        static int CountDefaults<T>(T[] items) where T : struct
        {
            int n = 0;
            foreach (T x in items) if (x.Equals(default(T))) n++;
            return n;
        }

        static void Main()
        {
            var s = new Stack<int>();
            for (int i = 1; i <= 5; i++) s.Push(i * i);
            Console.WriteLine("walk " + new Stack<int>.Walker(s).Walk());
            Console.WriteLine("pop " + s.Pop() + " " + s.Pop() + " count " + s.Count);
            Slot<int> peek = s.TryPeek();
            Console.WriteLine("peek " + peek.Filled + " " + peek.Value);
            var empty = new Stack<string>();
            Console.WriteLine("empty peek " + empty.TryPeek().Filled);

            Console.WriteLine("largest " + Largest(new[] { 3, 17, 5 }) + " " + Largest(new[] { "kiwi", "apple", "pear" }) + " " + Largest(new[] { 1.5, -2.0 }).ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("make " + Make<Named>().Key + " " + Make<List<int>>().Count);
            Console.WriteLine("keys " + Keys(new[] { new Named("a"), new Named("b") }));
            Console.WriteLine("defaults " + CountDefaults(new[] { 0, 1, 0, 2 }) + " " + CountDefaults(new[] { 'x', '\0' }));

            Registry<int>.Seen.Add("one");
            Registry<string>.Seen.Add("two");
            Registry<int>.Seen.Add("three");
            Console.WriteLine("registry " + Registry<int>.Seen.Count + " " + Registry<string>.Seen.Count);

            var dict = new Dictionary<string, Stack<double>>();
            foreach (string k in new[] { "x", "y", "x" })
            {
                Stack<double> st;
                if (!dict.TryGetValue(k, out st)) dict[k] = st = new Stack<double>();
                st.Push(st.Count + 0.5);
            }
            Console.WriteLine("dict x=" + dict["x"].Count + " y=" + dict["y"].Count + " top=" + dict["x"].Pop().ToString(CultureInfo.InvariantCulture));
        }
    }
}
