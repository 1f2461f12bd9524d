// One assembly (Work.dll, next to this program) loaded into three AssemblyLoadContexts: the
// default one (1,000 calls of Work.Add), new AssemblyLoadContext("second") (3 calls) and a
// collectible "third" (2 calls), which is then unloaded. Count mode must count all 1,005 calls
// (issue 19.3 under `run`). With the argument "term" the program then sends itself SIGTERM.
using System;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Loader;
using System.Threading;

namespace Fixtures
{
    public static class LoadContexts
    {
        [DllImport("libc")]
        static extern int kill(int pid, int sig);

        static string WorkPath => Path.Combine(AppContext.BaseDirectory, "Work.dll");

        static int CallIn(AssemblyLoadContext context, int times, int s)
        {
            MethodInfo add = context.LoadFromAssemblyPath(WorkPath).GetType("Fixtures.Work").GetMethod("Add");
            for (int i = 0; i < times; i++) s = (int)add.Invoke(null, new object[] { s, 1 });
            return s;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static WeakReference Collectible(ref int s)
        {
            var third = new AssemblyLoadContext("third", isCollectible: true);
            s = CallIn(third, 2, s);
            third.Unload();
            return new WeakReference(third);
        }

        static int Main(string[] args)
        {
            int s = 0;
            for (int i = 0; i < 1000; i++) s = Work.Add(s, 1);
            s = CallIn(new AssemblyLoadContext("second"), 3, s);
            WeakReference third = Collectible(ref s);
            for (int i = 0; i < 20 && third.IsAlive; i++)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
            Console.WriteLine("calls " + s + (third.IsAlive ? "" : ", third context unloaded"));
            if (args.Length > 0 && args[0] == "term")
            {
                kill(Environment.ProcessId, 15);
                Thread.Sleep(Timeout.Infinite);
            }
            return 0;
        }
    }
}
