// `cil-instrument dump IN [--method PATTERN]... [--pdb PATH|none] [--json]`: every method body,
// ildasm-like, with the PDB's source lines when there is one.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/commands/pattern_options.h"
#include "cli/common.h"
#include "cli/output/listing_printer.h"
#include "cli/commands/method_selection.h"
#include "instrument/pdb_files.h"
#include "instrument/debug_info.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

int run_dump(int argc, char** argv) {
  cxxopts::Options options("cil-instrument dump", "List every method body of an assembly.");
  options.add_options()("method", "only methods whose Ns.Type::Method matches this glob (repeatable)",
                        cxxopts::value<std::vector<std::string>>(), "PATTERN")(
      "pdb", "the portable PDB whose lines to show (default: the embedded one, else IN.pdb beside the input); none: no lines",
      cxxopts::value<std::string>(), "PATH|none")("json", "print JSON")("h,help", "show this help")(
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
  if (!take_patterns("dump", args, "method", filter.include)) return kExitUsage;

  auto module = load_module(file);
  if (!module) return fail(module.error());
  const md::Module& m = **module;
  md::Printer printer(m);
  std::vector<md::MethodDefId> methods = select_methods(m, printer, filter);
  // Source lines from the PDB, when there is a usable one. A PDB that is simply not there is not
  // worth a warning (most assemblies' are elsewhere); one that is there and cannot be used is.
  instrument::PdbSource pdb;
  if (auto entries = pe::read_debug_directory(m.image())) {
    pdb = instrument::find_pdb(m, *entries, instrument::pdb_options(args.count("pdb") ? args["pdb"].as<std::string>() : "", file));
    for (const auto& note : pdb.notes) print_warning(file, note);
    if (!pdb.pdb && pdb.warn && !pdb.missing) print_warning(file, fmt::format("{}; no source lines shown", pdb.reason));
  }

  size_t bad = 0;
  std::string first_error;
  auto p = make_printer(args.count("json") != 0);
  {
    ObjectScope dump(*p, {}, Layout::one_row("// assembly {}, mvid {}", false));
    std::string assembly = assembly_name(m);
    p->field("assembly", Value(assembly).text(md::printable(assembly)));
    p->field("mvid", module_mvid(m));
    ListScope listed(*p, "methods");
    for (md::MethodDefId method : methods) {
      il::MethodListing listing = read_listing(m, printer, method);
      if (!listing.error.empty() && bad++ == 0) first_error = listing.error;
      print_listing(*p, listing, LabelNames::offsets(), ListingStyle::Dump, ListingSource::of(pdb.pdb.get(), method));
    }
  }
  if (bad) print_warning(file, fmt::format("{} method bod{} could not be read; the first: {}", bad, bad == 1 ? "y" : "ies", first_error));
  return write_stdout(p->output()) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
