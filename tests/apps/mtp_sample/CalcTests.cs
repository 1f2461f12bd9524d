// 4 tests x 1,000 calls of Calc.Add, and 3 data rows x 1 call: 4,003 calls per run, as the xunit
// sample's tests make.
using Counted;
using Microsoft.VisualStudio.TestTools.UnitTesting;

[TestClass]
public class CalcTests {
  static int Sum(int calls) {
    int sum = 0;
    for (int i = 0; i < calls; i++) sum = Calc.Add(sum, 1);
    return sum;
  }

  [TestMethod] public void First() => Assert.AreEqual(1000, Sum(1000));
  [TestMethod] public void Second() => Assert.AreEqual(1000, Sum(1000));
  [TestMethod] public void Third() => Assert.AreEqual(1000, Sum(1000));
  [TestMethod] public void Fourth() => Assert.AreEqual(1000, Sum(1000));

  [TestMethod]
  [DataRow(1, 2, 3)]
  [DataRow(2, 2, 4)]
  [DataRow(-1, 1, 0)]
  public void Adds(int a, int b, int sum) => Assert.AreEqual(sum, Calc.Add(a, b));
}
