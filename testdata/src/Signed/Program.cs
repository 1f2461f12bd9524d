// A strong-named program (signed with testdata/keys/*.snk) for instrument --key: it prints its
// own strong name and the result of a little work, so a re-signed copy must print the same.
using System;
using System.Reflection;

public static class Program
{
    static int Square(int x) => x * x;

    static int Sum(int n)
    {
        int total = 0;
        for (int i = 1; i <= n; i++)
        {
            try { total += Square(i); }
            finally { total += 0; }
        }
        return total;
    }

    public static int Main()
    {
        AssemblyName name = typeof(Program).Assembly.GetName();
        byte[] token = name.GetPublicKeyToken() ?? new byte[0];
        Console.WriteLine("{0} token {1}", name.Name, BitConverter.ToString(token));
        Console.WriteLine("sum {0}", Sum(10));
        return 7;
    }
}
