// Multithreading: N threads each call Tick() exactly K times (so Tick runs N*K times in total),
// plus lock/Monitor, Interlocked, a thread-static field, a ParameterizedThreadStart method and a
// Parallel.For body. All output is printed after joining, so it does not depend on scheduling.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Fixtures
{
    public sealed class Worker
    {
        public readonly int Index;
        public long LocalSum;
        public int Ticks;

        public Worker(int index) { Index = index; }
    }

    public static class Threads
    {
        public const int N = 4;
        public const int K = 2500;

        private static int shared;
        private static long lockedSum;
        private static readonly object gate = new object();
        [ThreadStatic] private static int perThread;

        static void Tick(Worker w, int i)
        {
            Interlocked.Increment(ref shared);
            perThread++;
            w.Ticks++;
            w.LocalSum += i;
            if (i % 100 == 0)
            {
                lock (gate) lockedSum += i;
            }
        }

        static void ThreadBody(object state)
        {
            var w = (Worker)state;
            for (int i = 0; i < K; i++) Tick(w, i);
            if (perThread != K) throw new InvalidOperationException("thread-static mismatch");
        }

        private static int parallelHits;

        static void ParallelBody(int i)
        {
            Interlocked.Add(ref parallelHits, i);
        }

        static int Main()
        {
            var workers = new Worker[N];
            var threads = new Thread[N];
            for (int t = 0; t < N; t++)
            {
                workers[t] = new Worker(t);
                threads[t] = new Thread(ThreadBody);
            }
            for (int t = 0; t < N; t++) threads[t].Start(workers[t]);
            for (int t = 0; t < N; t++) threads[t].Join();

            for (int t = 0; t < N; t++)
                Console.WriteLine("worker " + workers[t].Index + " ticks " + workers[t].Ticks + " sum " + workers[t].LocalSum);
            Console.WriteLine("shared " + shared + " expected " + (N * K));
            Console.WriteLine("locked " + lockedSum);
            Console.WriteLine("main thread-static " + perThread);

            Parallel.For(0, 100, ParallelBody);
            Console.WriteLine("parallel " + parallelHits);
            return shared == N * K ? 0 : 1;
        }
    }
}
