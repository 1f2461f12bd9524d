// Control flow: dense integer switch (IL `switch`), sparse switch (compare trees), string switch,
// pattern switches (type, property, relational, tuple, list patterns), goto/goto case, loops of all
// kinds, recursion, and one large method (> 256 bytes of IL) whose loop body is long enough that
// the compiler must use long branch forms next to short ones.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Fixtures
{
    public abstract class Shape { }
    public sealed class Sq : Shape { public int Side; }
    public sealed class Rc : Shape { public int W, H; }
    public sealed class Tri : Shape { public int A, B, C; }

    public class Control
    {
        static string Dense(int n)
        {
            switch (n)
            {
                case 0: return "zero";
                case 1: return "one";
                case 2: return "two";
                case 3: return "three";
                case 4: return "four";
                case 5: return "five";
                case 6: goto case 2;
                case 7: return "seven";
                default: return "many";
            }
        }

        static int Sparse(int n)
        {
            switch (n)
            {
                case -1000: return 1;
                case 7: return 2;
                case 100: return 3;
                case 1000: return 4;
                case 65536: return 5;
                case 1 << 30: return 6;
                default: return 0;
            }
        }

        static int Keyword(string s)
        {
            switch (s)
            {
                case "if": return 1;
                case "else": return 2;
                case "while": return 3;
                case "for": return 4;
                case "foreach": return 5;
                case "switch": return 6;
                case "case": return 7;
                case "default": return 8;
                case "return": return 9;
                case null: return -2;
                default: return -1;
            }
        }

        static string Describe(object o) => o switch
        {
            null => "null",
            int i when i < 0 => "negative int",
            int i and (0 or 1) => "bit " + i.ToString(CultureInfo.InvariantCulture),
            int i => "int " + i.ToString(CultureInfo.InvariantCulture),
            string { Length: 0 } => "empty string",
            string s => "string of " + s.Length.ToString(CultureInfo.InvariantCulture),
            int[] { Length: >= 2 } arr and [var first, .., var last] => "array " + first.ToString(CultureInfo.InvariantCulture) + ".." + last.ToString(CultureInfo.InvariantCulture),
            int[] => "short array",
            Sq { Side: > 10 } => "big square",
            Sq sq => "square " + sq.Side.ToString(CultureInfo.InvariantCulture),
            Rc { W: var w, H: var h } when w == h => "square-ish rect",
            Rc => "rect",
            Shape => "other shape",
            _ => "unknown " + o.GetType().Name,
        };

        static string Quadrant(int x, int y) => (x, y) switch
        {
            (0, 0) => "origin",
            (> 0, > 0) => "Q1",
            (< 0, > 0) => "Q2",
            (< 0, < 0) => "Q3",
            (> 0, < 0) => "Q4",
            _ => "axis",
        };

        static int Area(Shape s)
        {
            switch (s)
            {
                case Sq q:
                    return q.Side * q.Side;
                case Rc r when r.W == 0 || r.H == 0:
                    return 0;
                case Rc r:
                    return r.W * r.H;
                case Tri t:
                    {
                        // Heron with integers (only for checking)
                        int p2 = t.A + t.B + t.C;
                        return p2;
                    }
                default:
                    return -1;
            }
        }

        static int Fib(int n) => n < 2 ? n : Fib(n - 1) + Fib(n - 2);

        static int Gcd(int a, int b)
        {
            while (b != 0)
            {
                int t = a % b;
                a = b;
                b = t;
            }
            return a;
        }

        static int FindPair(int[,] grid, int target)
        {
            int rows = grid.GetLength(0), cols = grid.GetLength(1);
            for (int r = 0; r < rows; r++)
                for (int c = 0; c < cols; c++)
                    if (grid[r, c] == target)
                    {
                        int found = r * 100 + c;
                        goto done;
                    done:
                        return found;
                    }
            return -1;
        }

        static int DigitsSum(long n)
        {
            int s = 0;
            do
            {
                s += (int)(n % 10);
                n /= 10;
            } while (n != 0);
            return s;
        }

        // Large method: a loop whose body is far longer than 127 bytes of IL, so its back edge and
        // several forward jumps need long branch forms, while the small ifs inside use short forms.
        static long Crunch(int n)
        {
            long acc = 17;
            int evens = 0, odds = 0, threes = 0, fives = 0, big = 0;
            var sb = new StringBuilder();
            for (int i = 0; i < n; i++)
            {
                if ((i & 1) == 0) evens++; else odds++;
                if (i % 3 == 0) threes++;
                if (i % 5 == 0) fives++;
                acc = acc * 31 + i;
                acc ^= acc >> 13;
                acc = (acc & 0xFFFFFFFFFFL) + (acc >> 40);
                if (acc > 1000000000L)
                {
                    big++;
                    acc -= 999999937L;
                }
                switch (i % 4)
                {
                    case 0: acc += evens; break;
                    case 1: acc += odds * 2; break;
                    case 2: acc -= threes; break;
                    default: acc += fives * 3; break;
                }
                if (i % 7 == 0)
                {
                    sb.Append((char)('a' + (int)(acc % 26)));
                    if (sb.Length > 12) sb.Remove(0, 1);
                }
                int j = 0;
                while (j < 3)
                {
                    acc += (i * j) % 11;
                    j++;
                }
                if (acc < 0) acc = -acc;
                if (i > 1000) break;
                acc += (long)Math.Sqrt(i) + Gcd(i + 12, 18) + (i % 9 == 0 ? DigitsSum(acc) : 0);
                acc %= 1000000007L;
            }
            Console.WriteLine("crunch evens=" + evens + " odds=" + odds + " threes=" + threes + " fives=" + fives + " big=" + big + " tail=" + sb);
            return acc;
        }

        static int Main()
        {
            CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
            var sb = new StringBuilder("dense:");
            for (int i = -1; i <= 9; i++) sb.Append(' ').Append(Dense(i));
            Console.WriteLine(sb.ToString());

            sb.Clear().Append("sparse:");
            foreach (int v in new[] { -1000, 7, 8, 100, 1000, 65536, 1 << 30, 0 }) sb.Append(' ').Append(Sparse(v));
            Console.WriteLine(sb.ToString());

            sb.Clear().Append("keyword:");
            foreach (string w in new[] { "if", "else", "while", "for", "foreach", "switch", "case", "default", "return", "goto", null, "" })
                sb.Append(' ').Append(Keyword(w));
            Console.WriteLine(sb.ToString());

            object[] things = { null, -5, 0, 1, 42, "", "hello", new[] { 3, 4, 5 }, new[] { 9 }, new Sq { Side = 11 }, new Sq { Side = 2 }, new Rc { W = 3, H = 3 }, new Rc { W = 1, H = 2 }, new Tri(), 2.5 };
            foreach (var t in things) Console.WriteLine("describe " + Describe(t));

            Console.WriteLine("quadrants " + Quadrant(0, 0) + " " + Quadrant(1, 2) + " " + Quadrant(-1, 2) + " " + Quadrant(-1, -2) + " " + Quadrant(1, -2) + " " + Quadrant(0, 5));

            Shape[] shapes = { new Sq { Side = 4 }, new Rc { W = 0, H = 9 }, new Rc { W = 2, H = 3 }, new Tri { A = 3, B = 4, C = 5 } };
            foreach (var s in shapes) Console.WriteLine("area " + Area(s));
            Console.WriteLine("area null " + Area(null));

            Console.WriteLine("fib " + Fib(10));
            Console.WriteLine("gcd " + Gcd(1071, 462) + " " + Gcd(17, 5));
            var grid = new int[3, 4];
            for (int r = 0; r < 3; r++) for (int c = 0; c < 4; c++) grid[r, c] = r * 4 + c;
            Console.WriteLine("findpair " + FindPair(grid, 6) + " " + FindPair(grid, 99));
            Console.WriteLine("digits " + DigitsSum(0) + " " + DigitsSum(987654321));
            Console.WriteLine("crunch " + Crunch(50));
            Console.WriteLine("crunch " + Crunch(2000));
            return 0;
        }
    }
}
