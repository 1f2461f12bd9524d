// The collector's configuration (VSTest's and MTP's), from the runsettings file's
// <DataCollector friendlyName="CilInstrument"><Configuration>: Mode (coverage, the default, or
// count), Format (cobertura, the default, lcov or none), Include and Exclude (method patterns),
// Assemblies (file patterns; default: the "my code" rule, the assemblies built from sources under
// SourceRoot, test assemblies left out), SourceRoot (default: the nearest folder at or above the
// test project's or test app's with a solution or a .git),
// Instrumentation (files, the default: exec instruments the files in place and puts them back;
// or jit: coverage at JIT time through the profiler in the test host, no file changed),
// HitCounts (coverage mode: true counts each line's and branch's hits exactly, cil-instrument's
// --hit-counts; false, the default, records hit or not with a cheaper probe),
// Threshold (coverage mode: a percentage) and ThresholdType (line, branch or method). Each
// separated by ';' where it is a list.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Xml;

namespace CilInstrument.Collector
{
    sealed class Settings
    {
        public string Mode { get; private set; } = "coverage";
        public string Format { get; private set; } = "cobertura";
        public bool Jit { get; private set; }
        public string? SourceRoot { get; private set; }
        public List<string> Include { get; } = new List<string>();
        public List<string> Exclude { get; } = new List<string>();
        public List<string> Assemblies { get; } = new List<string>();
        public string? Threshold { get; private set; }
        public bool HitCounts { get; private set; }
        public List<string> ThresholdTypes { get; } = new List<string>();

        public string ReportFileName =>
            Mode != "coverage" ? "" : Format == "cobertura" ? "coverage.cobertura.xml" : Format == "lcov" ? "coverage.info" : "";

        // The settings of a file (MTP's --cil-instrument-settings): a runsettings file, whose
        // CilInstrument data collector's Configuration is read as VSTest's collector reads it, or
        // a file whose root is that Configuration element. Null when they are valid, else one
        // line that names the file and says what is wrong.
        public static string? TryReadFile(string path, out Settings settings)
        {
            settings = new Settings();
            var document = new XmlDocument();
            try { document.Load(path); }
            catch (Exception e) when (e is XmlException || e is System.IO.IOException || e is UnauthorizedAccessException)
            {
                return $"{path}: cannot be read as XML: {e.Message}";
            }
            var configuration = document.DocumentElement?.Name == "Configuration"
                ? document.DocumentElement
                : document.SelectSingleNode("//DataCollector[@friendlyName='CilInstrument']/Configuration") as XmlElement;
            if (configuration == null)
                return $"{path}: no DataCollector friendlyName=\"CilInstrument\" with a Configuration (nor a Configuration root)";
            string? error = TryRead(configuration, out settings);
            return error == null ? null : $"{path}: {error}";
        }

        // Null when the configuration is valid, else one line that says what is wrong.
        public static string? TryRead(XmlElement? configuration, out Settings settings)
        {
            settings = new Settings();
            if (configuration == null) return null;
            string? Value(string name) => configuration[name]?.InnerText.Trim();
            IEnumerable<string> List(string name) =>
                (Value(name) ?? "").Split(';').Select(s => s.Trim()).Where(s => s.Length > 0);
            // A setting that takes one of `allowed`: null when it is absent, else its value; an
            // error line in `error` when it is another value.
            string? error = null;
            string? Choice(string name, params string[] allowed)
            {
                string? value = Value(name);
                if (string.IsNullOrEmpty(value) || error != null) return null;
                if (Array.IndexOf(allowed, value) >= 0) return value;
                error = $"runsettings: Configuration/{name} '{value}' is not {string.Join(", ", allowed[..^1])} or {allowed[^1]}";
                return null;
            }
            string? mode = Choice("Mode", "coverage", "count");
            string? format = Choice("Format", "cobertura", "lcov", "none");
            string? instrumentation = Choice("Instrumentation", "files", "jit");
            string? hitCounts = Choice("HitCounts", "true", "false");
            if (error != null) return error;
            if (mode != null) settings.Mode = mode;
            if (format != null) settings.Format = format;
            settings.Jit = instrumentation == "jit";
            if (settings.Jit && settings.Mode != "coverage") return "runsettings: Configuration/Instrumentation jit goes with Mode coverage";
            settings.HitCounts = hitCounts == "true";
            if (settings.HitCounts && settings.Mode != "coverage") return "runsettings: Configuration/HitCounts goes with Mode coverage";
            string? sourceRoot = Value("SourceRoot");
            if (!string.IsNullOrEmpty(sourceRoot))
            {
                if (!System.IO.Path.IsPathRooted(sourceRoot))
                    return $"runsettings: Configuration/SourceRoot '{sourceRoot}' is not an absolute path";
                settings.SourceRoot = sourceRoot;
            }
            settings.Include.AddRange(List("Include"));
            settings.Exclude.AddRange(List("Exclude"));
            settings.Assemblies.AddRange(List("Assemblies"));
            string? threshold = Value("Threshold");
            if (!string.IsNullOrEmpty(threshold))
            {
                if (!double.TryParse(threshold, NumberStyles.Float, CultureInfo.InvariantCulture, out double percent) || percent < 0 || percent > 100)
                    return $"runsettings: Configuration/Threshold '{threshold}' is not a percentage";
                if (settings.Mode != "coverage") return "runsettings: Configuration/Threshold goes with Mode coverage";
                settings.Threshold = threshold;
            }
            foreach (string type in List("ThresholdType"))
            {
                if (type != "line" && type != "branch" && type != "method")
                    return $"runsettings: Configuration/ThresholdType '{type}' is not line, branch or method";
                settings.ThresholdTypes.Add(type);
            }
            return null;
        }

        // The Instrumentation named on MTP's command line (files or jit), which wins over the
        // file's. Null, or the error line.
        public string? SetInstrumentation(string instrumentation)
        {
            Jit = instrumentation == "jit";
            return Jit && Mode != "coverage" ? "--cil-instrument jit goes with Mode coverage" : null;
        }

        // The source root the "my code" default judges by: SourceRoot, else the nearest folder at
        // or above `start` that holds a solution (*.sln, *.slnx) or a repository (.git), else
        // `start`. `start` is the test project's folder (VSTest starts the collector there) or
        // the test app's (MTP), beside which the libraries under test are built, not under it.
        public string SourceRootOrDefault(string start)
        {
            string root = SourceRoot ?? SolutionFolder(start);
            root = root.TrimEnd('/');
            return root.Length > 0 ? root : "/";
        }

        static string SolutionFolder(string start)
        {
            for (var folder = new System.IO.DirectoryInfo(start); folder != null; folder = folder.Parent)
            {
                try
                {
                    if (System.IO.Directory.Exists(System.IO.Path.Combine(folder.FullName, ".git")) ||
                        System.IO.File.Exists(System.IO.Path.Combine(folder.FullName, ".git")) ||
                        folder.EnumerateFiles("*.sln").Any() || folder.EnumerateFiles("*.slnx").Any())
                        return folder.FullName;
                }
                catch (System.IO.IOException) { }
                catch (UnauthorizedAccessException) { }
            }
            return start;
        }

        // report's options for the hits files of a JIT run, written into `output`.
        public IEnumerable<string> ReportArguments(string output)
        {
            yield return "report";
            if (Format == "cobertura")
            {
                yield return "--cobertura";
                yield return System.IO.Path.Combine(output, ReportFileName);
            }
            if (Format == "lcov")
            {
                yield return "--lcov";
                yield return System.IO.Path.Combine(output, ReportFileName);
            }
            if (Threshold != null)
            {
                yield return "--threshold";
                yield return Threshold;
                foreach (string type in ThresholdTypes) yield return "--threshold-type=" + type;
            }
        }

        // exec's options for a run writing into `output`.
        public IEnumerable<string> ExecArguments(string output, IReadOnlyCollection<string> sources)
        {
            yield return "exec";
            yield return "--mode";
            yield return Mode;
            if (HitCounts) yield return "--hit-counts";
            foreach (string pattern in Include) yield return "--include=" + pattern;
            foreach (string pattern in Exclude) yield return "--exclude=" + pattern;
            foreach (string pattern in Assemblies)
            {
                yield return "--assemblies";
                yield return pattern;
            }
            yield return "-o";
            yield return output;
            if (Mode == "coverage" && Format == "cobertura")
            {
                yield return "--cobertura";
                yield return System.IO.Path.Combine(output, ReportFileName);
            }
            if (Mode == "coverage" && Format == "lcov")
            {
                yield return "--lcov";
                yield return System.IO.Path.Combine(output, ReportFileName);
            }
            if (Threshold != null)
            {
                yield return "--threshold";
                yield return Threshold;
                foreach (string type in ThresholdTypes) yield return "--threshold-type=" + type;
            }
        }
    }
}
