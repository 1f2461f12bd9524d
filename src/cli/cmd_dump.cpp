// `cil-instrument dump IN [--method PATTERN]... [--pdb PATH|none] [--json]`: every method body,
// ildasm-like, with the PDB's source lines when there is one.
#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/json_writer.h"
#include "cli/method_selection.h"
#include "cli/pdb_options.h"
#include "il/body_reader.h"
#include "il/debug_info.h"
#include "il/disassembler.h"
#include "il/instruction.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

namespace {

using md::TableId;

struct MethodDump {
  uint32_t rid = 0;
  uint32_t rva = 0;
  Expected<il::MethodBody> body = Error{};
  Expected<il::DecodedCode> code = Error{};
  std::string error;
};

MethodDump load_method(const md::Module& m, uint32_t rid) {
  MethodDump d;
  d.rid = rid;
  d.rva = m.tables().get(TableId::MethodDef, rid, md::col::MethodDef::Rva);
  d.body = il::read_body(m, rid);
  if (!d.body) {
    d.error = d.body.error().to_string();
    return d;
  }
  d.code = il::decode_code(d.body->code, d.body->code_file_offset);
  if (!d.code) {
    Error e = d.code.error();
    e.structure = fmt::format("MethodDef 0x{:08X} code", md::make_token(TableId::MethodDef, rid));
    d.error = e.to_string();
  }
  return d;
}

std::string token_string(uint32_t token) { return fmt::format("0x{:08X}", token); }

/// A method's sequence points, with the text the listing notes for each.
struct MethodLines {
  Expected<md::MethodSequencePoints> points = md::MethodSequencePoints{};
  std::vector<il::SourceLine> lines;
};

MethodLines method_lines(const md::PortablePdb* pdb, uint32_t rid) {
  MethodLines out;
  if (!pdb) return out;
  out.points = pdb->sequence_points(rid);
  if (!out.points) {
    out.lines.push_back({0, "sequence points: " + out.points.error().to_string()});
    return out;
  }
  for (const auto& p : out.points->points) {
    if (p.hidden()) {
      out.lines.push_back({p.offset, "hidden"});
      continue;
    }
    out.lines.push_back({p.offset, fmt::format("{}:{}", file_name(pdb->document_name(p.document)), p.start_line)});
  }
  return out;
}

void json_points(const md::PortablePdb& pdb, const MethodLines& lines, JsonWriter& j) {
  if (!lines.points) {
    j.key("sequencePointsError").value(lines.points.error().to_string());
    return;
  }
  j.key("sequencePoints").begin_array();
  for (const auto& p : lines.points->points) {
    j.begin_object(true);
    j.key("offset").value(uint64_t{p.offset});
    if (p.hidden()) {
      j.key("hidden").value(true);
    } else {
      j.key("document").value(pdb.document_name(p.document));
      j.key("startLine").value(uint64_t{p.start_line});
      j.key("startColumn").value(uint64_t{p.start_column});
      j.key("endLine").value(uint64_t{p.end_line});
      j.key("endColumn").value(uint64_t{p.end_column});
    }
    j.end_object();
  }
  j.end_array();
}

void json_method(md::Printer& printer, const MethodDump& d, const md::PortablePdb* pdb, JsonWriter& j) {
  j.begin_object(true);
  j.key("token").value(token_string(md::make_token(TableId::MethodDef, d.rid)));
  j.key("name").value(printer.method_name(d.rid));
  j.key("rva").value(uint64_t{d.rva});
  if (!d.error.empty()) {
    j.key("error").value(d.error);
    j.end_object();
    return;
  }
  const il::MethodBody& b = *d.body;
  j.key("codeSize").value(uint64_t{b.code_size});
  j.key("maxStack").value(unsigned{b.max_stack});
  if (b.local_sig_token) j.key("localsToken").value(token_string(b.local_sig_token));
  else j.key("localsToken").null();
  j.key("initLocals").value(b.init_locals());
  j.key("ehClauses").begin_array();
  for (const auto& c : b.clauses) {
    j.begin_object();
    j.key("kind").value(il::clause_kind_name(c.kind));
    j.key("tryOffset").value(uint64_t{c.try_offset});
    j.key("tryLength").value(uint64_t{c.try_length});
    j.key("handlerOffset").value(uint64_t{c.handler_offset});
    j.key("handlerLength").value(uint64_t{c.handler_length});
    if (c.kind == il::ClauseKind::Catch) j.key("catchType").value(token_string(c.class_token));
    if (c.kind == il::ClauseKind::Filter) j.key("filterOffset").value(uint64_t{c.filter_offset});
    j.end_object();
  }
  j.end_array();
  j.key("instructions").value(uint64_t{d.code->instructions.size()});
  if (pdb) json_points(*pdb, method_lines(pdb, d.rid), j);
  j.end_object();
}

}  // namespace

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
  if (args.count("method")) filter.include = args["method"].as<std::vector<std::string>>();

  auto module = md::Module::load(file);
  if (!module) {
    print_error(file, module.error());
    return exit_code_for(module.error());
  }
  const md::Module& m = **module;
  md::Printer printer(m);
  std::vector<uint32_t> methods = select_methods(m, printer, filter);
  // Source lines from the PDB, when there is a usable one. A PDB that is simply not there is not
  // worth a warning (most assemblies' are elsewhere); one that is there and cannot be used is.
  il::PdbSource pdb;
  if (auto entries = pe::read_debug_directory(m.image())) {
    pdb = il::find_pdb(m, *entries, pdb_options(args.count("pdb") ? args["pdb"].as<std::string>() : "", file));
    for (const auto& note : pdb.notes) print_warning(file, note);
    if (!pdb.pdb && pdb.warn && !pdb.missing) print_warning(file, fmt::format("{}; no source lines shown", pdb.reason));
  }

  size_t bad = 0;
  std::string first_error;
  std::string out;
  if (args.count("json")) {
    JsonWriter j;
    j.begin_object();
    j.key("assembly").value(assembly_name(m));
    j.key("mvid").value(module_mvid(m));
    j.key("methods").begin_array();
    for (uint32_t rid : methods) {
      MethodDump d = load_method(m, rid);
      if (!d.error.empty() && bad++ == 0) first_error = d.error;
      json_method(printer, d, pdb.pdb.get(), j);
    }
    j.end_array();
    j.end_object();
    out = j.text();
  } else {
    out = fmt::format("// assembly {}, mvid {}\n", md::printable(assembly_name(m)), module_mvid(m));
    il::ListingOptions listing;
    for (uint32_t rid : methods) {
      MethodDump d = load_method(m, rid);
      if (!d.error.empty() && bad++ == 0) first_error = d.error;
      out += '\n';
      MethodLines lines = method_lines(pdb.pdb.get(), rid);
      listing.lines = lines.lines;
      il::list_method(printer, rid, d.rva, d.body ? &*d.body : nullptr, d.code ? &*d.code : nullptr, d.error, listing, out);
    }
  }
  if (bad) print_warning(file, fmt::format("{} method bod{} could not be read; the first: {}", bad, bad == 1 ? "y" : "ies", first_error));
  return write_stdout(out) ? kExitOk : kExitOutput;
}

}  // namespace cil::cli
