// The options: --cil-instrument [files|jit] turns the extension on (files, the default: the
// run's own assemblies instrumented in place and put back; jit: through the profiler, no file
// changed), --cil-instrument-settings FILE gives the rest as the VSTest collector's runsettings
// Configuration does.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Microsoft.Testing.Platform.CommandLine;
using Microsoft.Testing.Platform.Extensions;
using Microsoft.Testing.Platform.Extensions.CommandLine;

namespace CilInstrument.Collector.Mtp
{
    sealed class CommandLineOptions : ICommandLineOptionsProvider
    {
        public const string Instrument = "cil-instrument";
        public const string SettingsFile = "cil-instrument-settings";

        public string Uid => "CilInstrument.CommandLineOptions";
        public string Version => typeof(CommandLineOptions).Assembly.GetName().Version?.ToString() ?? "0";
        public string DisplayName => "cil-instrument";
        public string Description => "Coverage of the test run's own assemblies with cil-instrument";

        public Task<bool> IsEnabledAsync() => Task.FromResult(true);

        public IReadOnlyCollection<CommandLineOption> GetCommandLineOptions() => new[]
        {
            new CommandLineOption(Instrument,
                "Coverage with cil-instrument: 'files' (the default) instruments the run's own assemblies in place and puts them back, " +
                "'jit' covers at JIT time through the profiler; the report goes to the results directory",
                ArgumentArity.ZeroOrOne, false),
            new CommandLineOption(SettingsFile,
                "A runsettings file whose CilInstrument data collector Configuration sets the mode, format, assemblies and threshold",
                ArgumentArity.ExactlyOne, false),
        };

        public Task<ValidationResult> ValidateOptionArgumentsAsync(CommandLineOption option, string[] arguments)
        {
            if (option.Name == Instrument && arguments.Length == 1 && arguments[0] != "files" && arguments[0] != "jit")
                return ValidationResult.InvalidTask($"--{Instrument} '{arguments[0]}' is not files or jit");
            return ValidationResult.ValidTask;
        }

        public Task<ValidationResult> ValidateCommandLineOptionsAsync(ICommandLineOptions options)
        {
            if (options.IsOptionSet(SettingsFile) && !options.IsOptionSet(Instrument))
                return ValidationResult.InvalidTask($"--{SettingsFile} goes with --{Instrument}");
            return ValidationResult.ValidTask;
        }
    }
}
