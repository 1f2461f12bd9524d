// Opcode information derived from opcodes.def: enum, names, encodings, operands, stack effects.
#pragma once

#include <array>
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

  constexpr bool two_byte() const { return code > 0xFF; }
  constexpr uint8_t opcode_size() const { return two_byte() ? 2 : 1; }
};

namespace detail {

/// The one opcode table, expanded from opcodes.def. Defined here, not in opcode.cpp, so that the
/// decoder's per-instruction lookups inline.
inline constexpr OpInfo kOps[] = {
#define CIL_OPCODE(Enum, name, code, OperandKind, pops, pushes, FlowKind) \
  {Op::Enum, name, code, Operand::OperandKind, pops, pushes, Flow::FlowKind},
#include "il/opcodes.def"
#undef CIL_OPCODE
};
static_assert(std::size(kOps) == kOpCount);

struct ByteTables {
  std::array<int16_t, 256> one{};
  std::array<int16_t, 256> two{};
  /// For each branch opcode, its other form: "br.s" pairs with "br" (found by name).
  std::array<int16_t, kOpCount> branch_pair{};
};

constexpr ByteTables make_tables() {
  ByteTables t;
  for (auto& v : t.one) v = -1;
  for (auto& v : t.two) v = -1;
  for (size_t i = 0; i < kOpCount; ++i) {
    uint16_t code = kOps[i].code;
    if (code > 0xFF) t.two[code & 0xFF] = static_cast<int16_t>(i);
    else t.one[code] = static_cast<int16_t>(i);
  }
  for (auto& v : t.branch_pair) v = -1;
  for (size_t s = 0; s < kOpCount; ++s) {
    if (kOps[s].operand != Operand::ShortBr) continue;
    std::string_view short_name = kOps[s].name;
    std::string_view long_name = short_name.substr(0, short_name.size() - 2);  // drop ".s"
    for (size_t l = 0; l < kOpCount; ++l) {
      if (kOps[l].operand == Operand::Br && kOps[l].name == long_name) {
        t.branch_pair[s] = static_cast<int16_t>(l);
        t.branch_pair[l] = static_cast<int16_t>(s);
      }
    }
  }
  return t;
}

inline constexpr ByteTables kTables = make_tables();

}  // namespace detail

inline const OpInfo& op_info(Op op) { return detail::kOps[static_cast<size_t>(op)]; }
std::span<const OpInfo> all_ops();

/// The opcode for a first byte (and second byte after 0xFE); nullopt for unassigned values.
inline std::optional<Op> op_from_byte(uint8_t byte) {
  int16_t i = detail::kTables.one[byte];
  if (i < 0) return std::nullopt;
  return static_cast<Op>(i);
}
inline std::optional<Op> op_from_fe_byte(uint8_t byte) {
  int16_t i = detail::kTables.two[byte];
  if (i < 0) return std::nullopt;
  return static_cast<Op>(i);
}

/// Bytes of the operand (for Switch, the size of the count only).
constexpr uint8_t operand_size(Operand operand) {
  switch (operand) {
    case Operand::None: return 0;
    case Operand::ShortI:
    case Operand::ShortU:
    case Operand::ShortBr:
    case Operand::ShortVar: return 1;
    case Operand::Var: return 2;
    case Operand::I8:
    case Operand::R: return 8;
    default: return 4;
  }
}
constexpr bool is_branch_operand(Operand operand) { return operand == Operand::ShortBr || operand == Operand::Br; }

namespace detail {
/// Opcode and operand bytes of each opcode (a switch's count only), from the one table: the
/// encoder's layout asks for every instruction's size on every pass.
inline constexpr auto kFixedSizes = [] {
  std::array<uint8_t, kOpCount> sizes{};
  for (size_t i = 0; i < kOpCount; ++i) sizes[i] = static_cast<uint8_t>(kOps[i].opcode_size() + operand_size(kOps[i].operand));
  return sizes;
}();
}  // namespace detail

namespace detail {
/// Each opcode's operand kind, one byte each: the loops over every instruction of a body ask for
/// it, and a byte-a-row table stays in a few cache lines where kOps spans kilobytes.
inline constexpr auto kOperands = [] {
  std::array<Operand, kOpCount> operands{};
  for (size_t i = 0; i < kOpCount; ++i) operands[i] = kOps[i].operand;
  return operands;
}();
}  // namespace detail
inline Operand operand_of(Op op) { return detail::kOperands[static_cast<size_t>(op)]; }

/// The long form of a short branch (br.s -> br) and the reverse; identity otherwise.
Op long_branch_form(Op op);
Op short_branch_form(Op op);

}  // namespace cil::il
