// Instruction decoding driven by the opcode table.
#include <fmt/format.h>

#include "il/instruction.h"
#include "support/byte_reader.h"

namespace cil::il {

Status decode_code_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out) {
  out.instructions.clear();
  out.switch_targets.clear();
  out.instructions.reserve(code.size() / 2 + 1);
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
    switch (op_info(in.op).operand) {
      case Operand::None: break;
      case Operand::ShortI: in.value = static_cast<int8_t>(CIL_TRY(r.u8())); break;
      case Operand::ShortU:
      case Operand::ShortVar: in.value = CIL_TRY(r.u8()); break;
      case Operand::Var: in.value = CIL_TRY(r.u16()); break;
      case Operand::I: in.value = static_cast<int32_t>(CIL_TRY(r.u32())); break;
      case Operand::I8: in.value = static_cast<int64_t>(CIL_TRY(r.u64())); break;
      case Operand::ShortR: {
        uint32_t bits = CIL_TRY(r.u32());
        float f;
        std::memcpy(&f, &bits, 4);
        in.real = f;
        in.value = bits;
        break;
      }
      case Operand::R: {
        uint64_t bits = CIL_TRY(r.u64());
        std::memcpy(&in.real, &bits, 8);
        in.value = static_cast<int64_t>(bits);
        break;
      }
      case Operand::ShortBr: {
        int8_t delta = static_cast<int8_t>(CIL_TRY(r.u8()));
        in.value = static_cast<int64_t>(r.position()) + delta;
        break;
      }
      case Operand::Br: {
        int32_t delta = static_cast<int32_t>(CIL_TRY(r.u32()));
        in.value = static_cast<int64_t>(r.position()) + delta;
        break;
      }
      case Operand::Switch: {
        uint32_t n = CIL_TRY(r.u32());
        if (n > r.remaining() / 4)
          return r.error_at(in.offset, fmt::format("switch with {} targets runs past the end of the code", n));
        int64_t base = static_cast<int64_t>(r.position()) + int64_t{n} * 4;
        in.value = static_cast<int64_t>(out.switch_targets.size());
        in.count = n;
        for (uint32_t i = 0; i < n; ++i)
          out.switch_targets.push_back(base + static_cast<int32_t>(CIL_TRY(r.u32())));
        break;
      }
      default:  // tokens
        in.value = CIL_TRY(r.u32());
        break;
    }
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
