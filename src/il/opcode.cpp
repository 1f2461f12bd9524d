// Opcode queries over the table of opcode.h (expanded there from opcodes.def).
#include "il/opcode.h"

#include <array>

namespace cil::il {

using detail::kOps;
using detail::kTables;

std::span<const OpInfo> all_ops() { return kOps; }

Op long_branch_form(Op op) {
  int16_t other = kTables.branch_pair[static_cast<size_t>(op)];
  return op_info(op).operand == Operand::ShortBr && other >= 0 ? static_cast<Op>(other) : op;
}

Op short_branch_form(Op op) {
  int16_t other = kTables.branch_pair[static_cast<size_t>(op)];
  return op_info(op).operand == Operand::Br && other >= 0 ? static_cast<Op>(other) : op;
}

}  // namespace cil::il
