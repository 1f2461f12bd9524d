// `cil-instrument report FILE... [--top N] [--json]`: the call counts of instrumented runs,
// merged per assembly build and sorted by count; of hits files, the coverage, its source paths
// mapped (--path-map, --source-root).
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/common.h"
#include "cli/results/count_file.h"
#include "cli/results/coverage_data.h"
#include "cli/results/live_file.h"
#include "support/file_io.h"
#include "support/write_confinement.h"
#include "cli/output/scoped_printer.h"
#include "metadata/printer.h"
#include "metadata/text_encoding.h"
#include "metadata/token_text.h"

namespace cil::cli {

namespace {

/// The merged counts, for both forms: per assembly build, a sentence and a table in text (names
/// from count files through md::printable: control characters would break the table; cut at
/// the man page's LIMITS for printed names), the same numbers and the raw names in JSON.
void print_report(ScopedPrinter& p, const std::vector<AssemblyCounts>& builds, size_t top) {
  auto printable = [](std::string_view text) { return md::printable(text, md::kMaxPrintedText); };
  ObjectScope report(p, {}, Layout::plain());
  ListScope assemblies(p, "assemblies", Layout::plain());
  for (size_t b = 0; b < builds.size(); ++b) {
    const AssemblyCounts& a = builds[b];
    size_t rows = std::min(top, a.methods.size());
    Layout layout = Layout::one_row("{} (mvid {}): {} merged, {}, {} called at least once, {}{}", false);
    layout.blank_before = b > 0;
    ObjectScope assembly(p, {}, layout);
    p.field("assembly", Value(a.assembly).text(printable(a.assembly)));
    p.field("mvid", a.mvid);
    p.field("files", Value(uint64_t{a.files}).text(plural(a.files, "file", "files")));
    p.field("methodCount", Value(uint64_t{a.methods.size()}).text(plural(a.methods.size(), "method", "methods")));
    p.field("calledMethods", uint64_t{a.called});
    p.field("totalCalls", Value(a.total_calls).text(plural(a.total_calls, "call", "calls")));
    p.field(Key::text_only(), rows < a.methods.size() ? fmt::format("; top {} shown", rows) : std::string());
    ListScope methods(p, "methods", Layout::plain());
    size_t width = 5;
    for (size_t i = 0; i < rows; ++i) width = std::max(width, fmt::formatted_size("{}", a.methods[i].count));
    p.line(fmt::format("{:>{}}  {:<10}  {}", "count", width, "token", "name"));
    for (size_t i = 0; i < rows; ++i) {
      const MethodCount& m = a.methods[i];
      ObjectScope method(p, {}, Layout::one_row("{2}  {0}  {1}"));
      p.field("token", md::token_text(m.token));
      p.field("name", Value(m.name).text(printable(m.name)));
      p.field("count", Value(m.count).text(fmt::format("{:>{}}", m.count, width)));
    }
  }
}

Status write_whole_file(const std::string& path, const std::string& text) {
  OutputFile file(path);
  CIL_TRY(file.write_at(0, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size())));
  return file.commit();
}

/// Coverage from hits files: the table (or JSON) on standard output, the other formats into
/// files, then the threshold.
int coverage_report(const cxxopts::ParseResult& args, const std::vector<std::pair<std::string, CountFile>>& files,
                    const WriteConfinement& confinement, const PathMap& path_map) {
  std::vector<std::string> types{"line", "branch", "method"};
  if (args.count("threshold-type")) types = args["threshold-type"].as<std::vector<std::string>>();
  for (const std::string& type : types)
    if (type != "line" && type != "branch" && type != "method") {
      print_usage_error(fmt::format("report: --threshold-type is line, branch or method, not '{}'", type));
      return kExitUsage;
    }
  std::optional<double> threshold;
  if (args.count("threshold")) {
    std::string text = args["threshold"].as<std::string>();
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(value >= 0 && value <= 100)) {
      print_usage_error(fmt::format("report: --threshold needs a percentage from 0 to 100, not '{}'", text));
      return kExitUsage;
    }
    threshold = value;
  }
  // The output files, before any work: never one of the files read (the same file by any name,
  // a hard link included), never through a symbolic link, and not both the same file.
  for (const char* option : {"cobertura", "lcov"})
    if (args.count(option)) {
      const std::string path = args[option].as<std::string>();
      if (Status usable = confinement.check_named(path); !usable) {
        if (usable.error().kind != ErrorKind::Usage) return fail(usable.error(), path);
        print_error(usable.error());
        return kExitUsage;
      }
    }
  if (args.count("cobertura") && args.count("lcov")) {
    const std::string cobertura = args["cobertura"].as<std::string>(), lcov = args["lcov"].as<std::string>();
    WriteConfinement first;
    first.add_input(cobertura);
    if (cobertura == lcov || first.is_input(lcov)) {
      print_usage_error(fmt::format("report: --cobertura {} and --lcov {} are the same file", cobertura, lcov));
      return kExitUsage;
    }
  }

  HitsMerger merger;
  for (const auto& [file, hits] : files) {
    auto added = merger.add(file, hits);
    if (!added) return fail(in_file(added.error(), file));
    if (!added->empty()) print_warning(file, *added);
  }
  auto modules = merger.result();
  if (!modules) return fail(modules.error());
  map_documents(*modules, path_map);
  std::optional<std::string> source_root;
  if (args.count("source-root")) source_root = args["source-root"].as<std::string>();

  int64_t timestamp = static_cast<int64_t>(std::time(nullptr));
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) timestamp = std::strtoll(epoch, nullptr, 10);
  if (args.count("cobertura")) {
    const std::string path = args["cobertura"].as<std::string>();
    if (Status s = write_whole_file(path, cobertura_xml(*modules, timestamp, source_root)); !s) return fail(in_file(s.error(), path), path);
  }
  if (args.count("lcov")) {
    const std::string path = args["lcov"].as<std::string>();
    if (Status s = write_whole_file(path, lcov_text(*modules)); !s) return fail(in_file(s.error(), path), path);
  }
  std::string text = args.count("json") ? coverage_json(*modules) : coverage_table(*modules);
  if (!write_stdout(text)) return kExitOutput;
  if (!threshold) return kExitOk;
  CoverageTotals t = totals(*modules);
  int status = kExitOk;
  for (const std::string& type : types) {
    const Ratio& r = type == "line" ? t.line : type == "branch" ? t.branch : t.method;
    if (r.percent() < *threshold) {
      print_error(make_error(ErrorKind::Unsupported, "",
                             fmt::format("{} coverage {:.2f}% is under the threshold of {}%", type, r.percent(), *threshold)));
      status = kExitThreshold;
    }
  }
  return status;
}

}  // namespace

int run_report(int argc, char** argv) {
  cxxopts::Options options("cil-instrument report",
                           "Merge the count files of instrumented runs and list the methods by number of calls.");
  options.add_options()("top", "only the N most called methods of each assembly", cxxopts::value<std::string>(), "N")(
      "json", "print JSON")("cobertura", "hits files: write Cobertura XML to FILE", cxxopts::value<std::string>(), "FILE")(
      "lcov", "hits files: write LCOV to FILE", cxxopts::value<std::string>(), "FILE")(
      "threshold", "hits files: exit with status 6 when the total coverage is under N percent", cxxopts::value<std::string>(), "N")(
      "threshold-type", "line, branch or method (repeatable; default: all three)", cxxopts::value<std::vector<std::string>>(), "TYPE")(
      "path-map", "hits files: report source paths under FROM as under TO (repeatable; the longest FROM wins)",
      cxxopts::value<std::vector<std::string>>(), "FROM=TO")(
      "source-root", "hits files: Cobertura's <source>, its file names relative to DIR", cxxopts::value<std::string>(), "DIR")(
      "h,help", "show this help")("files", "count files", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"files"});
  options.positional_help("FILE|DIR...");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  size_t top = SIZE_MAX;
  if (args.count("top")) {
    std::string text = args["top"].as<std::string>();
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), top);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || top == 0) {
      print_usage_error(fmt::format("report: --top needs a positive integer, not '{}'", text));
      return kExitUsage;
    }
  }
  PathMap path_map;
  if (args.count("path-map"))
    for (const std::string& mapping : args["path-map"].as<std::vector<std::string>>())
      if (Status added = path_map.add(mapping); !added) {
        print_usage_error("report: " + added.error().message);
        return kExitUsage;
      }
  if (args.count("source-root") && args["source-root"].as<std::string>().empty()) {
    print_usage_error("report: --source-root needs a folder, not ''");
    return kExitUsage;
  }
  if (!args.count("files")) {
    print_usage_error("report: missing count files");
    return kExitUsage;
  }

  // A folder stands for the count, hits and live files in it; a counts or hits file whose live
  // file is given too is read from the live file.
  std::vector<std::string> files;
  for (const std::string& arg : args["files"].as<std::vector<std::string>>()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(arg, ec)) {
      files.push_back(arg);
      continue;
    }
    std::vector<std::string> found = counter_files_in(arg);
    if (found.empty()) {
      print_usage_error(fmt::format("report: {} holds no count, hits or live files", arg));
      return kExitUsage;
    }
    files.insert(files.end(), found.begin(), found.end());
  }
  std::vector<std::pair<std::string, CountFile>> read;
  for (const std::string& file : without_superseded(files)) {
    auto counts = read_count_file(file);
    if (!counts) return fail(in_file(counts.error(), file));
    if (!read.empty() && read.front().second.kind != counts->kind) {
      print_usage_error(fmt::format("report: {} is a {} file but {} is a {} file: report them apart", file,
                                    counts->kind.empty() ? "count" : "hits", read.front().first,
                                    read.front().second.kind.empty() ? "count" : "hits"));
      return kExitUsage;
    }
    read.emplace_back(file, std::move(*counts));
  }
  bool hits = !read.empty() && !read.front().second.kind.empty();
  if (!hits && (args.count("cobertura") || args.count("lcov") || args.count("threshold") || args.count("threshold-type") ||
                args.count("path-map") || args.count("source-root"))) {
    print_usage_error(
        "report: --cobertura, --lcov, --threshold, --path-map and --source-root go with hits files (instrument --mode coverage)");
    return kExitUsage;
  }
  if (hits) {
    // Every file named or found, also those superseded by their live file.
    WriteConfinement confinement;
    for (const std::string& file : files) confinement.add_input(file);
    return coverage_report(args, read, confinement, path_map);
  }

  CountMerger merger;
  for (auto& [file, counts] : read) {
    auto warnings = merger.add(file, counts);
    if (!warnings) return fail(in_file(warnings.error(), file));
    for (const std::string& w : *warnings) print_warning(file, w);
  }

  auto p = make_printer(args.count("json") != 0);
  print_report(*p, merger.result(), top);
  return write_stdout(p->output()) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
