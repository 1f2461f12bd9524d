// `dotnet test --collect "CilInstrument"`: before the test host starts, `cil-instrument exec`
// instruments the folders of the run's test assemblies in place and then waits on a command that
// reads this collector's pipe; when the session ends the pipe is closed, exec puts every original
// back and writes the report, which is attached to the run's results. A killed collector closes
// the pipe too, so exec restores; a killed exec leaves its journal, which the next exec restores.
// With Instrumentation jit, no file is changed: the test host gets the profiler's variables
// (coverage at JIT time, the "my code" source root), and once it has ended `cil-instrument
// report` turns its hits file into the report that is attached.
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
        // The profiler's COM class id (runtime_contract.h's kClsidText).
        const string ProfilerClsid = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6410}";
        static readonly TimeSpan InstrumentTimeout = TimeSpan.FromMinutes(10);

        DataCollectionEvents? events_;
        DataCollectionSink? sink_;
        DataCollectionLogger? logger_;
        DataCollectionContext? context_;
        Settings settings_ = new Settings();
        string? settingsError_;
        string output_ = "";
        Process? exec_;
        readonly List<int> testHosts_ = new List<int>();
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
            events.TestHostLaunched += (_, e) => { lock (testHosts_) testHosts_.Add(e.TestHostProcessId); };
            events.SessionEnd += OnSessionEnd;
        }

        public IEnumerable<KeyValuePair<string, string>> GetTestExecutionEnvironmentVariables()
        {
            // Asked for before the session starts: the folder is the run's whether or not the
            // instrumentation then succeeds (an uninstrumented run writes nothing there).
            if (settingsError_ != null) return Enumerable.Empty<KeyValuePair<string, string>>();
            var variables = new List<KeyValuePair<string, string>> { new("CIL_INSTRUMENT_OUTPUT", output_) };
            if (!settings_.Jit) return variables;
            // JIT mode: the test host loads the profiler of this package; the report is made once
            // it has ended (OnSessionEnd).
            string profiler = Path.Combine(Path.GetDirectoryName(ToolPath())!, "libcilprofiler.so");
            if (!File.Exists(profiler)) return variables;  // OnSessionStart says so
            Directory.CreateDirectory(output_);
            variables.Add(new("CORECLR_ENABLE_PROFILING", "1"));
            variables.Add(new("CORECLR_PROFILER", ProfilerClsid));
            variables.Add(new("CORECLR_PROFILER_PATH", profiler));
            variables.Add(new("CIL_INSTRUMENT_MODE", "coverage"));
            if (settings_.HitCounts) variables.Add(new("CIL_INSTRUMENT_HIT_COUNTS", "1"));
            if (settings_.Include.Count > 0) variables.Add(new("CIL_INSTRUMENT_INCLUDE", string.Join(";", settings_.Include)));
            if (settings_.Exclude.Count > 0) variables.Add(new("CIL_INSTRUMENT_EXCLUDE", string.Join(";", settings_.Exclude)));
            if (settings_.Assemblies.Count > 0) variables.Add(new("CIL_INSTRUMENT_ASSEMBLIES", string.Join(";", settings_.Assemblies)));
            else variables.Add(new("CIL_INSTRUMENT_SOURCE_ROOT", settings_.SourceRootOrDefault()));
            return variables;
        }

        void OnSessionStart(object? sender, SessionStartEventArgs e)
        {
            if (settingsError_ != null)
            {
                Error($"{settingsError_}; the tests run without cil-instrument");
                return;
            }
            if (settings_.Jit)
            {
                string profiler = Path.Combine(Path.GetDirectoryName(ToolPath())!, "libcilprofiler.so");
                if (!File.Exists(profiler)) Error($"{profiler}: the profiler is missing from the package; the tests run without cil-instrument");
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
            // exec judges "my code" by the same root as JIT mode (its own default, the working
            // directory, is the test project's folder here).
            start.Environment["CIL_INSTRUMENT_SOURCE_ROOT"] = settings_.SourceRootOrDefault();
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
            if (settings_.Jit && settingsError_ == null)
            {
                ReportJit(e);
                return;
            }
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

        // JIT mode: the profiler writes its hits file when the test host ends, so the report waits
        // for each test host this session launched to exit (VSTest ends them; the wait is capped
        // only so that a host that never ends cannot hang the run), then reads the hits files.
        void ReportJit(SessionEndEventArgs e)
        {
            List<int> hosts;
            lock (testHosts_) hosts = testHosts_.ToList();
            foreach (int pid in hosts)
            {
                try { using var host = Process.GetProcessById(pid); host.WaitForExit((int)InstrumentTimeout.TotalMilliseconds); }
                catch (ArgumentException) { }  // ended already
                catch (InvalidOperationException) { }
            }
            var hits = Directory.Exists(output_)
                ? Directory.GetFiles(output_, "*.hits.json").Concat(Directory.GetFiles(output_, "*.hits.live")).OrderBy(f => f, StringComparer.Ordinal).ToList()
                : new List<string>();
            if (hits.Count == 0)
            {
                Error($"the test host wrote no hits file in {output_}: nothing was covered at JIT time");
                return;
            }
            string tool = ToolPath();
            var start = new ProcessStartInfo(tool) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var argument in settings_.ReportArguments(output_)) start.ArgumentList.Add(argument);
            foreach (var hitsFile in hits) start.ArgumentList.Add(hitsFile);
            using var report = Process.Start(start)!;
            var errors = report.StandardError.ReadToEndAsync();
            string said = (report.StandardOutput.ReadToEnd() + errors.Result).Trim();
            report.WaitForExit();
            if (said.Length > 0) logger_!.LogWarning(e.Context, "CilInstrument: " + said);
            if (report.ExitCode == 6)
                Error($"coverage is under the threshold of {settings_.Threshold}% (cil-instrument report's exit status 6)");
            else if (report.ExitCode != 0)
                Error($"cil-instrument report ended with status {report.ExitCode}");
            string file = Path.Combine(output_, settings_.ReportFileName);
            if (settings_.ReportFileName.Length > 0 && File.Exists(file))
                sink_!.SendFileAsync(e.Context, file, false);
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
