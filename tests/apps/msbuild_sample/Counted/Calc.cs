// The sample library: its tests (CountedTests) call Calc.Add 4,003 times and never Calc.Sub, so
// coverage mode finds one line of two covered.
namespace Counted {
  public static class Calc {
    public static int Add(int a, int b) => a + b;
    public static int Sub(int a, int b) => a - b;
  }
}
