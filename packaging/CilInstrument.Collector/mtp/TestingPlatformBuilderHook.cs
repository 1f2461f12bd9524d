// The entry MTP's generated code calls (the package's TestingPlatformBuilderHook item names this
// type): registers the command-line options and the test host controller extension. With the
// option absent the extension is not enabled, and MTP runs the tests in its own process as
// before.
using Microsoft.Testing.Platform.Builder;
using Microsoft.Testing.Platform.Extensions;
using Microsoft.Testing.Platform.Services;

namespace CilInstrument.Collector.Mtp
{
    public static class TestingPlatformBuilderHook
    {
        public static void AddExtensions(ITestApplicationBuilder builder, string[] _)
        {
            builder.CommandLine.AddProvider(() => new CommandLineOptions());
            // One instance is both the environment variable provider and the lifetime handler: the
            // session they share is this run's.
            var controller = new CompositeExtensionFactory<TestHostController>(services =>
                new TestHostController(services.GetCommandLineOptions(), services.GetConfiguration(),
                                       services.GetOutputDevice(), services.GetMessageBus()));
            builder.TestHostControllers.AddEnvironmentVariableProvider(controller);
            builder.TestHostControllers.AddProcessLifetimeHandler(controller);
        }
    }
}
