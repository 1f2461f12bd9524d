// 4 tests x 1,000 calls of Calc.Add, and a theory of 3 cases x 1 call: 4,003 calls per run.
using Counted;
using Xunit;

public class CalcTests {
  static int Sum(int calls) {
    int sum = 0;
    for (int i = 0; i < calls; i++) sum = Calc.Add(sum, 1);
    return sum;
  }

  [Fact] public void First() => Assert.Equal(1000, Sum(1000));
  [Fact] public void Second() => Assert.Equal(1000, Sum(1000));
  [Fact] public void Third() => Assert.Equal(1000, Sum(1000));
  [Fact] public void Fourth() => Assert.Equal(1000, Sum(1000));

  [Theory]
  [InlineData(1, 2, 3)]
  [InlineData(2, 2, 4)]
  [InlineData(-1, 1, 0)]
  public void Adds(int a, int b, int sum) => Assert.Equal(sum, Calc.Add(a, b));
}
