// `dotnet test --collect "CilInstrument"`: the VSTest side of CoverageSession. Before the test
// host starts, files mode instruments the folders of the run's test assemblies in place
// (`cil-instrument exec`, with its journal); when the session ends every original is put back and
// the report is attached to the run's results. With Instrumentation jit no file is changed: the
// test host gets the profiler's variables, and the report is made once it has ended. The
// session's temporary folder is removed once the report has been sent.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Xml;
using Microsoft.VisualStudio.TestPlatform.ObjectModel;
using Microsoft.VisualStudio.TestPlatform.ObjectModel.DataCollection;

namespace CilInstrument.Collector
{
    [DataCollectorFriendlyName("CilInstrument")]
    [DataCollectorTypeUri("datacollector://cil-instrument/collector/1.0")]
    public sealed class CilInstrumentCollector : DataCollector, ITestExecutionEnvironmentSpecifier
    {
        static readonly TimeSpan HostTimeout = TimeSpan.FromMinutes(10);

        DataCollectionSink? sink_;
        DataCollectionLogger? logger_;
        DataCollectionContext? context_;
        Settings settings_ = new Settings();
        string? settingsError_;
        CoverageSession? session_;
        readonly List<int> testHosts_ = new List<int>();

        public override void Initialize(XmlElement? configurationElement, DataCollectionEvents events, DataCollectionSink dataSink,
                                        DataCollectionLogger logger, DataCollectionEnvironmentContext? environmentContext)
        {
            sink_ = dataSink;
            logger_ = logger;
            context_ = environmentContext?.SessionDataCollectionContext;
            settingsError_ = Settings.TryRead(configurationElement, out settings_);
            // VSTest starts the collector in the test project's folder.
            session_ = new CoverageSession(settings_, ToolPath(), settings_.SourceRootOrDefault(Directory.GetCurrentDirectory()));
            events.SessionStart += OnSessionStart;
            events.TestHostLaunched += (_, e) => { lock (testHosts_) testHosts_.Add(e.TestHostProcessId); };
            events.SessionEnd += OnSessionEnd;
        }

        public IEnumerable<KeyValuePair<string, string>> GetTestExecutionEnvironmentVariables()
        {
            // Asked for before the session starts: the folder is the run's whether or not the
            // instrumentation then succeeds (an uninstrumented run writes nothing there).
            if (settingsError_ != null || session_ == null) return Enumerable.Empty<KeyValuePair<string, string>>();
            return session_.TestHostVariables();
        }

        void OnSessionStart(object? sender, SessionStartEventArgs e)
        {
            if (settingsError_ != null)
            {
                Error($"{settingsError_}; the tests run without cil-instrument");
                return;
            }
            string? error = settings_.Jit
                ? session_!.CheckJit()
                : session_!.StartExec(e.GetPropertyValue<IEnumerable<string>>("TestSources")?.ToList() ?? new List<string>());
            if (error != null) Error(error);
        }

        void OnSessionEnd(object? sender, SessionEndEventArgs e)
        {
            var session = session_!;
            SessionOutcome? outcome = null;
            if (settings_.Jit && settingsError_ == null)
            {
                WaitForTestHosts();
                outcome = session.ReportJit();
            }
            else
            {
                outcome = session.FinishExec();
            }
            if (outcome == null)
            {
                session.RemoveOutput();
                return;
            }
            if (outcome.Said.Length > 0) logger_!.LogWarning(e.Context, "CilInstrument: " + outcome.Said);
            foreach (string error in outcome.Errors) Error(error);
            if (outcome.Report == null)
            {
                session.RemoveOutput();
                return;
            }
            // The sink copies the file on its own thread; the folder goes once it has.
            sink_!.SendFileCompleted += (_, _) => session.RemoveOutput();
            sink_.SendFileAsync(e.Context, outcome.Report, false);
        }

        // The profiler writes its hits file when the test host ends, so the report waits for each
        // test host this session launched to exit (VSTest ends them; the wait is capped only so
        // that a host that never ends cannot hang the run).
        void WaitForTestHosts()
        {
            List<int> hosts;
            lock (testHosts_) hosts = testHosts_.ToList();
            foreach (int pid in hosts)
            {
                try { using var host = Process.GetProcessById(pid); host.WaitForExit((int)HostTimeout.TotalMilliseconds); }
                catch (ArgumentException) { }  // ended already
                catch (InvalidOperationException) { }
            }
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
