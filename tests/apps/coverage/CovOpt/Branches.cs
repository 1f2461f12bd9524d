// Issue 39's branch shapes, each run so that both outcomes of most tests happen and some do not:
// coverlet_test.sh compares every line's verdict and every line's branch outcomes with coverlet's.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

namespace Fixtures {
public static class Branches {
  // A switch on a parameter as the first statement: its dispatch is under a hidden point.
  public static string SwitchFirst(int k) {
    switch (k) {
      case 0: return "zero";
      case 1: return "one";
      case 2: return "two";
      case 3: return "three";
      default: return "many";
    }
  }

  // The `if` is reached with the ternary's value on the stack.
  public static int TernaryIf(bool a, bool b, bool c) {
    bool w = a ? b : c;
    if (!w)
      return 1;
    return 2;
  }

  // The same with no local: the `if` tests the ternary's value where its two arms join.
  public static int TernaryInIf(bool a, bool b, bool c) {
    if (a ? b : c)
      return 1;
    return 2;
  }

  // Awaits completed at once and not: their completion tests are the compiler's.
  public static async Task<int> Awaits(bool yield) {
    int n = 0;
    await Task.CompletedTask;
    if (yield)
      await Task.Yield();
    n += await Task.FromResult(2).ConfigureAwait(false);
    try {
      await Task.Delay(1);
    } catch (InvalidOperationException) {
      n = -1;
    }
    return n;
  }

  // A lambda and a local function over a closure, and a non-capturing lambda (cached in a
  // generic class), in a generic method; a lambda over several lines.
  public static List<T> Keep<T>(IEnumerable<T> items, Func<T, bool> keep) {
    var list = new List<T>();
    int seen = 0;
    void Add(T x) {
      seen++;
      list.Add(x);
    }
    foreach (T x in items.Where(v => keep(v)))
      Add(x);
    Func<T, string> show = v => v?.ToString() ?? "";
    var shown = list.Select(v =>
    {
      seen++;
      return show(v);
    }).ToList();
    Console.WriteLine(string.Join(" ", shown) + " " + seen);
    return list;
  }

  // An iterator with using and foreach.
  public static IEnumerable<int> Positives(int[] xs) {
    using (var reader = new StringReader("x")) {
      foreach (int x in xs)
        if (x > 0)
          yield return x;
    }
  }

  // using and foreach over a list in an ordinary method; a pattern with a temporary.
  public static int Sum(List<object> xs) {
    int sum = 0;
    using (var reader = new StringReader("x")) {
      foreach (object o in xs)
        if (o is int i && i > 1)
          sum += i;
    }
    return sum;
  }

  public static int Run() {
    foreach (int k in new[] { 0, 1, 7 }) Console.WriteLine(SwitchFirst(k));
    Console.WriteLine(TernaryIf(true, true, false) + TernaryIf(false, false, false));
    Console.WriteLine(TernaryInIf(true, true, false) + TernaryInIf(false, false, false));
    Console.WriteLine(Awaits(true).Result + Awaits(false).Result);
    Console.WriteLine(Keep(new[] { 1, 2, 3 }, v => v > 1).Count);
    Console.WriteLine(Keep(new[] { "a", "b" }, v => v == "a").Count);
    Console.WriteLine(Positives(new[] { 1, -1, 2 }).Sum());
    Console.WriteLine(Sum(new List<object> { 1, 2, "x", 3 }));
    IEqualityComparer<KeyValuePair<int, string>> pairs = new Pairs();
    Console.WriteLine(pairs.Equals(new(1, "a"), new(1, "b")) + " " + pairs.GetHashCode(new(2, "b")));
    return 0;
  }
}

// Explicit implementations of a generic interface: their names hold commas, and agree up to the
// first one, where genhtml's reading of an LCOV function name stops.
public sealed class Pairs : IEqualityComparer<KeyValuePair<int, string>> {
  bool IEqualityComparer<KeyValuePair<int, string>>.Equals(KeyValuePair<int, string> a, KeyValuePair<int, string> b) {
    return a.Key == b.Key;
  }

  int IEqualityComparer<KeyValuePair<int, string>>.GetHashCode(KeyValuePair<int, string> a) {
    return a.Key;
  }
}
}
