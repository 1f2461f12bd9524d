// A decoded CIL instruction, with its operand in raw form (offsets, tokens, numbers).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "il/opcode.h"
#include "support/error.h"

namespace cil::il {

struct Instruction {
  uint32_t offset = 0;  ///< from the start of the code
  Op op = Op::Nop;
  uint32_t size = 0;    ///< opcode and operand bytes
  /// Integer operand: constant, token, argument/local index, or absolute branch target (which
  /// may lie outside the code in a malformed body). For switch: index of the first target in
  /// DecodedCode::switch_targets.
  int64_t value = 0;
  double real = 0;      ///< ldc.r4 / ldc.r8
  uint32_t count = 0;   ///< switch: number of targets

  const OpInfo& info() const { return op_info(op); }
};

struct DecodedCode {
  std::vector<Instruction> instructions;
  std::vector<int64_t> switch_targets;  ///< absolute targets of every switch, in order

  std::span<const int64_t> targets_of(const Instruction& in) const {
    return std::span<const int64_t>(switch_targets).subspan(static_cast<size_t>(in.value), in.count);
  }
};

/// Decodes every instruction of `code`. Fails on an unknown opcode or an operand that runs
/// past the end; `file_offset` (of code[0]) makes the error point into the file.
Expected<DecodedCode> decode_code(std::span<const uint8_t> code, uint64_t file_offset);
/// The same into `out`, whose buffers are reused (for loops over many bodies).
Status decode_code_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out);

}  // namespace cil::il
