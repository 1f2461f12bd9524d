// CpuBound: a CPU-bound program for the profiler's wall-time benchmark: many calls of small
// methods (a pseudo-random generator, a primality test, virtual calls on a few shapes, a
// struct method), so that a per-call probe shows. The first argument scales the work
// (default 20000: a fraction of a second); the output depends only on it.
using System;
using System.Globalization;

namespace Fixtures
{
    public abstract class Body
    {
        public abstract long Weight(long x);
    }

    public sealed class Light : Body
    {
        public override long Weight(long x) => x & 7;
    }

    public sealed class Heavy : Body
    {
        public override long Weight(long x) => (x & 15) * 3;
    }

    public struct Accumulator
    {
        public long Total;
        public void Add(long value) { Total += value; }
    }

    public static class CpuBound
    {
        static uint Next(uint state) => state * 1664525u + 1013904223u;

        static bool IsPrime(int n)
        {
            if (n < 2) return false;
            for (int d = 2; d * d <= n; d++)
                if (n % d == 0) return false;
            return true;
        }

        static int Digits(int n) => n < 10 ? 1 : 1 + Digits(n / 10);

        public static int Main(string[] args)
        {
            int rounds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 20000;
            Body[] bodies = { new Light(), new Heavy(), new Light() };
            var acc = new Accumulator();
            uint state = 1;
            int primes = 0;
            for (int i = 0; i < rounds; i++)
            {
                state = Next(state);
                int candidate = (int)(state % 100000u);
                if (IsPrime(candidate)) primes++;
                acc.Add(bodies[i % bodies.Length].Weight(state) + Digits(candidate));
            }
            Console.WriteLine("rounds " + rounds.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("primes " + primes.ToString(CultureInfo.InvariantCulture));
            Console.WriteLine("total " + acc.Total.ToString(CultureInfo.InvariantCulture));
            return 0;
        }
    }
}
