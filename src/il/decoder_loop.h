// The decoder's loops, for the decoder itself and for readers that look at each instruction as it
// is decoded rather than keep them (the output's self-check): one set of loops over the one
// opcode table, with where each instruction goes left to a sink. Internal to src/il.
#pragma once

#include <array>
#include <cstring>

#include <fmt/format.h>

#include "il/instruction.h"
#include "il/operands.h"
#include "support/byte_reader.h"

namespace cil::il::decoder_loop {

/// How the fast loop decodes an instruction, per first byte (and per second byte after 0xFE),
/// derived from the one opcode table: its opcode (-1: unassigned, or a switch, which the checked
/// decoding reads), its size, and how its operand becomes Instruction::value: the 8 bytes after
/// the opcode masked to the operand's size, sign-extended by shifting left and back by `shift`,
/// plus the offset of the next instruction for a branch. Indexed by the byte itself, so that an
/// instruction's size is one load away from its first byte.
struct FastOp {
  uint64_t mask = 0;
  int16_t op = -1;
  uint8_t size = 0;    ///< opcode and operand bytes (kFixedSizes)
  uint8_t opcode = 0;  ///< opcode bytes
  uint8_t shift = 0;   ///< 64 - 8 * operand bytes for a signed operand, else 0
  bool relative = false;
};

struct FastTables {
  std::array<FastOp, 256> one{};
  std::array<FastOp, 256> two{};
};

inline constexpr FastTables kFast = [] {
  FastTables t;
  for (size_t i = 0; i < kOpCount; ++i) {
    const OpInfo& info = detail::kOps[i];
    if (info.operand == Operand::Switch) continue;
    unsigned bytes = operand_size(info.operand);
    FastOp& f = info.two_byte() ? t.two[info.code & 0xFF] : t.one[info.code];
    f.op = static_cast<int16_t>(i);
    f.mask = bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
    f.size = detail::kFixedSizes[i];
    f.opcode = info.opcode_size();
    bool is_signed = info.operand == Operand::ShortI || info.operand == Operand::I || info.operand == Operand::ShortBr ||
                     info.operand == Operand::Br;
    f.shift = is_signed ? static_cast<uint8_t>(64 - 8 * bytes) : 0;
    f.relative = info.operand == Operand::ShortBr || info.operand == Operand::Br;
  }
  return t;
}();

/// An instruction's bytes and the 8 bytes the fast loop loads after its opcode.
inline constexpr size_t kFastRoom = 2 + 8;

/// Decodes from `pos` while instructions start before `stop`, reading code[i] at src[i - first];
/// src holds at least kFastRoom bytes past every start before `stop`. Returns where it stopped:
/// at `stop` or after, or at an instruction it leaves to the checked decoding (a switch, an
/// unknown opcode, or one that runs past the end of the code).
template <class Sink>
inline size_t decode_fast(const uint8_t* src, size_t first, size_t pos, size_t stop, size_t code_size,
                          Sink& out) {
  while (pos < stop) {
    const uint8_t* p = src + (pos - first);
    const FastOp& f = p[0] == 0xFE ? kFast.two[p[1]] : kFast.one[p[0]];
    if (f.op < 0 || f.size > code_size - pos) break;
    uint64_t raw = load_le<uint64_t>(p + f.opcode) & f.mask;
    auto value = static_cast<int64_t>(raw << f.shift) >> f.shift;
    size_t end = pos + f.size;
    if (f.relative) value += static_cast<int64_t>(end);
    out.add(Instruction{.offset = static_cast<uint32_t>(pos), .size = f.size, .value = value, .count = 0, .op = static_cast<Op>(f.op)});
    if (f.relative) out.add_jump();
    pos = end;
  }
  return pos;
}

/// Decodes the instruction at r.position() with every read checked: the reference the fast
/// loop agrees with, and what reads (or names the error in) whatever the fast loop leaves.
template <class Sink>
Status decode_checked(ByteReader& r, Sink& out) {
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
  CIL_TRY(read_operand(r, in, out.switch_targets()));
  in.size = static_cast<uint32_t>(r.position()) - in.offset;
  out.add(in);
  if (is_branch_operand(operand_of(in.op)) || operand_of(in.op) == Operand::Switch) out.add_jump();
  out.add_checked();
  return ok();
}

/// Decodes every instruction of `code` into `out`: add(const Instruction&) for each, in order,
/// followed by add_jump() for a branch or switch; switch_targets() the vector a switch's targets
/// are appended to; add_checked() for each instruction read through the checked path. What
/// decode_code_into does with a DecodedCode.
template <class Sink>
Status decode_code_with(std::span<const uint8_t> code, uint64_t file_offset, Sink& out) {
  ByteReader r(code, file_offset, "IL code");
  const size_t size = code.size();
  size_t pos = 0;
  while (pos < size) {
    // The fast loop: one comparison bounds an instruction, and its operand is read without a
    // branch on its kind; the last bytes are decoded from a zero-padded copy, so that the loop
    // never loads past the code. A switch, an unknown opcode and an instruction that runs past
    // the end go to the checked decoding, which reads them (or names the error) as always.
    if (pos + kFastRoom <= size) pos = decode_fast(code.data(), 0, pos, size - kFastRoom + 1, size, out);
    if (pos < size && pos + kFastRoom > size) {
      uint8_t tail[2 * kFastRoom + 4] = {};
      std::memcpy(tail, code.data() + pos, size - pos);
      pos = decode_fast(tail, pos, pos, size, size, out);
    }
    if (pos >= size) break;
    CIL_TRY(r.seek(pos));
    CIL_TRY(decode_checked(r, out));
    pos = r.position();
  }
  return ok();
}

}  // namespace cil::il::decoder_loop
