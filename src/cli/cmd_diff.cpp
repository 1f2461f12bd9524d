// `cil-instrument diff OLD NEW [--method PATTERN]... [--json]`: unified diffs of the IL listings
// of the methods that differ between two builds of an assembly.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/json_writer.h"
#include "cli/label_alignment.h"
#include "cli/line_diff.h"
#include "cli/method_pairing.h"
#include "cli/method_selection.h"
#include "il/body_reader.h"
#include "il/disassembler.h"
#include "il/instruction.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

namespace {

using md::TableId;

/// One input: its methods with IL bodies (after --method), their keys and normalized listings.
struct Side {
  std::string path;
  std::vector<MethodKey> keys;
  std::vector<std::string> listings;
  size_t unreadable = 0;
  std::string first_error;
};

/// The listing with labels instead of offsets and without RVA and tokens, so that code inserted
/// at the start of a method, or a method inserted before it, changes only what really changed.
std::string normalized_listing(md::Printer& printer, const md::Module& m, uint32_t rid, std::string& error) {
  uint32_t rva = m.row<TableId::MethodDef>(rid).rva();
  Expected<il::MethodBody> body = il::read_body(m, rid);
  Expected<il::DecodedCode> code = Error{};
  if (!body) {
    error = body.error().to_string();
  } else {
    code = il::decode_code(body->code, body->code_file_offset);
    if (!code) {
      Error e = code.error();
      e.structure = fmt::format("MethodDef 0x{:08X} code", md::make_token(TableId::MethodDef, rid));
      error = e.to_string();
    }
  }
  std::string text;
  il::list_method(printer, rid, rva, body ? &*body : nullptr, body && code ? &*code : nullptr, error,
                  il::ListingOptions{.normalize_labels = true}, text);
  // The first line is a comment with the token and the name: the diff header says both.
  text.erase(0, text.find('\n') + 1);
  return text;
}

Expected<Side> load_side(const std::string& path, const md::MethodFilter& filter) {
  std::unique_ptr<md::Module> module = CIL_TRY(load_module(path));
  const md::Module& m = *module;
  md::Printer printer(m);
  Side side;
  side.path = path;
  for (uint32_t rid : select_methods(m, printer, filter)) {
    std::string error;
    std::string text = normalized_listing(printer, m, rid, error);
    if (!error.empty() && side.unreadable++ == 0) side.first_error = error;
    MethodKey key;
    key.token = md::make_token(TableId::MethodDef, rid);
    key.name = printer.method_name(rid);
    key.signature = text.substr(0, text.find('\n'));
    side.keys.push_back(std::move(key));
    side.listings.push_back(std::move(text));
  }
  return side;
}

std::string token_string(uint32_t token) { return fmt::format("0x{:08X}", token); }

/// The text of one changed method: `---`/`+++` lines naming file, token and method, then hunks.
std::string method_diff(const Side& a, size_t i, const Side& b, size_t j, const std::string& hunks) {
  using md::printable;
  return fmt::format("--- {}\t{} {}\n+++ {}\t{} {}\n{}", printable(a.path), token_string(a.keys[i].token),
                     printable(a.keys[i].name), printable(b.path), token_string(b.keys[j].token), printable(b.keys[j].name), hunks);
}

void json_method_list(JsonWriter& j, const char* key, const Side& side, const std::vector<size_t>& which) {
  j.key(key).begin_array();
  for (size_t i : which) {
    j.begin_object(true);
    j.key("token").value(token_string(side.keys[i].token));
    j.key("name").value(side.keys[i].name);
    j.end_object();
  }
  j.end_array();
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
  if (args.count("method")) filter.include = args["method"].as<std::vector<std::string>>();

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
  bool json = args.count("json") != 0;
  std::string out;
  JsonWriter j;
  if (json) {
    j.begin_object();
    j.key("old").value(a.path);
    j.key("new").value(b.path);
    j.key("changed").begin_array();
  }
  size_t changed = 0;
  for (auto [i, k] : pairing.pairs) {
    if (a.listings[i] == b.listings[k]) continue;
    ++changed;
    std::string text = method_diff(a, i, b, k, unified_diff(a.listings[i], align_labels(a.listings[i], b.listings[k])));
    if (!json) {
      out += text;
      continue;
    }
    j.begin_object();
    j.key("token").value(token_string(a.keys[i].token));
    j.key("newToken").value(token_string(b.keys[k].token));
    j.key("name").value(a.keys[i].name);
    j.key("diff").value(text);
    j.end_object();
  }
  if (json) {
    j.end_array();
    json_method_list(j, "onlyInOld", a, pairing.only_old);
    json_method_list(j, "onlyInNew", b, pairing.only_new);
    j.end_object();
    out = j.text();
  } else {
    using md::printable;
    for (size_t i : pairing.only_old)
      out += fmt::format("only in {}: {} {}\n", printable(a.path), token_string(a.keys[i].token), printable(a.keys[i].name));
    for (size_t k : pairing.only_new)
      out += fmt::format("only in {}: {} {}\n", printable(b.path), token_string(b.keys[k].token), printable(b.keys[k].name));
  }
  if (!write_stdout(out)) return kExitOutput;
  bool differ = changed || !pairing.only_old.empty() || !pairing.only_new.empty();
  return differ ? kExitDifferences : kExitOk;
}

}  // namespace cil::cli
