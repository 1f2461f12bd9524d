// The editable method body: instructions whose branch targets and exception-clause boundaries
// are references to instructions (stable ids), not offsets, so code can be inserted anywhere.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "il/instruction.h"
#include "il/method_body.h"
#include "metadata/ids.h"
#include "support/error.h"

namespace cil::il {

/// Label of "just past the last instruction" (an end offset equal to the code size).
inline constexpr uint32_t kEndLabel = 0xFFFFFFFE;
inline constexpr uint32_t kNoLabel = 0xFFFFFFFF;

struct Instr {
  uint32_t id = kNoLabel;
  Op op = Op::Nop;
  /// Constant, token or argument/local index; the raw bits for ldc.r4/ldc.r8.
  int64_t value = 0;
  uint32_t target = kNoLabel;     ///< branch target (an instruction id or kEndLabel)
  std::vector<uint32_t> targets;  ///< switch targets
};

struct EhRegion {
  ClauseKind kind = ClauseKind::Catch;
  uint32_t try_start = kNoLabel, try_end = kNoLabel;          ///< end: first instruction after, or kEndLabel
  uint32_t handler_start = kNoLabel, handler_end = kNoLabel;
  uint32_t filter_start = kNoLabel;
  md::Token class_token;
};

/// How the body was stored, so an unedited body re-encodes to identical bytes, and where its
/// instructions were, so the encoder can say where each went (OffsetMap).
struct OriginalLayout {
  bool fat = false;
  uint16_t fat_flags = 0;
  uint8_t header_size = 0;
  std::vector<EhSectionLayout> sections;
  /// The offset of every original instruction (the instruction with id i started at
  /// boundaries[i]), then the code size. Empty for a body the tool writes from scratch.
  std::vector<uint32_t> boundaries;
};

class BodyModel {
 public:
  /// Builds the model from a parsed body and its decoded code: the original instructions get
  /// ids 0 to n-1 in order. Fails (check_targets) when a branch or a clause boundary does not
  /// fall on an instruction boundary.
  static Expected<BodyModel> from(const MethodBody& body, const DecodedCode& code);

  std::vector<Instr> instrs;
  std::vector<EhRegion> clauses;
  uint16_t max_stack = 8;
  md::Token local_sig_token;  ///< StandAloneSig, or nil for no locals
  bool init_locals = false;
  OriginalLayout original;
  /// Set by every edit; an unedited body keeps its original header and EH layout.
  bool edited = false;
  /// The instruction just past the original code (kEndLabel: the end of the whole code). An
  /// edit that appends blocks after the original code (wrap_body) points it at the first of
  /// them, so the original end boundary maps to where the original code now ends.
  uint32_t end_of_original = kEndLabel;

  /// A new instruction with a fresh id.
  Instr make(Op op, int64_t value = 0);
  /// An instruction with a token operand: its raw value is the operand.
  Instr make(Op op, md::Token token) { return make(op, int64_t{token.value()}); }
  Instr make_branch(Op op, uint32_t target);
  /// Shortest forms of common instructions.
  Instr ldc_i4(int32_t value);
  /// Makes `x` the shortest ldc.i4 form of `value`, keeping its id.
  static void set_ldc_i4(Instr& x, int32_t value);
  Instr ldloc(uint32_t index);
  Instr stloc(uint32_t index);
  Instr ldloca(uint32_t index);
  Instr ldarg(uint32_t index);
  Instr ldarga(uint32_t index);

  /// Position of the instruction with `id` in `instrs`, or instrs.size() for kEndLabel.
  size_t index_of(uint32_t id) const;
  /// Index of every instruction by id (ids are dense: ones never placed map to kNoLabel).
  std::vector<uint32_t> positions() const;
  /// A fresh id, for a label whose instruction is emitted later.
  uint32_t reserve_label() { return next_id_++; }

 private:
  uint32_t next_id_ = 0;
};

}  // namespace cil::il
