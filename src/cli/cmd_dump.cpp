// `cil-instrument dump IN [--method PATTERN]... [--json]`: every method body, ildasm-like.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/listing_printer.h"
#include "cli/method_selection.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

int run_dump(int argc, char** argv) {
  cxxopts::Options options("cil-instrument dump", "List every method body of an assembly.");
  options.add_options()("method", "only methods whose Ns.Type::Method matches this glob (repeatable)",
                        cxxopts::value<std::vector<std::string>>(), "PATTERN")("json", "print JSON")("h,help", "show this help")(
      "input", "assembly", cxxopts::value<std::string>());
  options.parse_positional({"input"});
  options.positional_help("IN");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  if (!args.count("input")) {
    print_usage_error("dump: missing input file");
    return kExitUsage;
  }
  std::string file = args["input"].as<std::string>();
  md::MethodFilter filter;
  if (args.count("method")) filter.include = args["method"].as<std::vector<std::string>>();

  auto module = load_module(file);
  if (!module) return fail(module.error());
  const md::Module& m = **module;
  md::Printer printer(m);
  std::vector<uint32_t> methods = select_methods(m, printer, filter);

  size_t bad = 0;
  std::string first_error;
  auto p = make_printer(args.count("json") != 0);
  {
    ObjectScope dump(*p, {}, Layout::one_row("// assembly {}, mvid {}", false));
    std::string assembly = assembly_name(m);
    p->field("assembly", Value(assembly).text(md::printable(assembly)));
    p->field("mvid", module_mvid(m));
    ListScope listed(*p, "methods");
    for (uint32_t rid : methods) {
      il::MethodListing listing = read_listing(m, printer, rid);
      if (!listing.error.empty() && bad++ == 0) first_error = listing.error;
      print_listing(*p, listing, LabelNames::offsets(), ListingStyle::Dump);
    }
  }
  if (bad) print_warning(file, fmt::format("{} method bod{} could not be read; the first: {}", bad, bad == 1 ? "y" : "ies", first_error));
  return write_stdout(p->output()) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
