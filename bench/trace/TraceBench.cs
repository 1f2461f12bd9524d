// The method whose per-call cost trace mode adds to: timed in a loop, best of several rounds.
using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace TraceBench
{
    public static class Target
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static int Add(int a, int b) => a + b;
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            int calls = args.Length > 0 ? int.Parse(args[0]) : 20_000_000;
            double best = double.MaxValue;
            int sink = 0;
            for (int round = 0; round < 7; round++)
            {
                var watch = Stopwatch.StartNew();
                for (int i = 0; i < calls; i++) sink += Target.Add(i, round);
                watch.Stop();
                best = Math.Min(best, watch.Elapsed.TotalMilliseconds * 1e6 / calls);
            }
            Console.WriteLine(best.ToString("F2", System.Globalization.CultureInfo.InvariantCulture) + " ns/call (checksum " + (sink & 0xFF) + ")");
            return 0;
        }
    }
}
