// Opcode queries over the table of opcode.h (expanded there from opcodes.def).
#include "il/opcode.h"

#include <array>

namespace cil::il {

using detail::kOps;
using detail::kTables;

std::span<const OpInfo> all_ops() { return kOps; }

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

Op long_branch_form(Op op) {
  int16_t other = kTables.branch_pair[static_cast<size_t>(op)];
  return op_info(op).operand == Operand::ShortBr && other >= 0 ? static_cast<Op>(other) : op;
}

Op short_branch_form(Op op) {
  int16_t other = kTables.branch_pair[static_cast<size_t>(op)];
  return op_info(op).operand == Operand::Br && other >= 0 ? static_cast<Op>(other) : op;
}

}  // namespace cil::il
