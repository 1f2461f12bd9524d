// Method bodies as listing values: operands as ildasm text, targets as offsets, clauses.
#include "il/disassembler.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>


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

bool has_token(Operand operand) {
  switch (operand) {
    case Operand::Method: case Operand::Field: case Operand::Type: case Operand::String: case Operand::Sig: case Operand::Tok:
      return true;
    default:
      return false;
  }
}

/// The operand's text; branches and switch have none (their targets are offsets).
std::string operand_text(md::Printer& p, const Instruction& in) {
  switch (in.info().operand) {
    case Operand::None:
    case Operand::ShortBr:
    case Operand::Br:
    case Operand::Switch: return "";
    case Operand::ShortI:
    case Operand::ShortU:
    case Operand::I: return fmt::format("{}", in.value);
    case Operand::I8: return fmt::format("0x{:x}", static_cast<uint64_t>(in.value));
    case Operand::ShortR:
    case Operand::R: return format_real(in);
    case Operand::Method: return p.method_token(md::Token(static_cast<uint32_t>(in.value)));
    case Operand::Field: return p.field_token(md::Token(static_cast<uint32_t>(in.value)));
    case Operand::Type: return p.type_token(md::Token(static_cast<uint32_t>(in.value)));
    case Operand::String: return p.user_string(md::Token(static_cast<uint32_t>(in.value)));
    case Operand::Sig: return p.standalone_method_sig(md::Token(static_cast<uint32_t>(in.value)));
    case Operand::Tok: return p.any_token(md::Token(static_cast<uint32_t>(in.value)));
    case Operand::ShortVar:
    case Operand::Var: return fmt::format("{}_{}", is_argument_op(in.op) ? 'A' : 'V', in.value);
  }
  return "";
}

}  // namespace

std::string format_real(const Instruction& in) {
  bool single = in.info().operand == Operand::ShortR;
  if (!std::isfinite(in.real())) {
    // ildasm prints non-finite constants as their bytes.
    std::string out = "(";
    for (int i = 0; i < (single ? 4 : 8); ++i) {
      if (i) out += ' ';
      out += fmt::format("{:02X}", static_cast<unsigned>((static_cast<uint64_t>(in.value) >> (8 * i)) & 0xFF));
    }
    return out + ")";
  }
  std::string text = single ? fmt::format("{}", static_cast<float>(in.real())) : fmt::format("{}", in.real());
  if (text.find_first_of(".e") == std::string::npos) text += '.';
  return text;
}

std::vector<int64_t> MethodListing::label_offsets() const {
  std::vector<int64_t> offsets(targets);
  for (const auto& c : clauses) {
    offsets.push_back(c.try_offset);
    offsets.push_back(c.try_end());
    offsets.push_back(c.handler_offset);
    offsets.push_back(c.handler_end());
    if (c.kind == ClauseKind::Filter) offsets.push_back(c.filter_offset);
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  return offsets;
}

MethodListing list_method(md::Printer& printer, md::MethodDefId method, uint32_t rva, const MethodBody* body,
                          const DecodedCode* code, std::string error) {
  MethodListing m;
  m.token = method.token();
  m.name = printer.method_name(method);
  m.header = printer.method_header(method);
  m.rva = rva;
  if (!body || !code) {
    m.error = std::move(error);
    return m;
  }
  m.code_size = body->code_size;
  m.fat = body->fat;
  m.max_stack = body->max_stack;
  m.locals_token = body->local_sig_token;
  m.init_locals = body->init_locals();
  m.locals = printer.locals(body->local_sig_token, body->init_locals());
  m.instructions.reserve(code->instructions.size());
  for (const auto& in : code->instructions) {
    ListedInstruction& out = m.instructions.emplace_back();
    out.offset = in.offset;
    out.op = in.op;
    out.operand = operand_text(printer, in);
    if (has_token(in.info().operand)) out.token = md::Token(static_cast<uint32_t>(in.value));
    out.first_target = static_cast<uint32_t>(m.targets.size());
    if (is_branch_operand(in.info().operand)) m.targets.push_back(in.value);
    if (in.info().operand == Operand::Switch)
      for (int64_t t : code->targets_of(in)) m.targets.push_back(t);
    out.target_count = static_cast<uint32_t>(m.targets.size() - out.first_target);
  }
  for (const auto& c : body->clauses) {
    ListedClause& out = m.clauses.emplace_back();
    out.kind = c.kind;
    out.try_offset = c.try_offset;
    out.try_length = c.try_length;
    out.handler_offset = c.handler_offset;
    out.handler_length = c.handler_length;
    if (c.kind == ClauseKind::Filter) out.filter_offset = c.filter_offset;
    if (c.kind == ClauseKind::Catch) {
      out.class_token = c.class_token;
      out.catch_type = printer.type_token(c.class_token);
    }
  }
  return m;
}

}  // namespace cil::il
