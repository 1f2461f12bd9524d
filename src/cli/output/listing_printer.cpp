// Method listings through the scoped printer: ildasm-like lines in text, body facts in JSON.
#include "cli/output/listing_printer.h"

#include <algorithm>

#include <fmt/format.h>

#include "instrument/pdb_files.h"
#include "il/body_reader.h"
#include "metadata/text_encoding.h"
#include "metadata/token_text.h"

namespace cil::cli {

LabelNames LabelNames::numbered(const il::MethodListing& listing) {
  std::vector<std::pair<int64_t, uint32_t>> numbers;
  std::vector<int64_t> offsets = listing.label_offsets();
  numbers.reserve(offsets.size());
  for (size_t i = 0; i < offsets.size(); ++i) numbers.emplace_back(offsets[i], static_cast<uint32_t>(i + 1));
  return with_numbers(std::move(numbers));
}

LabelNames LabelNames::with_numbers(std::vector<std::pair<int64_t, uint32_t>> numbers) {
  LabelNames names;
  names.labels_ = true;
  names.numbers_ = std::move(numbers);
  std::sort(names.numbers_.begin(), names.numbers_.end());
  return names;
}

uint32_t LabelNames::number(int64_t offset) const {
  auto it = std::lower_bound(numbers_.begin(), numbers_.end(), std::pair<int64_t, uint32_t>(offset, 0));
  return it != numbers_.end() && it->first == offset ? it->second : 0;
}

namespace {

/// "IL_" and at least four lowercase hex digits, as fmt's "IL_{:04x}" gives, without a format
/// string to parse: dumps write one per instruction.
std::string il_label(uint32_t offset) {
  char digits[8];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[offset & 0xF];
    offset >>= 4;
  } while (offset);
  std::string out = "IL_";
  for (int i = n; i < 4; ++i) out += '0';
  while (n) out += digits[--n];
  return out;
}

}  // namespace

std::string LabelNames::operator()(int64_t offset) const {
  if (!labels_) return offset >= 0 && offset <= 0xFFFFFFFF ? il_label(static_cast<uint32_t>(offset)) : fmt::format("IL_?{}", offset);
  uint32_t n = number(offset);
  return n ? "L" + std::to_string(n) : fmt::format("L?{}", offset);
}

namespace {

/// The operand of a branch or switch as the text shows it: targets named by `labels`.
std::string targets_text(const il::MethodListing& m, const il::ListedInstruction& in, const LabelNames& labels) {
  if (in.is_branch()) return in.target_count ? labels(m.targets_of(in)[0]) : std::string();
  std::string out = "(";
  bool first = true;
  for (int64_t t : m.targets_of(in)) {
    if (!first) out += ", ";
    out += labels(t);
    first = false;
  }
  return out + ")";
}

/// One instruction: a line in text (where a per-instruction comment, such as a source line,
/// would be one more member of the row), an object in JSON.
void print_instruction(ScopedPrinter& p, const il::MethodListing& m, const il::ListedInstruction& in, const LabelNames& labels) {
  ObjectScope instruction(p, {}, Layout::one_row("  {} {}{}{}"));
  std::string where;
  if (!labels.are_labels()) where = il_label(in.offset) + ':';
  else if (labels.number(in.offset)) where = labels(in.offset) + ':';
  if (labels.are_labels() && where.size() < 5) where.append(5 - where.size(), ' ');  // "L12:" in a column of 5
  p.field("offset", Value(in.offset).text(std::move(where)));
  p.field("opcode", in.info().name);
  std::string named_targets;
  std::string_view operand = in.operand;
  if (in.is_branch() || in.is_switch()) operand = named_targets = targets_text(m, in, labels);
  p.field(Key::text_only(), operand.empty() ? "" : " ");
  p.field(Key("operand").json_if(!operand.empty()), operand);
  if (in.token) p.field(Key::json_only("token"), md::token_text(in.token));
  if (in.is_branch() && in.target_count) p.field(Key::json_only("target"), m.targets_of(in)[0]);
  if (in.is_switch()) {
    ListScope targets(p, Key::json_only("targets"), Layout().inline_json());
    for (int64_t t : m.targets_of(in)) p.field({}, t);
  }
}

const char* clause_text(il::ClauseKind kind) {
  switch (kind) {
    case il::ClauseKind::Catch: return "catch ";
    case il::ClauseKind::Filter: return "filter ";
    case il::ClauseKind::Finally: return "finally";
    case il::ClauseKind::Fault: return "fault";
  }
  return "";
}

/// One clause: `.try A to B catch T handler C to D` in text, offsets and lengths in JSON.
void print_clause(ScopedPrinter& p, const il::ListedClause& c, const LabelNames& labels) {
  ObjectScope clause(p, {}, Layout::one_row("  .try {1} to {2} {0} handler {3} to {4}"));
  std::string kind = clause_text(c.kind);
  if (c.kind == il::ClauseKind::Catch) kind += c.catch_type;
  if (c.kind == il::ClauseKind::Filter) kind += labels(c.filter_offset);
  p.field("kind", Value(il::clause_kind_name(c.kind)).text(std::move(kind)));
  p.field("tryOffset", Value(c.try_offset).text(labels(c.try_offset)));
  p.field("tryLength", Value(c.try_length).text(labels(c.try_end())));
  p.field("handlerOffset", Value(c.handler_offset).text(labels(c.handler_offset)));
  p.field("handlerLength", Value(c.handler_length).text(labels(c.handler_end())));
  if (c.kind == il::ClauseKind::Catch) p.field(Key::json_only("catchType"), md::token_text(c.class_token));
  if (c.kind == il::ClauseKind::Filter) p.field(Key::json_only("filterOffset"), c.filter_offset);
}

}  // namespace

il::MethodListing read_listing(const md::Module& m, md::Printer& printer, md::MethodDefId method) {
  uint32_t rva = m.row(method).rva();
  Expected<il::MethodBody> body = il::read_body(m, method);
  if (!body) return il::list_method(printer, method, rva, nullptr, nullptr, body.error().to_string());
  Expected<il::DecodedCode> code = il::decode_code(body->code, body->code_file_offset);
  if (!code) {
    // The decoder knows offsets, not methods.
    Error e = code.error();
    e.structure = fmt::format("MethodDef 0x{:08X} code", method.token());
    return il::list_method(printer, method, rva, &*body, nullptr, e.to_string());
  }
  return il::list_method(printer, method, rva, &*body, &*code, {});
}

ListingSource ListingSource::of(const md::PortablePdb* pdb, md::MethodDefId method) {
  ListingSource source;
  source.pdb = pdb;
  if (pdb) source.points = pdb->sequence_points(method);
  return source;
}

namespace {

/// The text form's comment for a point: the document's file name and the start line.
std::string point_text(const md::PortablePdb& pdb, const md::SequencePoint& point) {
  if (point.hidden()) return "  // hidden";
  return fmt::format("  // {}:{}", md::printable(instrument::file_name(pdb.document_name(md::DocumentId(point.document)))), point.start_line);
}

/// JSON only: the method's sequence points (the text form notes them among the instructions).
void print_points(ScopedPrinter& p, const ListingSource& source) {
  if (!p.shows(Key::json_only("sequencePoints"))) return;
  if (!source.points) {
    p.field(Key::json_only("sequencePointsError"), source.points.error().to_string());
    return;
  }
  ListScope points(p, Key::json_only("sequencePoints"));
  for (const auto& point : source.points->points) {
    ObjectScope object(p, {}, Layout().inline_json());
    p.field(Key::json_only("offset"), point.offset);
    if (point.hidden()) {
      p.field(Key::json_only("hidden"), true);
      continue;
    }
    p.field(Key::json_only("document"), source.pdb->document_name(md::DocumentId(point.document)));
    p.field(Key::json_only("startLine"), point.start_line);
    p.field(Key::json_only("startColumn"), point.start_column);
    p.field(Key::json_only("endLine"), point.end_line);
    p.field(Key::json_only("endColumn"), point.end_column);
  }
}

}  // namespace

void print_listing(ScopedPrinter& p, const il::MethodListing& m, const LabelNames& labels, ListingStyle style,
                   const ListingSource& source) {
  bool dump = style == ListingStyle::Dump;
  Layout layout = Layout::plain();
  layout.blank_before = dump;
  ObjectScope method(p, {}, layout);
  std::string token = md::token_text(m.token);
  p.field(Key::json_only("token"), token);
  p.field(Key::json_only("name"), m.name);
  // The plain name, as patterns match it, made safe for a terminal; the header is ILAsm syntax,
  // whose quoted names are escaped already.
  if (dump) p.line(fmt::format("// {} {}", token, md::printable(m.name)));
  p.line(m.header);
  p.line("{");
  p.field(Key("rva").text_if(dump), Value(m.rva).text(fmt::format("  // rva 0x{:08x}", m.rva)));
  if (!m.error.empty()) {
    p.field("error", Value(m.error).text("  // error: " + md::printable(m.error)));
    p.line("}");
    return;
  }
  p.field("codeSize", Value(m.code_size).text(fmt::format("  // code size {} (0x{:x}), {} header", m.code_size, m.code_size,
                                                           m.fat ? "fat" : "tiny")));
  p.field("maxStack", Value(unsigned{m.max_stack}).text(fmt::format("  .maxstack {}", m.max_stack)));
  std::string locals = "  " + m.locals;
  if (dump) locals += fmt::format(" // 0x{:08X}", m.locals_token);
  p.field(Key("localsToken").text_if(!m.locals.empty()),
          (m.locals_token ? Value(md::token_text(m.locals_token)) : Value::null()).text(std::move(locals)));
  p.field(Key::json_only("initLocals"), m.init_locals);
  {
    ListScope instructions(p, "instructions");
    size_t next_point = 0;
    for (const auto& in : m.instructions) {
      if (source.pdb && p.shows(Key::text_only())) {
        if (!source.points) {
          if (&in == &m.instructions.front()) p.line("  // sequence points: " + md::printable(source.points.error().to_string()));
        } else {
          const auto& points = source.points->points;
          for (; next_point < points.size() && points[next_point].offset <= in.offset; ++next_point)
            p.line(point_text(*source.pdb, points[next_point]));
        }
      }
      print_instruction(p, m, in, labels);
    }
  }
  {
    ListScope clauses(p, "ehClauses");
    for (const auto& c : m.clauses) print_clause(p, c, labels);
  }
  if (source.pdb) print_points(p, source);
  p.line("}");
}

std::string diff_text(const il::MethodListing& listing, const LabelNames& labels) {
  auto p = make_text_printer();
  {
    ListScope methods(*p);
    print_listing(*p, listing, labels, ListingStyle::Diff);
  }
  return p->output().str();
}

}  // namespace cil::cli
