// A class library (/target:library) with public generic APIs. Not run by itself.
using System;
using System.Collections;
using System.Collections.Generic;

namespace Fixtures.Library
{
    public interface IReadOnlyRing<out T> : IEnumerable<T>
    {
        int Count { get; }
        int Capacity { get; }
        T this[int index] { get; }
    }

    /// <summary>A fixed-capacity ring buffer that overwrites its oldest element.</summary>
    public sealed class Ring<T> : IReadOnlyRing<T>
    {
        private readonly T[] items;
        private int start;

        public Ring(int capacity)
        {
            if (capacity <= 0) throw new ArgumentOutOfRangeException(nameof(capacity));
            items = new T[capacity];
        }

        public int Count { get; private set; }
        public int Capacity => items.Length;

        public T this[int index]
        {
            get
            {
                if ((uint)index >= (uint)Count) throw new ArgumentOutOfRangeException(nameof(index));
                return items[(start + index) % items.Length];
            }
        }

        public void Add(T item)
        {
            if (Count < items.Length)
            {
                items[(start + Count) % items.Length] = item;
                Count++;
            }
            else
            {
                items[start] = item;
                start = (start + 1) % items.Length;
            }
        }

        public IEnumerator<T> GetEnumerator()
        {
            for (int i = 0; i < Count; i++) yield return this[i];
        }

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }

    public readonly struct Result<T, TError>
    {
        private readonly T value;
        private readonly TError error;

        private Result(T value, TError error, bool ok)
        {
            this.value = value;
            this.error = error;
            IsOk = ok;
        }

        public bool IsOk { get; }

        public static Result<T, TError> Ok(T value) => new Result<T, TError>(value, default!, true);
        public static Result<T, TError> Fail(TError error) => new Result<T, TError>(default!, error, false);

        public Result<U, TError> Map<U>(Func<T, U> f) => IsOk ? Result<U, TError>.Ok(f(value)) : Result<U, TError>.Fail(error);

        public T ValueOr(T fallback) => IsOk ? value : fallback;

        public bool TryGetError(out TError err)
        {
            err = error;
            return !IsOk;
        }
    }

    public static class Extensions
    {
        public static TResult Fold<T, TResult>(this IEnumerable<T> source, TResult seed, Func<TResult, T, TResult> step)
        {
            TResult acc = seed;
            foreach (var x in source) acc = step(acc, x);
            return acc;
        }

        public static IEnumerable<(T Item, int Index)> Indexed<T>(this IEnumerable<T> source)
        {
            int i = 0;
            foreach (var x in source) yield return (x, i++);
        }

        public static T MaxBy<T, TKey>(this IEnumerable<T> source, Func<T, TKey> key) where TKey : IComparable<TKey>
        {
            using var e = source.GetEnumerator();
            if (!e.MoveNext()) throw new InvalidOperationException("empty");
            T best = e.Current;
            TKey bestKey = key(best);
            while (e.MoveNext())
            {
                TKey k = key(e.Current);
                if (k.CompareTo(bestKey) > 0) { best = e.Current; bestKey = k; }
            }
            return best;
        }
    }

    public class Cache<TKey, TValue> where TKey : notnull where TValue : class
    {
        private readonly Dictionary<TKey, TValue> map = new Dictionary<TKey, TValue>();
        private readonly Func<TKey, TValue> factory;

        public Cache(Func<TKey, TValue> factory) { this.factory = factory; }

        public event EventHandler<TKey>? Miss;

        public TValue Get(TKey key)
        {
            if (!map.TryGetValue(key, out var v))
            {
                Miss?.Invoke(this, key);
                v = factory(key);
                map.Add(key, v);
            }
            return v;
        }

        public class Entry
        {
            public TKey Key { get; init; } = default!;
            public TValue? Value { get; init; }
        }
    }

    public enum Mode : ushort { Off = 0, On = 1, Auto = 0x8000 }
}
