// The load-context test's app (tests/scripts/load_context_test.sh): Work.Add 1,000 times in the
// default AssemblyLoadContext, then 3 times in a second copy of this assembly loaded into
// another context. Instrumented in count mode, the counts files together say 1,003.
using System;
using System.Reflection;
using System.Runtime.Loader;

public static class Work {
  public static int Add(int a, int b) => a + b;
}

static class Program {
  static int Main() {
    int sum = 0;
    for (int i = 0; i < 1000; i++) sum = Work.Add(sum, 1);
    var context = new AssemblyLoadContext("second");
    Assembly copy = context.LoadFromAssemblyPath(typeof(Work).Assembly.Location);
    MethodInfo add = copy.GetType("Work")!.GetMethod("Add")!;
    if (copy == typeof(Work).Assembly) throw new Exception("the second context did not load a copy");
    for (int i = 0; i < 3; i++) sum = (int)add.Invoke(null, new object[] { sum, 1 })!;
    Console.WriteLine("sum " + sum);
    return 0;
  }
}
