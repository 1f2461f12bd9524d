// The collector's configuration, from the runsettings file's
// <DataCollector friendlyName="CilInstrument"><Configuration>: Mode (coverage, the default, or
// count), Format (cobertura, the default, lcov or none), Include and Exclude (method patterns),
// Assemblies (file patterns; default: exec's), Threshold (coverage mode: a percentage) and
// ThresholdType (line, branch or method). Each separated by ';' where it is a list.
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
        public List<string> Include { get; } = new List<string>();
        public List<string> Exclude { get; } = new List<string>();
        public List<string> Assemblies { get; } = new List<string>();
        public string? Threshold { get; private set; }
        public List<string> ThresholdTypes { get; } = new List<string>();

        public string ReportFileName =>
            Mode != "coverage" ? "" : Format == "cobertura" ? "coverage.cobertura.xml" : Format == "lcov" ? "coverage.info" : "";

        // Null when the configuration is valid, else one line that says what is wrong.
        public static string? TryRead(XmlElement? configuration, out Settings settings)
        {
            settings = new Settings();
            if (configuration == null) return null;
            string? Value(string name) => configuration[name]?.InnerText.Trim();
            IEnumerable<string> List(string name) =>
                (Value(name) ?? "").Split(';').Select(s => s.Trim()).Where(s => s.Length > 0);
            string? mode = Value("Mode");
            if (!string.IsNullOrEmpty(mode))
            {
                if (mode != "coverage" && mode != "count")
                    return $"runsettings: Configuration/Mode '{mode}' is not coverage or count";
                settings.Mode = mode!;
            }
            string? format = Value("Format");
            if (!string.IsNullOrEmpty(format))
            {
                if (format != "cobertura" && format != "lcov" && format != "none")
                    return $"runsettings: Configuration/Format '{format}' is not cobertura, lcov or none";
                settings.Format = format!;
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

        // exec's options for a run writing into `output`.
        public IEnumerable<string> ExecArguments(string output, IReadOnlyCollection<string> sources)
        {
            yield return "exec";
            yield return "--mode";
            yield return Mode;
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
