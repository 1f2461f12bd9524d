// By-reference parameters the method never reads: null references, unmapped memory, and `in`,
// `out` and `ref readonly` parameters. Traced with hooks that take `args`, the output and exit
// status must stay the original's (issue 19.2): the hooks never read through a reference.
using System;
using System.Runtime.CompilerServices;

namespace ByRefFixtures
{
    static unsafe class Program
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        static int Keep(ref int r, int n) => n + 1;

        [MethodImpl(MethodImplOptions.NoInlining)]
        static int Store(ref int r, int n, bool write)
        {
            if (write) r = n;
            return n * 2;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static int Ignore(in long value, int n) => n - 1;

        [MethodImpl(MethodImplOptions.NoInlining)]
        static int Readonly(ref readonly string s, int n) => n * 3;

        [MethodImpl(MethodImplOptions.NoInlining)]
        static bool TryGet(int n, out int value)
        {
            value = n * 10;
            return n > 0;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static int Generic<T>(ref T r, int n) => n + 100;

        static int Main()
        {
            int local = 5;
            void* unmapped = (void*)0x7ff000000000;
            Console.WriteLine("Keep valid " + Keep(ref local, 1));
            Console.WriteLine("Keep null " + Keep(ref Unsafe.NullRef<int>(), 2));
            Console.WriteLine("Keep unmapped " + Keep(ref Unsafe.AsRef<int>(unmapped), 3));
            Console.WriteLine("Store valid " + Store(ref local, 4, true) + " local " + local);
            Console.WriteLine("Store null " + Store(ref Unsafe.NullRef<int>(), 5, false));
            Console.WriteLine("Store unmapped " + Store(ref Unsafe.AsRef<int>(unmapped), 6, false));
            long big = 7;
            Console.WriteLine("in valid " + Ignore(in big, 7));
            Console.WriteLine("in null " + Ignore(in Unsafe.NullRef<long>(), 8));
            Console.WriteLine("in unmapped " + Ignore(in Unsafe.AsRef<long>(unmapped), 9));
            string text = "text";
            Console.WriteLine("ref readonly valid " + Readonly(ref text, 10));
            Console.WriteLine("ref readonly null " + Readonly(ref Unsafe.NullRef<string>(), 11));
            Console.WriteLine("ref readonly unmapped " + Readonly(ref Unsafe.AsRef<string>(unmapped), 12));
            Console.WriteLine("out valid " + TryGet(13, out int got) + " " + got);
            Console.WriteLine("generic null " + Generic(ref Unsafe.NullRef<decimal>(), 14));
            Console.WriteLine("generic unmapped " + Generic(ref Unsafe.AsRef<Guid>(unmapped), 15));
            return 7;
        }
    }
}
