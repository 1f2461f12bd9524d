// The library that dotnet_test_test.sh instruments: its tests (CountedTests) call Calc.Add.
namespace Counted {
  public static class Calc {
    public static int Add(int a, int b) => a + b;
  }
}
