// `cil-instrument diff OLD NEW [--method PATTERN]... [--json]`: unified diffs of the IL listings
// of the methods that differ between two builds of an assembly.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/commands/pattern_options.h"
#include "cli/common.h"
#include "cli/output/label_alignment.h"
#include "cli/output/line_diff.h"
#include "cli/output/listing_printer.h"
#include "cli/output/method_pairing.h"
#include "cli/commands/method_selection.h"
#include "cli/output/scoped_printer.h"
#include "metadata/text_encoding.h"
#include "metadata/token_text.h"

namespace cil::cli {

namespace {

/// One input: its methods with IL bodies (after --method), their keys and listings as diff
/// shows them (labels numbered in offset order). The module stays open, so that the listings
/// of the methods that differ can be read again as values to align.
struct Side {
  std::string path;
  std::unique_ptr<md::Module> module;
  std::unique_ptr<md::Printer> printer;
  std::vector<md::MethodDefId> rids;
  std::vector<MethodKey> keys;
  std::vector<std::string> listings;
  size_t unreadable = 0;
  std::string first_error;

  il::MethodListing listing(size_t i) const { return read_listing(*module, *printer, rids[i]); }
};

Expected<Side> load_side(const std::string& path, const md::MethodFilter& filter) {
  Side side;
  side.path = path;
  side.module = CIL_TRY(load_module(path));
  side.printer = std::make_unique<md::Printer>(*side.module);
  side.rids = select_methods(*side.module, *side.printer, filter);
  for (size_t i = 0; i < side.rids.size(); ++i) {
    il::MethodListing listing = side.listing(i);
    if (!listing.error.empty() && side.unreadable++ == 0) side.first_error = listing.error;
    std::string text = diff_text(listing, LabelNames::numbered(listing));
    MethodKey key;
    key.token = listing.token;
    key.name = std::move(listing.name);
    key.signature = listing.header.substr(0, listing.header.find('\n'));
    side.keys.push_back(std::move(key));
    side.listings.push_back(std::move(text));
  }
  return side;
}

/// The text of one changed method: `---`/`+++` lines naming file, token and method, then the
/// hunks of its listing against the new one, whose labels are numbered after the old ones.
std::string method_diff(const Side& a, size_t i, const Side& b, size_t j) {
  il::MethodListing new_listing = b.listing(j);
  std::string new_text = diff_text(new_listing, align_labels(a.listing(i), new_listing));
  using md::printable;
  return fmt::format("--- {}\t{} {}\n+++ {}\t{} {}\n{}", printable(a.path), md::token_text(a.keys[i].token),
                     printable(a.keys[i].name), printable(b.path), md::token_text(b.keys[j].token), printable(b.keys[j].name),
                     unified_diff(a.listings[i], new_text));
}

void print_only_in(ScopedPrinter& p, std::string_view key, const Side& side, const std::vector<size_t>& which) {
  ListScope list(p, Key(key, key));
  for (size_t i : which) {
    ObjectScope method(p, {}, Layout::one_row("only in {}: {} {}"));
    p.field(Key::text_only(), md::printable(side.path));
    p.field("token", md::token_text(side.keys[i].token));
    p.field("name", Value(side.keys[i].name).text(md::printable(side.keys[i].name)));
  }
}

/// The whole comparison, for both forms; returns the number of methods that differ.
size_t print_diff(ScopedPrinter& p, const Side& a, const Side& b, const MethodPairing& pairing) {
  ObjectScope diff(p, {}, Layout::plain());
  p.field(Key::json_only("old"), a.path);
  p.field(Key::json_only("new"), b.path);
  size_t changed = 0;
  {
    ListScope list(p, "changed", Layout::plain());
    for (auto [i, k] : pairing.pairs) {
      if (a.listings[i] == b.listings[k]) continue;
      ++changed;
      std::string text = method_diff(a, i, b, k);
      ObjectScope method(p, {}, Layout::plain());
      p.field(Key::json_only("token"), md::token_text(a.keys[i].token));
      p.field(Key::json_only("newToken"), md::token_text(b.keys[k].token));
      p.field(Key::json_only("name"), a.keys[i].name);
      // The text is whole lines already; the layout ends the last one.
      std::string lines = text.ends_with('\n') ? text.substr(0, text.size() - 1) : text;
      p.field("diff", Value(std::move(text)).text(std::move(lines)));
    }
  }
  print_only_in(p, "onlyInOld", a, pairing.only_old);
  print_only_in(p, "onlyInNew", b, pairing.only_new);
  return changed;
}

}  // namespace

int run_diff(int argc, char** argv) {
  cxxopts::Options options("cil-instrument diff",
                           "Show, as unified diffs of their IL listings, the methods that differ between two assemblies.");
  options.add_options()("method", "only methods whose Ns.Type::Method matches this glob (repeatable)",
                        cxxopts::value<std::vector<std::string>>(), "PATTERN")("json", "print JSON")("h,help", "show this help")(
      "inputs", "OLD and NEW", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"inputs"});
  options.positional_help("OLD NEW");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  std::vector<std::string> inputs;
  if (args.count("inputs")) inputs = args["inputs"].as<std::vector<std::string>>();
  if (inputs.size() != 2) {
    print_usage_error(fmt::format("diff: expected two input files (OLD NEW), got {}", inputs.size()));
    return kExitUsage;
  }
  md::MethodFilter filter;
  if (!take_patterns("diff", args, "method", filter.include)) return kExitUsage;

  Side sides[2];
  for (int k = 0; k < 2; ++k) {
    auto side = load_side(inputs[k], filter);
    if (!side) return fail(side.error());
    sides[k] = std::move(*side);
  }
  const Side& a = sides[0];
  const Side& b = sides[1];
  for (const Side& s : sides)
    if (s.unreadable)
      print_warning(s.path, fmt::format("{} method bod{} could not be read; the first: {}", s.unreadable,
                                        s.unreadable == 1 ? "y" : "ies", s.first_error));

  MethodPairing pairing = pair_methods(a.keys, b.keys);
  auto p = make_printer(args.count("json") != 0);
  size_t changed = print_diff(*p, a, b, pairing);
  if (!write_stdout(p->output())) return kExitOutput;
  bool differ = changed || !pairing.only_old.empty() || !pairing.only_new.empty();
  return differ ? kExitDifferences : kExitOk;
}

}  // namespace cil::cli
