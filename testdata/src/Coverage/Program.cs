// Coverage fixture: every construct coverage must attribute, with hits known from the source.
// tests/expected coverage lines: testdata/expected/Coverage.lines (written by hand).
using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Threading.Tasks;

namespace Fixtures {
public sealed class SkipMeAttribute : Attribute { }

public static class Cov {
  static int IfElse(int x) {
    if (x > 0)
      return 1;
    else
      return -1;
  }

  static int Loop(int n) {
    int sum = 0;
    for (int i = 0; i < n; i++)
      sum += i;
    return sum;
  }

  static string Switch(int k) {
    switch (k) {
      case 0: return "zero";
      case 1: return "one";
      case 2: return "two";
      default: return "many";
    }
  }

  static string Pattern(object o) => o switch {
    int i when i > 10 => "big",
    int => "int",
    string s => s,
    _ => "other",
  };

  static int NullOps(string? s) {
    int? n = s?.Length;
    return n ?? -1;
  }

  static int TryCatch(int x) {
    try {
      if (x == 0)
        throw new InvalidOperationException("zero");
      return 10 / x;
    } catch (InvalidOperationException) {
      return -1;
    } finally {
      Console.WriteLine("finally");
    }
  }

  static async Task<int> Async(int x) {
    await Task.Yield();
    return x + 1;
  }

  static IEnumerable<int> Iterator(int n) {
    for (int i = 0; i < n; i++)
      yield return i;
  }

  static int Lambdas(int x) {
    Func<int, int> twice = v => v * 2;
    int Local(int v) => v + 1;
    return Local(twice(x));
  }

  static T First<T>(T a, T b) where T : IComparable<T> {
    return a.CompareTo(b) <= 0 ? a : b;
  }

  static int Expression(int x) => x * 3;

  [ExcludeFromCodeCoverage]
  static int Excluded(int x) {
    return x + 100;
  }

  [SkipMe]
  static int Skipped(int x) {
    return x - 100;
  }

  static int Never() {
    return 42;
  }

  public static int Main() {
    Console.WriteLine(IfElse(5));
    Console.WriteLine(Loop(3));
    Console.WriteLine(Switch(1));
    Console.WriteLine(Switch(7));
    Console.WriteLine(Pattern(3));
    Console.WriteLine(NullOps(null));
    Console.WriteLine(TryCatch(0));
    Console.WriteLine(Async(1).Result);
    foreach (int i in Iterator(2)) Console.WriteLine(i);
    Console.WriteLine(Lambdas(4));
    Console.WriteLine(First(3, 2));
    Console.WriteLine(Expression(2));
    Console.WriteLine(Excluded(1) + Skipped(1));
    Console.WriteLine(Other.Twice(4));
    return 0;
  }
}
}
