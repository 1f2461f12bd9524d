// Operand bytes (III.1.2, III.1.9), read and written in one place from the Operand column of
// opcodes.def: the decoder reads through read_operand, every encoder writes through
// write_instruction. Header-only: both run once per instruction and must inline.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "il/instruction.h"
#include "support/byte_reader.h"

namespace cil::il {

static_assert([] {
  for (const OpInfo& info : detail::kOps)
    if ((info.operand == Operand::Switch) != (info.op == Op::Switch)) return false;
  return true;
}(), "instruction_size assumes Op::Switch is the only opcode with a switch operand");

/// Bytes of `op` with its operand; a switch with `switch_targets` targets.
inline uint32_t instruction_size(Op op, size_t switch_targets = 0) {
  uint32_t size = detail::kFixedSizes[static_cast<size_t>(op)];
  if (op == Op::Switch) size += 4 * static_cast<uint32_t>(switch_targets);  // the only opcode with that operand
  return size;
}

/// Reads the operand of `in.op` from `r`, whose cursor is just past the opcode, into `in`.
/// Branch targets become absolute: the displacement counts from the end of the instruction
/// (III.3.15). A switch's targets are appended to `switch_targets`. Inline: the decoder runs it
/// for every instruction of every body.
[[gnu::always_inline]] inline Status read_operand(ByteReader& r, Instruction& in, std::vector<int64_t>& switch_targets) {
  switch (operand_of(in.op)) {
    case Operand::None: break;
    case Operand::ShortI: in.value = static_cast<int8_t>(CIL_TRY(r.u8())); break;
    case Operand::ShortU:
    case Operand::ShortVar: in.value = CIL_TRY(r.u8()); break;
    case Operand::Var: in.value = CIL_TRY(r.u16()); break;
    case Operand::I: in.value = static_cast<int32_t>(CIL_TRY(r.u32())); break;
    case Operand::I8: in.value = static_cast<int64_t>(CIL_TRY(r.u64())); break;
    case Operand::ShortR: in.value = CIL_TRY(r.u32()); break;
    case Operand::R: in.value = static_cast<int64_t>(CIL_TRY(r.u64())); break;
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
      in.value = static_cast<int64_t>(switch_targets.size());
      in.count = n;
      for (uint32_t i = 0; i < n; ++i) switch_targets.push_back(base + static_cast<int32_t>(CIL_TRY(r.u32())));
      break;
    }
    case Operand::Method:
    case Operand::Field:
    case Operand::Type:
    case Operand::String:
    case Operand::Sig:
    case Operand::Tok: in.value = CIL_TRY(r.u32()); break;
  }
  return ok();
}

/// Writes `op` and its operand at `p`, which has room for instruction_size(op) bytes, and returns
/// the end. `operand` is what the decoder puts in Instruction::value: the constant, token,
/// argument or local index, or the raw bits of a real; for a branch, the displacement from the
/// end of the instruction (the caller has chosen a form it fits); for a switch, the number of
/// targets, whose displacements follow (put_switch_target). Inline, like read_operand: the
/// encoder runs it for every instruction.
[[gnu::always_inline]] inline uint8_t* put_instruction(uint8_t* p, Op op, int64_t operand) {
  const OpInfo& info = op_info(op);
  if (info.two_byte()) *p++ = 0xFE;
  *p++ = static_cast<uint8_t>(info.code & 0xFF);
  switch (info.operand) {
    case Operand::None: break;
    case Operand::ShortI:
    case Operand::ShortU:
    case Operand::ShortVar:
    case Operand::ShortBr: *p++ = static_cast<uint8_t>(operand); break;
    case Operand::Var:
      store_le(p, static_cast<uint16_t>(operand));
      p += 2;
      break;
    case Operand::I:
    case Operand::ShortR:
    case Operand::Br:
    case Operand::Switch:
    case Operand::Method:
    case Operand::Field:
    case Operand::Type:
    case Operand::String:
    case Operand::Sig:
    case Operand::Tok:
      store_le(p, static_cast<uint32_t>(operand));
      p += 4;
      break;
    case Operand::I8:
    case Operand::R:
      store_le(p, static_cast<uint64_t>(operand));
      p += 8;
      break;
  }
  return p;
}

/// One switch displacement (from the end of the switch instruction) at `p`; returns the end.
inline uint8_t* put_switch_target(uint8_t* p, int32_t displacement) {
  store_le(p, displacement);
  return p + 4;
}

/// Appends `op` and its operand (put_instruction).
inline void write_instruction(std::vector<uint8_t>& out, Op op, int64_t operand) {
  uint8_t bytes[16];
  uint8_t* end = put_instruction(bytes, op, operand);
  out.insert(out.end(), bytes, end);
}

}  // namespace cil::il
