// Interop: P/Invoke into libc (int, string, pointer and SetLastError signatures, blittable struct by
// ref), [UnmanagedCallersOnly] methods called through `delegate* unmanaged[Cdecl]` function
// pointers both from managed code and from native code (libc qsort/bsearch calling back), static
// constructors, Marshal helpers.
using System;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Fixtures
{
    [StructLayout(LayoutKind.Sequential)]
    public struct DivResult
    {
        public int Quot;
        public int Rem;
    }

    public static unsafe class LibC
    {
        public static readonly string Tag;

        static LibC()
        {
            Tag = "libc";
            Console.WriteLine("LibC static constructor");
        }

        [DllImport("libc")]
        public static extern int abs(int x);

        [DllImport("libc")]
        public static extern long labs(long x);

        [DllImport("libc")]
        public static extern nuint strlen(string s);

        [DllImport("libc", EntryPoint = "strlen")]
        public static extern nuint StrLenPtr(byte* s);

        [DllImport("libc")]
        public static extern int strcmp(string a, string b);

        [DllImport("libc")]
        public static extern int toupper(int c);

        [DllImport("libc")]
        public static extern DivResult div(int numer, int denom);

        [DllImport("libc")]
        public static extern void* memset(void* dest, int c, nuint n);

        [DllImport("libc", SetLastError = true)]
        public static extern int close(int fd);

        [DllImport("libc")]
        public static extern void qsort(void* baseAddr, nuint count, nuint size, delegate* unmanaged[Cdecl]<void*, void*, int> compar);

        [DllImport("libc")]
        public static extern void* bsearch(void* key, void* baseAddr, nuint count, nuint size, delegate* unmanaged[Cdecl]<void*, void*, int> compar);
    }

    public static unsafe class Interop
    {
        private static int compareCalls;

        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        static int CompareInts(void* a, void* b)
        {
            compareCalls++;
            int x = *(int*)a, y = *(int*)b;
            return x < y ? -1 : x > y ? 1 : 0;
        }

        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        static int Triple(int x) => x * 3;

        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        static void Store(int* dest, int value) => *dest = value;

        static string Fmt(int[] a) => string.Join(",", a);

        static int Main()
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
            Console.WriteLine("tag " + LibC.Tag);
            Console.WriteLine("abs " + LibC.abs(-42) + " " + LibC.abs(7) + " labs " + LibC.labs(-5000000000L));
            Console.WriteLine("strlen " + LibC.strlen("hello") + " " + LibC.strlen("") + " " + LibC.strlen("h\u00e9llo"));
            byte[] bytes = Encoding.ASCII.GetBytes("pointer\0junk");
            fixed (byte* p = bytes) Console.WriteLine("strlen ptr " + LibC.StrLenPtr(p));
            Console.WriteLine("strcmp " + Math.Sign(LibC.strcmp("abc", "abd")) + " " + LibC.strcmp("same", "same") + " " + Math.Sign(LibC.strcmp("b", "a")));
            var sb = new StringBuilder();
            foreach (char c in "shout") sb.Append((char)LibC.toupper(c));
            Console.WriteLine("toupper " + sb);
            DivResult d = LibC.div(47, 5);
            Console.WriteLine("div " + d.Quot + " rem " + d.Rem);

            int* block = stackalloc int[4];
            LibC.memset(block, 0x01, 16);
            Console.WriteLine("memset " + block[0].ToString("X8", CultureInfo.InvariantCulture) + " " + block[3]);

            int rc = LibC.close(-1);
            Console.WriteLine("close " + rc + " errno " + Marshal.GetLastPInvokeError());

            // unmanaged function pointers called from managed code
            delegate* unmanaged[Cdecl]<int, int> triple = &Triple;
            Console.WriteLine("triple " + triple(14) + " " + triple(-1));
            delegate* unmanaged[Cdecl]<int*, int, void> store = &Store;
            int target = 0;
            store(&target, 99);
            Console.WriteLine("store " + target);

            // native code calling back into managed code
            int[] data = { 42, 7, 19, 3, 88, 1, 56, 23 };
            fixed (int* p = data)
            {
                LibC.qsort(p, (nuint)data.Length, sizeof(int), &CompareInts);
                Console.WriteLine("qsort " + Fmt(data) + " callbacks>0 " + (compareCalls > 0));
                int key = 56;
                int* hit = (int*)LibC.bsearch(&key, p, (nuint)data.Length, sizeof(int), &CompareInts);
                Console.WriteLine("bsearch index " + (hit == null ? -1 : (int)(hit - p)));
                key = 57;
                hit = (int*)LibC.bsearch(&key, p, (nuint)data.Length, sizeof(int), &CompareInts);
                Console.WriteLine("bsearch missing " + (hit == null));
            }

            IntPtr fp = (IntPtr)(delegate* unmanaged[Cdecl]<int, int>)&Triple;
            Console.WriteLine("fnptr nonzero " + (fp != IntPtr.Zero));
            return 0;
        }
    }
}
