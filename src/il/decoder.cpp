// Instruction decoding driven by the opcode table: opcodes here, operands through read_operand.
#include <fmt/format.h>

#include "il/decoder_loop.h"
#include "il/instruction.h"

namespace cil::il {

namespace {

/// Where decode_code_into's loops put each instruction: the DecodedCode.
struct DecodedSink {
  DecodedCode& out;
  [[gnu::always_inline]] void add(const Instruction& in) { out.instructions.push_back(in); }
  void add_jump() { out.jumps.push_back(static_cast<uint32_t>(out.instructions.size() - 1)); }
  std::vector<int64_t>& switch_targets() { return out.switch_targets; }
  void add_checked() { ++out.checked; }
};

void start(std::span<const uint8_t> code, DecodedCode& out) {
  out.instructions.clear();
  out.switch_targets.clear();
  out.jumps.clear();
  out.checked = 0;
  // At most one instruction a byte: the buffer never grows (and copies) in the middle of a body.
  out.instructions.reserve(code.size() + 1);
}

}  // namespace

Status decode_code_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out) {
  start(code, out);
  DecodedSink sink{out};
  return decoder_loop::decode_code_with(code, file_offset, sink);
}

Status decode_code_checked_into(std::span<const uint8_t> code, uint64_t file_offset, DecodedCode& out) {
  start(code, out);
  DecodedSink sink{out};
  ByteReader r(code, file_offset, "IL code");
  while (!r.at_end()) CIL_TRY(decoder_loop::decode_checked(r, sink));
  return ok();
}

Expected<DecodedCode> decode_code(std::span<const uint8_t> code, uint64_t file_offset) {
  DecodedCode out;
  CIL_TRY(decode_code_into(code, file_offset, out));
  return out;
}

}  // namespace cil::il
