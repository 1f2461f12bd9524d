// Small program built twice: with /debug:embedded (CodeView + embedded portable PDB + PDB checksum
// debug directory entries) and with /debug:portable (CodeView + PDB checksum, .pdb file next to it).
using System;

namespace Fixtures
{
    public static class DebugInfo
    {
        static int Add(int a, int b) => a + b;

        static string Greet(string who)
        {
            if (string.IsNullOrEmpty(who)) return "hello, nobody";
            return "hello, " + who;
        }

        static int Main()
        {
            Console.WriteLine(Greet("debug info"));
            Console.WriteLine(Greet(""));
            int s = 0;
            for (int i = 0; i < 5; i++) s = Add(s, i);
            Console.WriteLine("sum " + s);
            return 0;
        }
    }
}
