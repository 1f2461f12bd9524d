// The sample library: its tests (CountedTests) call Calc.Add 4,003 times.
namespace Counted {
  public static class Calc {
    public static int Add(int a, int b) => a + b;
  }
}
