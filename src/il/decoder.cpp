// Instruction decoding driven by the opcode table: opcodes here, operands through read_operand.
#include <fmt/format.h>

#include "il/instruction.h"
#include "il/operands.h"
#include "support/byte_reader.h"

namespace cil::il {

Status decode_code_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out) {
  out.instructions.clear();
  out.switch_targets.clear();
  // At most one instruction a byte: the buffer never grows (and copies) in the middle of a body.
  out.instructions.reserve(code.size() + 1);
  ByteReader r(code, file_offset, "IL code");
  while (!r.at_end()) {
    Instruction in;
    in.offset = static_cast<uint32_t>(r.position());
    uint8_t b = CIL_TRY(r.u8());
    std::optional<Op> op;
    if (b == 0xFE) {
      uint8_t b2 = CIL_TRY(r.u8());
      op = op_from_fe_byte(b2);
      if (!op) return r.error_at(in.offset, fmt::format("unknown opcode 0xfe {:#04x} at IL_{:04x}", b2, in.offset));
    } else {
      op = op_from_byte(b);
      if (!op) return r.error_at(in.offset, fmt::format("unknown opcode {:#04x} at IL_{:04x}", b, in.offset));
    }
    in.op = *op;
    CIL_TRY(read_operand(r, in, out.switch_targets));
    in.size = static_cast<uint32_t>(r.position()) - in.offset;
    out.instructions.push_back(in);
  }
  return ok();
}

Expected<DecodedCode> decode_code(std::span<const uint8_t> code, uint64_t file_offset) {
  DecodedCode out;
  CIL_TRY(decode_code_into(code, file_offset, out));
  return out;
}

}  // namespace cil::il
