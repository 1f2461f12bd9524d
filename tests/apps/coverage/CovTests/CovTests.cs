// Runs the Coverage fixture's Main, as testdata/src/Coverage's own run does, so that both
// measurements see the same calls.
using Xunit;

public class CovTests {
  [Fact]
  public void MainRuns() => Assert.Equal(0, Fixtures.Cov.Main());

  [Fact]
  public void BranchesRun() => Assert.Equal(0, Fixtures.Branches.Run());
}
