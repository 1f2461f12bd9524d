// The opcode table expanded from opcodes.def, with its byte lookup tables.
#include "il/opcode.h"

#include <array>

namespace cil::il {

namespace {

constexpr OpInfo kOps[] = {
#define CIL_OPCODE(Enum, name, code, OperandKind, pops, pushes, FlowKind) \
  {Op::Enum, name, code, Operand::OperandKind, pops, pushes, Flow::FlowKind},
#include "il/opcodes.def"
#undef CIL_OPCODE
};
static_assert(std::size(kOps) == kOpCount);

struct ByteTables {
  std::array<int16_t, 256> one{};
  std::array<int16_t, 256> two{};
  /// For each branch opcode, its other form: "br.s" pairs with "br" (found by name).
  std::array<int16_t, kOpCount> branch_pair{};
};

constexpr ByteTables make_tables() {
  ByteTables t;
  for (auto& v : t.one) v = -1;
  for (auto& v : t.two) v = -1;
  for (size_t i = 0; i < kOpCount; ++i) {
    uint16_t code = kOps[i].code;
    if (code > 0xFF) t.two[code & 0xFF] = static_cast<int16_t>(i);
    else t.one[code] = static_cast<int16_t>(i);
  }
  for (auto& v : t.branch_pair) v = -1;
  for (size_t s = 0; s < kOpCount; ++s) {
    if (kOps[s].operand != Operand::ShortBr) continue;
    std::string_view short_name = kOps[s].name;
    std::string_view long_name = short_name.substr(0, short_name.size() - 2);  // drop ".s"
    for (size_t l = 0; l < kOpCount; ++l) {
      if (kOps[l].operand == Operand::Br && kOps[l].name == long_name) {
        t.branch_pair[s] = static_cast<int16_t>(l);
        t.branch_pair[l] = static_cast<int16_t>(s);
      }
    }
  }
  return t;
}

constexpr ByteTables kTables = make_tables();

}  // namespace

const OpInfo& op_info(Op op) { return kOps[static_cast<size_t>(op)]; }
std::span<const OpInfo> all_ops() { return kOps; }

std::optional<Op> op_from_byte(uint8_t byte) {
  int16_t i = kTables.one[byte];
  if (i < 0) return std::nullopt;
  return static_cast<Op>(i);
}

std::optional<Op> op_from_fe_byte(uint8_t byte) {
  int16_t i = kTables.two[byte];
  if (i < 0) return std::nullopt;
  return static_cast<Op>(i);
}

uint8_t operand_size(Operand operand) {
  switch (operand) {
    case Operand::None: return 0;
    case Operand::ShortI:
    case Operand::ShortU:
    case Operand::ShortBr:
    case Operand::ShortVar: return 1;
    case Operand::Var: return 2;
    case Operand::I8:
    case Operand::R: return 8;
    default: return 4;
  }
}

bool is_branch_operand(Operand operand) { return operand == Operand::ShortBr || operand == Operand::Br; }

bool is_token_operand(Operand operand) {
  switch (operand) {
    case Operand::Method:
    case Operand::Field:
    case Operand::Type:
    case Operand::String:
    case Operand::Sig:
    case Operand::Tok: return true;
    default: return false;
  }
}

Op long_branch_form(Op op) {
  int16_t other = kTables.branch_pair[static_cast<size_t>(op)];
  return op_info(op).operand == Operand::ShortBr && other >= 0 ? static_cast<Op>(other) : op;
}

Op short_branch_form(Op op) {
  int16_t other = kTables.branch_pair[static_cast<size_t>(op)];
  return op_info(op).operand == Operand::Br && other >= 0 ? static_cast<Op>(other) : op;
}

}  // namespace cil::il
