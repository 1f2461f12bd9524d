// The imported targets give the test run its counts directory and the test host's shutdown
// timeout (the test host inherits the runner's environment).
using System;
using Xunit;

public class EnvironmentTests {
  [Fact]
  public void TestRunIsConfigured() {
    Assert.False(string.IsNullOrEmpty(Environment.GetEnvironmentVariable("CIL_INSTRUMENT_OUTPUT")));
    Assert.Equal("60000", Environment.GetEnvironmentVariable("VSTEST_TESTHOST_SHUTDOWN_TIMEOUT"));
  }
}
