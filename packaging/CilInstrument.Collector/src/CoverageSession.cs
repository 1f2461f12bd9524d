// One test session's work with cil-instrument, the same whichever test platform asks for it (the
// VSTest collector, CilInstrumentCollector.cs, and the Microsoft.Testing.Platform extension,
// ../mtp/): in files mode, `cil-instrument exec` instruments the test folders in place and then
// waits on a command that reads this process's pipe; closing the pipe (Finish, or this process
// killed) makes exec put every original back and write the report, and a killed exec leaves its
// journal, which the next exec or restore puts back. In jit mode no file is changed: the test
// host gets the profiler's variables, and once it has ended `cil-instrument report` turns its
// hits file into the report. Each session writes into a temporary folder of its own, removed by
// RemoveOutput once the report has been handed on.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;

namespace CilInstrument.Collector
{
    /// What a finished step said and left: the tool's own lines, the errors to report as the
    /// run's, and the report file when there is one.
    sealed class SessionOutcome
    {
        public string Said = "";
        public readonly List<string> Errors = new List<string>();
        public string? Report;
    }

    sealed class CoverageSession
    {
        // The line the waiting command prints once exec has instrumented everything.
        const string ReadyLine = "cil-instrument-collector-ready";
        // The profiler's COM class id (runtime_contract.h's kClsidText).
        const string ProfilerClsid = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6410}";
        static readonly TimeSpan InstrumentTimeout = TimeSpan.FromMinutes(10);

        readonly Settings settings_;
        readonly string tool_;
        readonly string sourceRoot_;
        Process? exec_;
        readonly StringBuilder execOutput_ = new StringBuilder();

        /// `tool` is the package's cil-instrument; `sourceRoot` the "my code" root (Settings'
        /// SourceRootOrDefault).
        public CoverageSession(Settings settings, string tool, string sourceRoot)
        {
            settings_ = settings;
            tool_ = tool;
            sourceRoot_ = sourceRoot;
            Output = Path.Combine(Path.GetTempPath(), "cil-instrument-collector-" + Guid.NewGuid().ToString("N"));
        }

        /// The session's temporary folder: exec's or the profiler's output, and the report.
        public string Output { get; }

        public string Profiler => Path.Combine(Path.GetDirectoryName(tool_)!, "libcilprofiler.so");

        /// The test host's variables: where instrumented code writes, and in jit mode the profiler.
        public List<KeyValuePair<string, string>> TestHostVariables()
        {
            var variables = new List<KeyValuePair<string, string>> { new("CIL_INSTRUMENT_OUTPUT", Output) };
            if (!settings_.Jit || !File.Exists(Profiler)) return variables;  // CheckJit says so
            Directory.CreateDirectory(Output);
            variables.Add(new("CORECLR_ENABLE_PROFILING", "1"));
            variables.Add(new("CORECLR_PROFILER", ProfilerClsid));
            variables.Add(new("CORECLR_PROFILER_PATH", Profiler));
            variables.Add(new("CIL_INSTRUMENT_MODE", "coverage"));
            if (settings_.HitCounts) variables.Add(new("CIL_INSTRUMENT_HIT_COUNTS", "1"));
            if (settings_.Include.Count > 0) variables.Add(new("CIL_INSTRUMENT_INCLUDE", string.Join(";", settings_.Include)));
            if (settings_.Exclude.Count > 0) variables.Add(new("CIL_INSTRUMENT_EXCLUDE", string.Join(";", settings_.Exclude)));
            if (settings_.Assemblies.Count > 0) variables.Add(new("CIL_INSTRUMENT_ASSEMBLIES", string.Join(";", settings_.Assemblies)));
            else variables.Add(new("CIL_INSTRUMENT_SOURCE_ROOT", sourceRoot_));
            return variables;
        }

        /// Jit mode: null when the profiler is there, else the error line.
        public string? CheckJit() =>
            File.Exists(Profiler) ? null : $"{Profiler}: the profiler is missing from the package; the tests run without cil-instrument";

        /// Files mode: instruments the folders of `sources` (the test assemblies) in place and
        /// returns once they are; null then, else the error line (nothing is left instrumented).
        public string? StartExec(IReadOnlyCollection<string> sources)
        {
            var folders = sources.Select(s => Path.GetDirectoryName(Path.GetFullPath(s))!).Distinct().ToList();
            if (folders.Count == 0) return "the test run names no test assembly; nothing instrumented";
            if (!File.Exists(tool_)) return $"{tool_}: the tool is missing from the package; the tests run without cil-instrument";
            Directory.CreateDirectory(Output);
            var start = new ProcessStartInfo(tool_)
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            foreach (var argument in settings_.ExecArguments(Output, sources)) start.ArgumentList.Add(argument);
            // exec judges "my code" by the same root as jit mode (its own default, the working
            // directory, is the test project's folder or wherever the test app was started).
            start.Environment["CIL_INSTRUMENT_SOURCE_ROOT"] = sourceRoot_;
            foreach (var folder in folders) start.ArgumentList.Add(folder);
            start.ArgumentList.Add("--");
            start.ArgumentList.Add("/bin/sh");
            start.ArgumentList.Add("-c");
            // Prints the ready line, then waits for the end of its input: this process's pipe.
            start.ArgumentList.Add($"echo {ReadyLine}; exec cat > /dev/null");
            var ready = new ManualResetEventSlim();
            var exec = new Process { StartInfo = start };
            exec.OutputDataReceived += (_, line) =>
            {
                if (line.Data == null || line.Data == ReadyLine) { ready.Set(); return; }
                lock (execOutput_) execOutput_.AppendLine(line.Data);
            };
            exec.ErrorDataReceived += (_, line) => { if (line.Data != null) lock (execOutput_) execOutput_.AppendLine(line.Data); };
            exec.Start();
            exec.BeginOutputReadLine();
            exec.BeginErrorReadLine();
            if (!ready.Wait(InstrumentTimeout) || exec.HasExited)
            {
                exec.WaitForExit(10000);
                return $"cil-instrument exec did not instrument the test folders: {ExecOutput()}";
            }
            exec_ = exec;
            return null;
        }

        /// Files mode, once the test host has ended: exec puts the originals back and reports.
        /// Null when StartExec did not succeed.
        public SessionOutcome? FinishExec()
        {
            var exec = exec_;
            if (exec == null) return null;
            exec_ = null;
            exec.StandardInput.Close();
            exec.WaitForExit();
            return Outcome("exec", exec.ExitCode, ExecOutput());
        }

        /// Jit mode, once every test host has ended (the profiler writes its hits file then).
        public SessionOutcome ReportJit()
        {
            var hits = Directory.Exists(Output)
                ? Directory.GetFiles(Output, "*.hits.json").Concat(Directory.GetFiles(Output, "*.hits.live")).OrderBy(f => f, StringComparer.Ordinal).ToList()
                : new List<string>();
            if (hits.Count == 0)
            {
                var none = new SessionOutcome();
                none.Errors.Add($"the test host wrote no hits file in {Output}: nothing was covered at JIT time");
                return none;
            }
            var start = new ProcessStartInfo(tool_) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var argument in settings_.ReportArguments(Output)) start.ArgumentList.Add(argument);
            foreach (var hitsFile in hits) start.ArgumentList.Add(hitsFile);
            using var report = Process.Start(start)!;
            var errors = report.StandardError.ReadToEndAsync();
            string said = (report.StandardOutput.ReadToEnd() + errors.Result).Trim();
            report.WaitForExit();
            return Outcome("report", report.ExitCode, said);
        }

        /// Removes the session's temporary folder (after the report has been copied or sent).
        public void RemoveOutput()
        {
            try { if (Directory.Exists(Output)) Directory.Delete(Output, true); }
            catch (IOException) { }
            catch (UnauthorizedAccessException) { }
        }

        SessionOutcome Outcome(string command, int exitCode, string said)
        {
            var outcome = new SessionOutcome { Said = said };
            if (exitCode == 6)
                outcome.Errors.Add($"coverage is under the threshold of {settings_.Threshold}% (cil-instrument {command}'s exit status 6)");
            else if (exitCode != 0)
                outcome.Errors.Add($"cil-instrument {command} ended with status {exitCode}");
            string report = Path.Combine(Output, settings_.ReportFileName);
            if (settings_.ReportFileName.Length > 0 && File.Exists(report)) outcome.Report = report;
            return outcome;
        }

        string ExecOutput()
        {
            lock (execOutput_) return execOutput_.ToString().Trim();
        }
    }
}
