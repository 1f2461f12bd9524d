// `dotnet test --collect "CilInstrument"`: before the test host starts, `cil-instrument exec`
// instruments the folders of the run's test assemblies in place and then waits on a command that
// reads this collector's pipe; when the session ends the pipe is closed, exec puts every original
// back and writes the report, which is attached to the run's results. A killed collector closes
// the pipe too, so exec restores; a killed exec leaves its journal, which the next exec restores.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Xml;
using Microsoft.VisualStudio.TestPlatform.ObjectModel;
using Microsoft.VisualStudio.TestPlatform.ObjectModel.DataCollection;

namespace CilInstrument.Collector
{
    [DataCollectorFriendlyName("CilInstrument")]
    [DataCollectorTypeUri("datacollector://cil-instrument/collector/1.0")]
    public sealed class CilInstrumentCollector : DataCollector, ITestExecutionEnvironmentSpecifier
    {
        // The line the waiting command prints once exec has instrumented everything.
        const string ReadyLine = "cil-instrument-collector-ready";
        static readonly TimeSpan InstrumentTimeout = TimeSpan.FromMinutes(10);

        DataCollectionEvents? events_;
        DataCollectionSink? sink_;
        DataCollectionLogger? logger_;
        DataCollectionContext? context_;
        Settings settings_ = new Settings();
        string? settingsError_;
        string output_ = "";
        Process? exec_;
        readonly StringBuilder execOutput_ = new StringBuilder();

        public override void Initialize(XmlElement? configurationElement, DataCollectionEvents events, DataCollectionSink dataSink,
                                        DataCollectionLogger logger, DataCollectionEnvironmentContext? environmentContext)
        {
            events_ = events;
            sink_ = dataSink;
            logger_ = logger;
            context_ = environmentContext?.SessionDataCollectionContext;
            settingsError_ = Settings.TryRead(configurationElement, out settings_);
            output_ = Path.Combine(Path.GetTempPath(), "cil-instrument-collector-" + Guid.NewGuid().ToString("N"));
            events.SessionStart += OnSessionStart;
            events.SessionEnd += OnSessionEnd;
        }

        public IEnumerable<KeyValuePair<string, string>> GetTestExecutionEnvironmentVariables()
        {
            // Asked for before the session starts: the folder is the run's whether or not the
            // instrumentation then succeeds (an uninstrumented run writes nothing there).
            if (settingsError_ != null) return Enumerable.Empty<KeyValuePair<string, string>>();
            return new[] { new KeyValuePair<string, string>("CIL_INSTRUMENT_OUTPUT", output_) };
        }

        void OnSessionStart(object? sender, SessionStartEventArgs e)
        {
            if (settingsError_ != null)
            {
                Error($"{settingsError_}; the tests run without cil-instrument");
                return;
            }
            var sources = e.GetPropertyValue<IEnumerable<string>>("TestSources")?.ToList() ?? new List<string>();
            var folders = sources.Select(s => Path.GetDirectoryName(Path.GetFullPath(s))!).Distinct().ToList();
            if (folders.Count == 0)
            {
                Error("the test run names no test assembly; nothing instrumented");
                return;
            }
            string tool = ToolPath();
            if (!File.Exists(tool))
            {
                Error($"{tool}: the tool is missing from the package; the tests run without cil-instrument");
                return;
            }
            Directory.CreateDirectory(output_);
            var start = new ProcessStartInfo(tool)
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            foreach (var argument in settings_.ExecArguments(output_, sources)) start.ArgumentList.Add(argument);
            foreach (var folder in folders) start.ArgumentList.Add(folder);
            start.ArgumentList.Add("--");
            start.ArgumentList.Add("/bin/sh");
            start.ArgumentList.Add("-c");
            // Prints the ready line, then waits for the end of its input: this collector's pipe.
            start.ArgumentList.Add($"echo {ReadyLine}; exec cat > /dev/null");
            var ready = new ManualResetEventSlim();
            var exec = new Process { StartInfo = start };
            exec.OutputDataReceived += (_, line) =>
            {
                if (line.Data == null) { ready.Set(); return; }
                if (line.Data == ReadyLine) { ready.Set(); return; }
                lock (execOutput_) execOutput_.AppendLine(line.Data);
            };
            exec.ErrorDataReceived += (_, line) => { if (line.Data != null) lock (execOutput_) execOutput_.AppendLine(line.Data); };
            exec.Start();
            exec.BeginOutputReadLine();
            exec.BeginErrorReadLine();
            if (!ready.Wait(InstrumentTimeout) || exec.HasExited)
            {
                exec.WaitForExit(10000);
                Error($"cil-instrument exec did not instrument the test folders: {ExecOutput()}");
                return;
            }
            exec_ = exec;
        }

        void OnSessionEnd(object? sender, SessionEndEventArgs e)
        {
            var exec = exec_;
            if (exec == null) return;
            exec_ = null;
            exec.StandardInput.Close();
            exec.WaitForExit();
            string said = ExecOutput();
            if (said.Length > 0) logger_!.LogWarning(e.Context, "CilInstrument: " + said);
            if (exec.ExitCode == 6)
                Error($"coverage is under the threshold of {settings_.Threshold}% (cil-instrument exec's exit status 6)");
            else if (exec.ExitCode != 0)
                Error($"cil-instrument exec ended with status {exec.ExitCode}");
            string report = Path.Combine(output_, settings_.ReportFileName);
            if (settings_.ReportFileName.Length > 0 && File.Exists(report))
                sink_!.SendFileAsync(e.Context, report, false);
        }

        string ExecOutput()
        {
            lock (execOutput_) return execOutput_.ToString().Trim();
        }

        void Error(string message) => logger_!.LogError(context_!, "CilInstrument: " + message);

        // The tool of this package: tools/RID/cil-instrument beside the collector's build/ folder.
        static string ToolPath()
        {
            string here = Path.GetDirectoryName(typeof(CilInstrumentCollector).Assembly.Location)!;
            return Path.GetFullPath(Path.Combine(here, "..", "tools", "linux-x64", "cil-instrument"));
        }
    }
}
