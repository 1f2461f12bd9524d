// Version 1 with a method inserted before Compute, so that every later MethodDef token shifts;
// Main now calls it, and Describe(string) returns another string.
using System;

namespace Demo
{
    public static class Program
    {
        public static int Main(string[] args)
        {
            Console.WriteLine(Compute(Square(args.Length) + 3));
            Console.WriteLine(Describe(args.Length));
            Console.WriteLine(Describe("x"));
            return 0;
        }

        static int Square(int x) => x * x;

        static int Compute(int x)
        {
            int total = 0;
            for (int i = 0; i < x; i++)
                total += i * 2;
            return total;
        }

        static string Describe(int n) => n == 0 ? "none" : "some";

        static string Describe(string s) => s.Length == 0 ? "nothing" : s;
    }
}
