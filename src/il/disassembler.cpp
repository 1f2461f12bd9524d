// Rendering of instructions and exception clauses into the dump's text form.
#include "il/disassembler.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "metadata/text_encoding.h"

namespace cil::il {

namespace {

bool is_argument_op(Op op) {
  switch (op) {
    case Op::Ldarg_S: case Op::Ldarga_S: case Op::Starg_S: case Op::Ldarg: case Op::Ldarga: case Op::Starg:
      return true;
    default:
      return false;
  }
}

class Labels {
 public:
  Labels(const DecodedCode* code, const MethodBody* body, bool normalize) : normalize_(normalize) {
    if (!normalize || !code) return;
    std::vector<int64_t> targets;
    for (const auto& in : code->instructions) {
      if (is_branch_operand(in.info().operand)) targets.push_back(in.value);
      if (in.info().operand == Operand::Switch)
        for (int64_t t : code->targets_of(in)) targets.push_back(t);
    }
    for (const auto& c : body->clauses) {
      targets.push_back(c.try_offset);
      targets.push_back(int64_t{c.try_offset} + c.try_length);
      targets.push_back(c.handler_offset);
      targets.push_back(int64_t{c.handler_offset} + c.handler_length);
      if (c.kind == ClauseKind::Filter) targets.push_back(c.filter_offset);
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (size_t i = 0; i < targets.size(); ++i) names_[targets[i]] = static_cast<uint32_t>(i + 1);
  }
  std::string operator()(int64_t target) const {
    if (!normalize_) return target >= 0 && target <= 0xFFFFFFFF ? fmt::format("IL_{:04x}", target) : fmt::format("IL_?{}", target);
    auto it = names_.find(target);
    return it == names_.end() ? fmt::format("L?{}", target) : fmt::format("L{}", it->second);
  }
  bool is_target(int64_t offset) const { return names_.count(offset) != 0; }

 private:
  bool normalize_;
  std::map<int64_t, uint32_t> names_;
};

std::string operand_text(md::Printer& p, const Instruction& in, const DecodedCode& code, const Labels& label) {
  switch (in.info().operand) {
    case Operand::None: return "";
    case Operand::ShortI:
    case Operand::ShortU:
    case Operand::I: return fmt::format("{}", in.value);
    case Operand::I8: return fmt::format("0x{:x}", static_cast<uint64_t>(in.value));
    case Operand::ShortR:
    case Operand::R: return format_real(in);
    case Operand::ShortBr:
    case Operand::Br: return label(in.value);
    case Operand::Switch: {
      std::string out = "(";
      bool first = true;
      for (int64_t t : code.targets_of(in)) {
        if (!first) out += ", ";
        out += label(t);
        first = false;
      }
      return out + ")";
    }
    case Operand::Method: return p.method_token(static_cast<uint32_t>(in.value));
    case Operand::Field: return p.field_token(static_cast<uint32_t>(in.value));
    case Operand::Type: return p.type_token(static_cast<uint32_t>(in.value));
    case Operand::String: return p.user_string(static_cast<uint32_t>(in.value));
    case Operand::Sig: return p.standalone_method_sig(static_cast<uint32_t>(in.value));
    case Operand::Tok: return p.any_token(static_cast<uint32_t>(in.value));
    case Operand::ShortVar:
    case Operand::Var: return fmt::format("{}_{}", is_argument_op(in.op) ? 'A' : 'V', in.value);
  }
  return "";
}

}  // namespace

std::string format_real(const Instruction& in) {
  bool single = in.info().operand == Operand::ShortR;
  if (!std::isfinite(in.real)) {
    // ildasm prints non-finite constants as their bytes.
    std::string out = "(";
    for (int i = 0; i < (single ? 4 : 8); ++i) {
      if (i) out += ' ';
      out += fmt::format("{:02X}", static_cast<unsigned>((static_cast<uint64_t>(in.value) >> (8 * i)) & 0xFF));
    }
    return out + ")";
  }
  std::string text = single ? fmt::format("{}", static_cast<float>(in.real)) : fmt::format("{}", in.real);
  if (text.find_first_of(".e") == std::string::npos) text += '.';
  return text;
}

void list_method(md::Printer& printer, uint32_t rid, uint32_t rva, const MethodBody* body, const DecodedCode* code,
                 const std::string& error, const ListingOptions& options, std::string& out) {
  // The plain name, as patterns match it, made safe for a terminal; the rest is ILAsm syntax,
  // whose quoted names are escaped already.
  out += fmt::format("// 0x{:08X} {}\n", md::make_token(md::TableId::MethodDef, rid), md::printable(printer.method_name(rid)));
  out += printer.method_header(rid);
  out += "\n{\n";
  if (!options.normalize_labels) out += fmt::format("  // rva 0x{:08x}\n", rva);
  if (!body || !code) {
    out += fmt::format("  // error: {}\n}}\n", md::printable(error));
    return;
  }
  out += fmt::format("  // code size {} (0x{:x}), {} header\n", body->code_size, body->code_size, body->fat ? "fat" : "tiny");
  out += fmt::format("  .maxstack {}\n", body->max_stack);
  std::string locals = printer.locals(body->local_sig_token, body->init_locals());
  if (!locals.empty()) {
    out += "  " + locals;
    if (!options.normalize_labels) out += fmt::format(" // 0x{:08X}", body->local_sig_token);
    out += "\n";
  }
  Labels label(code, body, options.normalize_labels);
  size_t next_line = 0;
  for (const auto& in : code->instructions) {
    for (; next_line < options.lines.size() && options.lines[next_line].offset <= in.offset; ++next_line)
      out += fmt::format("  // {}\n", options.lines[next_line].text);
    std::string operand = operand_text(printer, in, *code, label);
    if (options.normalize_labels) {
      std::string prefix = label.is_target(in.offset) ? label(in.offset) + ":" : "";
      out += fmt::format("  {:<5} {}", prefix, in.info().name);
    } else {
      out += fmt::format("  IL_{:04x}: {}", in.offset, in.info().name);
    }
    if (!operand.empty()) {
      out += ' ';
      out += operand;
    }
    out += '\n';
  }
  for (const auto& c : body->clauses) {
    out += fmt::format("  .try {} to {} ", label(c.try_offset), label(int64_t{c.try_offset} + c.try_length));
    switch (c.kind) {
      case ClauseKind::Catch: out += "catch " + printer.type_token(c.class_token); break;
      case ClauseKind::Filter: out += "filter " + label(c.filter_offset); break;
      case ClauseKind::Finally: out += "finally"; break;
      case ClauseKind::Fault: out += "fault"; break;
    }
    out += fmt::format(" handler {} to {}\n", label(c.handler_offset), label(int64_t{c.handler_offset} + c.handler_length));
  }
  out += "}\n";
}

}  // namespace cil::il
