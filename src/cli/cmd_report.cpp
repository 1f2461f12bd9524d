// `cil-instrument report FILE... [--top N] [--json]`: the call counts of instrumented runs,
// merged per assembly build and sorted by count.
#include <charconv>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/count_file.h"
#include "cli/scoped_printer.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

namespace {

std::string plural(uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string token_string(uint32_t token) { return fmt::format("0x{:08X}", token); }

/// The merged counts, for both forms: per assembly build, a sentence and a table in text (names
/// from count files through md::printable: control characters would break the table), the same
/// numbers and the raw names in JSON.
void print_report(ScopedPrinter& p, const std::vector<AssemblyCounts>& builds, size_t top) {
  using md::printable;
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
      p.field("token", token_string(m.token));
      p.field("name", Value(m.name).text(printable(m.name)));
      p.field("count", Value(m.count).text(fmt::format("{:>{}}", m.count, width)));
    }
  }
}

}  // namespace

int run_report(int argc, char** argv) {
  cxxopts::Options options("cil-instrument report",
                           "Merge the count files of instrumented runs and list the methods by number of calls.");
  options.add_options()("top", "only the N most called methods of each assembly", cxxopts::value<std::string>(), "N")(
      "json", "print JSON")("h,help", "show this help")("files", "count files", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"files"});
  options.positional_help("FILE...");
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
  if (!args.count("files")) {
    print_usage_error("report: missing count files");
    return kExitUsage;
  }

  CountMerger merger;
  for (const std::string& file : args["files"].as<std::vector<std::string>>()) {
    auto counts = read_count_file(file);
    if (!counts) return fail(in_file(counts.error(), file));
    auto warnings = merger.add(file, *counts);
    if (!warnings) return fail(in_file(warnings.error(), file));
    for (const std::string& w : *warnings) print_warning(file, w);
  }

  auto p = make_printer(args.count("json") != 0);
  print_report(*p, merger.result(), top);
  return write_stdout(p->output()) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
