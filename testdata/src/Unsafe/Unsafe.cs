// Unsafe code and by-ref features: stackalloc (to pointers and to Span), fixed statements on
// strings/arrays/fields, pointer arithmetic, fixed-size buffers, explicit-layout unions, ref
// returns, ref locals, ref readonly, in parameters, ref structs (Span<T>, ReadOnlySpan<T> and a
// custom ref struct passed by value and by ref), managed function pointers (delegate*).
using System;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;

namespace Fixtures
{
    [StructLayout(LayoutKind.Explicit)]
    public struct Union
    {
        [FieldOffset(0)] public long Whole;
        [FieldOffset(0)] public int Low;
        [FieldOffset(4)] public int High;
        [FieldOffset(0)] public double Real;
    }

    public unsafe struct Buffer16
    {
        public fixed byte Data[16];
        public int Length;

        public void Put(byte b)
        {
            Data[Length++] = b;
        }

        public int Sum()
        {
            int s = 0;
            fixed (byte* p = Data)
            {
                for (byte* q = p; q < p + Length; q++) s += *q;
            }
            return s;
        }
    }

    public ref struct Cursor
    {
        private readonly Span<byte> buffer;
        private int position;

        public Cursor(Span<byte> buffer)
        {
            this.buffer = buffer;
            position = 0;
        }

        public int Position => position;

        public bool TryWrite(byte b)
        {
            if (position >= buffer.Length) return false;
            buffer[position++] = b;
            return true;
        }

        public ref byte At(int i) => ref buffer[i];
    }

    public struct Vec3
    {
        public double X, Y, Z;
        public Vec3(double x, double y, double z) { X = x; Y = y; Z = z; }
    }

    public class Unsafe
    {
        private static int[] table = { 5, 8, 13, 21, 34 };

        static ref int FindRef(int[] arr, int value)
        {
            for (int i = 0; i < arr.Length; i++)
                if (arr[i] == value) return ref arr[i];
            throw new ArgumentException("not found");
        }

        static ref readonly int Largest(int[] arr)
        {
            int best = 0;
            for (int i = 1; i < arr.Length; i++) if (arr[i] > arr[best]) best = i;
            return ref arr[best];
        }

        static double Dot(in Vec3 a, in Vec3 b) => a.X * b.X + a.Y * b.Y + a.Z * b.Z;

        static void Scale(ref Vec3 v, double k)
        {
            v.X *= k;
            v.Y *= k;
            v.Z *= k;
        }

        static int SumSpan(ReadOnlySpan<int> span)
        {
            int s = 0;
            foreach (int x in span) s += x;
            return s;
        }

        static void FillSpan(Span<int> span, int start)
        {
            for (int i = 0; i < span.Length; i++) span[i] = start + i;
        }

        static int WriteAll(ref Cursor c, string text)
        {
            int n = 0;
            foreach (char ch in text)
            {
                if (!c.TryWrite((byte)ch)) break;
                n++;
            }
            return n;
        }

        static int Peek(Cursor c, int i) => c.At(i);

        static unsafe int StackSum(int n)
        {
            int* p = stackalloc int[n];
            for (int i = 0; i < n; i++) p[i] = i * i;
            int s = 0;
            for (int* q = p; q < p + n; q++) s += *q;
            return s;
        }

        static unsafe int CountChar(string s, char c)
        {
            int n = 0;
            fixed (char* p = s)
            {
                for (char* q = p; *q != '\0'; q++) if (*q == c) n++;
            }
            return n;
        }

        static unsafe void Reverse(int[] arr)
        {
            fixed (int* p = arr)
            {
                int* lo = p, hi = p + arr.Length - 1;
                while (lo < hi)
                {
                    int t = *lo;
                    *lo++ = *hi;
                    *hi-- = t;
                }
            }
        }

        static int Square(int x) => x * x;

        static int Negate(int x) => -x;

        static unsafe int ApplyTwice(delegate*<int, int> f, int x) => f(f(x));

        static unsafe int Main()
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;

            // ref returns and ref locals
            ref int slot = ref FindRef(table, 13);
            slot = 130;
            ref int other = ref FindRef(table, 21);
            other += 1;
            Console.WriteLine("table " + string.Join(",", table) + " largest " + Largest(table));
            ref readonly int big = ref Largest(table);
            Console.WriteLine("big " + big);
            try { FindRef(table, 999); } catch (ArgumentException e) { Console.WriteLine("findref: " + e.Message); }

            var v = new Vec3(1, 2, 3);
            var w = new Vec3(4, -5, 6);
            Scale(ref v, 0.5);
            Console.WriteLine("dot " + Dot(v, w).ToString("R", CultureInfo.InvariantCulture) + " v=" + v.X + "," + v.Y + "," + v.Z);

            // spans and stackalloc
            Span<int> span = stackalloc int[6];
            FillSpan(span, 10);
            Console.WriteLine("span sum " + SumSpan(span) + " slice " + SumSpan(span.Slice(2, 3)));
            int[] heap = { 1, 2, 3, 4 };
            FillSpan(heap.AsSpan(1), 100);
            Console.WriteLine("heap " + string.Join(",", heap) + " sum " + SumSpan(heap));
            Console.WriteLine("stacksum " + StackSum(10) + " " + StackSum(1));

            // custom ref struct
            Span<byte> raw = stackalloc byte[5];
            var cursor = new Cursor(raw);
            int written = WriteAll(ref cursor, "HELLO WORLD");
            cursor.At(0) = (byte)'J';
            Console.WriteLine("cursor written " + written + " pos " + cursor.Position + " text " + Encoding.ASCII.GetString(raw) + " peek " + Peek(cursor, 1));

            // pointers and fixed
            Console.WriteLine("countchar " + CountChar("mississippi", 's') + " " + CountChar("", 'x'));
            int[] rev = { 1, 2, 3, 4, 5 };
            Reverse(rev);
            Console.WriteLine("reverse " + string.Join(",", rev));
            var buf = new Buffer16();
            for (byte b = 1; b <= 10; b++) buf.Put(b);
            Console.WriteLine("buffer len " + buf.Length + " sum " + buf.Sum() + " sizeof " + sizeof(Buffer16));

            var u = new Union { Whole = 0x0000000200000001L };
            Console.WriteLine("union low " + u.Low + " high " + u.High);
            u.Real = 1.0;
            Console.WriteLine("union bits " + u.Whole.ToString("X16", CultureInfo.InvariantCulture));

            long value = 0x1122334455667788L;
            byte* bp = (byte*)&value;
            var sb = new StringBuilder();
            for (int i = 0; i < 8; i++) sb.Append(bp[i].ToString("X2", CultureInfo.InvariantCulture));
            Console.WriteLine("bytes " + sb + " little-endian " + BitConverter.IsLittleEndian);

            // managed function pointers
            delegate*<int, int> sq = &Square;
            delegate*<int, int> neg = &Negate;
            Console.WriteLine("fnptr " + sq(9) + " " + ApplyTwice(sq, 3) + " " + ApplyTwice(neg, 5) + " " + (sq != null));
            return 0;
        }
    }
}
