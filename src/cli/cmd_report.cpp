// `cil-instrument report FILE... [--top N] [--json]`: the call counts of instrumented runs,
// merged per assembly build and sorted by count.
#include <charconv>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/count_file.h"
#include "cli/json_writer.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

namespace {

std::string plural(uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string token_string(uint32_t token) { return fmt::format("0x{:08X}", token); }

/// Names from count files go through md::printable: control characters would break the table.
void text_report(const AssemblyCounts& a, size_t rows, std::string& out) {
  using md::printable;
  out += fmt::format("{} (mvid {}): {} merged, {}, {} called at least once, {}", printable(a.assembly), a.mvid,
                     plural(a.files, "file", "files"), plural(a.methods.size(), "method", "methods"), a.called,
                     plural(a.total_calls, "call", "calls"));
  if (rows < a.methods.size()) out += fmt::format("; top {} shown", rows);
  out += '\n';
  size_t width = 5;
  for (size_t i = 0; i < rows; ++i) width = std::max(width, fmt::formatted_size("{}", a.methods[i].count));
  out += fmt::format("{:>{}}  {:<10}  {}\n", "count", width, "token", "name");
  for (size_t i = 0; i < rows; ++i) {
    const MethodCount& m = a.methods[i];
    out += fmt::format("{:>{}}  {}  {}\n", m.count, width, token_string(m.token), printable(m.name));
  }
}

void json_report(const AssemblyCounts& a, size_t rows, JsonWriter& j) {
  j.begin_object();
  j.key("assembly").value(a.assembly);
  j.key("mvid").value(a.mvid);
  j.key("files").value(uint64_t{a.files});
  j.key("methodCount").value(uint64_t{a.methods.size()});
  j.key("calledMethods").value(uint64_t{a.called});
  j.key("totalCalls").value(a.total_calls);
  j.key("methods").begin_array();
  for (size_t i = 0; i < rows; ++i) {
    const MethodCount& m = a.methods[i];
    j.begin_object(true);
    j.key("token").value(token_string(m.token));
    j.key("name").value(m.name);
    j.key("count").value(m.count);
    j.end_object();
  }
  j.end_array();
  j.end_object();
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

  std::string out;
  std::vector<AssemblyCounts> builds = merger.result();
  if (args.count("json")) {
    JsonWriter j;
    j.begin_object();
    j.key("assemblies").begin_array();
    for (const AssemblyCounts& a : builds) json_report(a, std::min(top, a.methods.size()), j);
    j.end_array();
    j.end_object();
    out = j.text();
  } else {
    for (size_t i = 0; i < builds.size(); ++i) {
      if (i) out += '\n';
      text_report(builds[i], std::min(top, builds[i].methods.size()), out);
    }
  }
  return write_stdout(out) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
