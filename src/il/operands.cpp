// Writing opcodes and operands, the counterpart of read_operand (operands.h).
#include "il/operands.h"

namespace cil::il {

namespace {

template <class T>
void append(std::vector<uint8_t>& out, T value) {
  uint8_t bytes[sizeof(T)];
  store_le(bytes, value);
  out.insert(out.end(), bytes, bytes + sizeof(T));
}

}  // namespace

void write_opcode(std::vector<uint8_t>& out, Op op) {
  const OpInfo& info = op_info(op);
  if (info.two_byte()) out.push_back(0xFE);
  out.push_back(static_cast<uint8_t>(info.code & 0xFF));
}

void write_instruction(std::vector<uint8_t>& out, Op op, int64_t operand) {
  write_opcode(out, op);
  switch (op_info(op).operand) {
    case Operand::None: break;
    case Operand::ShortI:
    case Operand::ShortU:
    case Operand::ShortVar:
    case Operand::ShortBr: out.push_back(static_cast<uint8_t>(operand)); break;
    case Operand::Var: append(out, static_cast<uint16_t>(operand)); break;
    case Operand::I:
    case Operand::ShortR:
    case Operand::Br:
    case Operand::Switch:
    case Operand::Method:
    case Operand::Field:
    case Operand::Type:
    case Operand::String:
    case Operand::Sig:
    case Operand::Tok: append(out, static_cast<uint32_t>(operand)); break;
    case Operand::I8:
    case Operand::R: append(out, static_cast<uint64_t>(operand)); break;
  }
}

void write_switch_target(std::vector<uint8_t>& out, int32_t displacement) { append(out, displacement); }

}  // namespace cil::il
