// A decoded CIL instruction, with its operand in raw form (offsets, tokens, numbers).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "il/opcode.h"
#include "support/error.h"

namespace cil::il {

struct Instruction {
  uint32_t offset = 0;  ///< from the start of the code
  uint32_t size = 0;    ///< opcode and operand bytes
  /// Integer operand: constant, token, argument/local index, or absolute branch target (which
  /// may lie outside the code in a malformed body). For switch: index of the first target in
  /// DecodedCode::switch_targets. For ldc.r4 / ldc.r8: the constant's bits (real()).
  int64_t value = 0;
  uint32_t count = 0;   ///< switch: number of targets
  Op op = Op::Nop;

  const OpInfo& info() const { return op_info(op); }
  /// ldc.r4 / ldc.r8: the constant, from its bits in `value`.
  double real() const {
    if (info().operand == Operand::ShortR) {
      float f;
      auto bits = static_cast<uint32_t>(value);
      std::memcpy(&f, &bits, 4);
      return f;
    }
    double d;
    std::memcpy(&d, &value, 8);
    return d;
  }
};
static_assert(sizeof(Instruction) == 24, "decoded bodies are arrays of these: keep them small");

struct DecodedCode {
  std::vector<Instruction> instructions;
  std::vector<int64_t> switch_targets;  ///< absolute targets of every switch, in order
  /// Indexes in `instructions` of every branch and switch, in order: what has targets, so that
  /// resolving them need not look at every instruction.
  std::vector<uint32_t> jumps;
  /// How many instructions decode_code_into read through its checked path (switches, the end
  /// of a malformed code) rather than its fast loop: work done, for the tests.
  size_t checked = 0;

  std::span<const int64_t> targets_of(const Instruction& in) const {
    return std::span<const int64_t>(switch_targets).subspan(static_cast<size_t>(in.value), in.count);
  }
};

/// Decodes every instruction of `code`. Fails on an unknown opcode or an operand that runs
/// past the end; `file_offset` (of code[0]) makes the error point into the file.
Expected<DecodedCode> decode_code(std::span<const uint8_t> code, uint64_t file_offset);
/// The same into `out`, whose buffers are reused (for loops over many bodies).
Status decode_code_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out);
/// The same, with every instruction read through the checked path that decode_code_into keeps
/// for what its fast loop leaves (a switch, an unknown opcode, the end of the code): the
/// reference the tests hold the fast loop to. Same result, same errors.
Status decode_code_checked_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out);

}  // namespace cil::il
