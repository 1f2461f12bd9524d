// The MTP side of CoverageSession. With --cil-instrument MTP runs the tests in a child test host
// that this controller starts: in files mode exec instruments the test app's folder before the
// child starts (BeforeTestHostProcessStartAsync) and puts every original back once it has exited
// (OnTestHostProcessExitedAsync); exec waits on this process's pipe, so a killed controller makes
// it restore at once, and a killed exec leaves its journal for the next run. In jit mode the child
// gets the profiler's variables and the report is made after it exits. The report is copied into
// the results directory (--results-directory) and published as a file artifact; the session's
// temporary folder is then removed.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Testing.Platform.CommandLine;
using Microsoft.Testing.Platform.Configurations;
using Microsoft.Testing.Platform.Extensions;
using Microsoft.Testing.Platform.Extensions.Messages;
using Microsoft.Testing.Platform.Extensions.OutputDevice;
using Microsoft.Testing.Platform.Extensions.TestHostControllers;
using Microsoft.Testing.Platform.Messages;
using Microsoft.Testing.Platform.OutputDevice;

namespace CilInstrument.Collector.Mtp
{
    sealed class TestHostController : ITestHostEnvironmentVariableProvider, ITestHostProcessLifetimeHandler,
                                      IDataProducer, IOutputDeviceDataProducer
    {
        // The runtimeconfig.json property the package's targets set: its own tool.
        const string ToolPathProperty = "CilInstrument.ToolPath";

        readonly ICommandLineOptions options_;
        readonly IConfiguration configuration_;
        readonly IOutputDevice output_;
        readonly IMessageBus bus_;
        readonly object lock_ = new object();
        bool prepared_;
        Settings settings_ = new Settings();
        string? error_;
        CoverageSession? session_;

        public TestHostController(ICommandLineOptions options, IConfiguration configuration, IOutputDevice output, IMessageBus bus)
        {
            options_ = options;
            configuration_ = configuration;
            output_ = output;
            bus_ = bus;
        }

        public string Uid => "CilInstrument.TestHostController";
        public string Version => typeof(TestHostController).Assembly.GetName().Version?.ToString() ?? "0";
        public string DisplayName => "cil-instrument";
        public string Description => "Coverage of the test run's own assemblies with cil-instrument";
        public Type[] DataTypesProduced => new[] { typeof(FileArtifact) };

        public Task<bool> IsEnabledAsync() => Task.FromResult(options_.IsOptionSet(CommandLineOptions.Instrument));

        public Task UpdateAsync(IEnvironmentVariables variables)
        {
            Prepare();
            if (session_ == null) return Task.CompletedTask;
            foreach (var variable in session_.TestHostVariables())
                variables.SetVariable(new EnvironmentVariable(variable.Key, variable.Value, false, true));
            return Task.CompletedTask;
        }

        public Task<ValidationResult> ValidateTestHostEnvironmentVariablesAsync(IReadOnlyEnvironmentVariables variables) =>
            ValidationResult.ValidTask;

        public async Task BeforeTestHostProcessStartAsync(CancellationToken cancellation)
        {
            Prepare();
            if (session_ == null)
            {
                await Error($"{error_}; the tests run without cil-instrument", cancellation);
                return;
            }
            string? error = settings_.Jit
                ? session_.CheckJit()
                : session_.StartExec(new[] { TestApp() });
            if (error != null) await Error(error, cancellation);
        }

        public Task OnTestHostProcessStartedAsync(ITestHostProcessInformation host, CancellationToken cancellation) => Task.CompletedTask;

        public async Task OnTestHostProcessExitedAsync(ITestHostProcessInformation host, CancellationToken cancellation)
        {
            var session = session_;
            if (session == null) return;
            session_ = null;
            try
            {
                SessionOutcome? outcome = settings_.Jit ? session.ReportJit() : session.FinishExec();
                if (outcome == null) return;
                if (outcome.Said.Length > 0)
                    await output_.DisplayAsync(this, new WarningMessageOutputDeviceData("CilInstrument: " + outcome.Said), cancellation);
                foreach (string error in outcome.Errors) await Error(error, cancellation);
                if (outcome.Report == null) return;
                // A folder of its own under the results directory, as VSTest gives each attachment.
                string folder = Path.Combine(configuration_.GetTestResultDirectory(), Guid.NewGuid().ToString("N"));
                Directory.CreateDirectory(folder);
                string report = Path.Combine(folder, Path.GetFileName(outcome.Report));
                File.Copy(outcome.Report, report, true);
                await bus_.PublishAsync(this, new FileArtifact(new FileInfo(report), "CilInstrument coverage",
                                                               "cil-instrument's coverage report of the test run"));
            }
            finally
            {
                session.RemoveOutput();
            }
        }

        // Reads the settings once, whichever of UpdateAsync and BeforeTestHostProcessStartAsync
        // MTP calls first: a session when they are valid, else error_.
        void Prepare()
        {
            lock (lock_)
            {
                if (prepared_) return;
                prepared_ = true;
                if (options_.TryGetOptionArgumentList(CommandLineOptions.SettingsFile, out string[]? file) && file != null && file.Length == 1)
                    error_ = Settings.TryReadFile(Path.GetFullPath(file[0]), out settings_);
                if (error_ == null && options_.TryGetOptionArgumentList(CommandLineOptions.Instrument, out string[]? how) && how != null && how.Length == 1)
                    error_ = settings_.SetInstrumentation(how[0]);
                string? tool = AppContext.GetData(ToolPathProperty) as string;
                if (error_ == null && string.IsNullOrEmpty(tool))
                    error_ = $"the test app's runtimeconfig.json has no {ToolPathProperty} (is CilInstrument.Collector a PackageReference of this project?)";
                if (error_ != null) return;
                // "my code" is judged from the test app's folder (bin/...), wherever it was started.
                session_ = new CoverageSession(settings_, Path.GetFullPath(tool!), settings_.SourceRootOrDefault(AppContext.BaseDirectory));
            }
        }

        // The test app: the assembly MTP's entry point is in, whose folder exec instruments.
        static string TestApp() => Assembly.GetEntryAssembly()?.Location is { Length: > 0 } location
            ? location
            : Path.Combine(AppContext.BaseDirectory, AppDomain.CurrentDomain.FriendlyName + ".dll");

        Task Error(string message, CancellationToken cancellation) =>
            output_.DisplayAsync(this, new ErrorMessageOutputDeviceData("CilInstrument: " + message), cancellation);
    }
}
