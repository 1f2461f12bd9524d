// Version 1 with one method body changed: Compute multiplies by 3.
using System;

namespace Demo
{
    public static class Program
    {
        public static int Main(string[] args)
        {
            Console.WriteLine(Compute(args.Length + 3));
            Console.WriteLine(Describe(args.Length));
            Console.WriteLine(Describe("x"));
            return 0;
        }

        static int Compute(int x)
        {
            int total = 0;
            for (int i = 0; i < x; i++)
                total += i * 3;
            return total;
        }

        static string Describe(int n) => n == 0 ? "none" : "some";

        static string Describe(string s) => s.Length == 0 ? "empty" : s;
    }
}
