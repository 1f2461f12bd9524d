// Opcode information derived from opcodes.def: enum, names, encodings, operands, stack effects.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cil::il {

enum class Op : uint16_t {
#define CIL_OPCODE(Enum, name, code, Operand, pops, pushes, Flow) Enum,
#include "il/opcodes.def"
#undef CIL_OPCODE
  Count_,
};

inline constexpr size_t kOpCount = static_cast<size_t>(Op::Count_);

/// Operand encodings (ECMA-335 III.1.2 and the inline argument kinds of opcode.def).
enum class Operand : uint8_t {
  None,
  ShortI,    ///< int8 (ldc.i4.s)
  ShortU,    ///< uint8 (unaligned., no.)
  I,         ///< int32
  I8,        ///< int64
  ShortR,    ///< float32
  R,         ///< float64
  ShortBr,   ///< int8 displacement
  Br,        ///< int32 displacement
  Switch,    ///< uint32 count, then count int32 displacements
  Method, Field, Type, String, Sig, Tok,  ///< 4-byte tokens
  ShortVar,  ///< uint8 argument or local index
  Var,       ///< uint16 argument or local index
};

enum class Flow : uint8_t { Next, Branch, CondBranch, Return, Throw, Call, Meta, Break };

struct OpInfo {
  Op op;
  std::string_view name;
  uint16_t code;    ///< one byte, or 0xFE00 | second byte
  Operand operand;
  int8_t pops;      ///< -1: depends on the operand
  int8_t pushes;    ///< -1: depends on the operand
  Flow flow;

  bool two_byte() const { return code > 0xFF; }
  uint8_t opcode_size() const { return two_byte() ? 2 : 1; }
};

const OpInfo& op_info(Op op);
std::span<const OpInfo> all_ops();

/// The opcode for a first byte (and second byte after 0xFE); nullopt for unassigned values.
std::optional<Op> op_from_byte(uint8_t byte);
std::optional<Op> op_from_fe_byte(uint8_t byte);

/// Bytes of the operand (for Switch, the size of the count only).
uint8_t operand_size(Operand operand);
bool is_branch_operand(Operand operand);
bool is_token_operand(Operand operand);

/// The long form of a short branch (br.s -> br) and the reverse; identity otherwise.
Op long_branch_form(Op op);
Op short_branch_form(Op op);

}  // namespace cil::il
