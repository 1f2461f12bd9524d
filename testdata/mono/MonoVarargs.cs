// Varargs (__arglist) for trace and count modes. CoreCLR on Linux does not support the vararg
// calling convention, so off Mono the same sums are computed without it (same output).
using System;

class MonoVarargs
{
    static int Sum(int first, __arglist)
    {
        var it = new ArgIterator(__arglist);
        int s = first;
        while (it.GetRemainingCount() > 0) s += __refvalue(it.GetNextArg(), int);
        return s;
    }

    static int SumPlain(int first, params int[] rest)
    {
        int s = first;
        foreach (int x in rest) s += x;
        return s;
    }

    // Call sites with __arglist live in their own method, which CoreCLR never compiles.
    static void WithVarargs()
    {
        Console.WriteLine("sum " + Sum(1, __arglist(2, 3, 4)));
        Console.WriteLine("sum " + Sum(10, __arglist()));
    }

    static void Main()
    {
        if (Type.GetType("Mono.Runtime") != null)
        {
            WithVarargs();
            return;
        }
        Console.WriteLine("sum " + SumPlain(1, 2, 3, 4));
        Console.WriteLine("sum " + SumPlain(10));
    }
}
