// A method body as values for listings, close to ildasm: the .method line, .maxstack, .locals,
// each instruction with its operand as text and its branch targets as offsets, and exception
// clauses. How it is laid out (offsets or labels, text or JSON) is the printer's business.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "il/instruction.h"
#include "il/method_body.h"
#include "metadata/printer.h"

namespace cil::il {

struct ListedInstruction {
  uint32_t offset = 0;
  Op op = Op::Nop;
  /// The operand as ildasm shows it ("void N.C::M()", "\"text\"", "5", "V_0"); empty when there
  /// is none, and for branches and switch, whose operands are `targets`.
  std::string operand;
  md::Token token;  ///< the metadata token of a token operand; none otherwise
  /// Branch and switch targets (absolute offsets, which a malformed body may place anywhere):
  /// MethodListing::targets[first_target, first_target + target_count).
  uint32_t first_target = 0;
  uint32_t target_count = 0;

  const OpInfo& info() const { return op_info(op); }
  bool is_branch() const { return is_branch_operand(info().operand); }
  bool is_switch() const { return info().operand == Operand::Switch; }
};

struct ListedClause {
  ClauseKind kind = ClauseKind::Finally;
  uint32_t try_offset = 0;
  uint32_t try_length = 0;
  uint32_t handler_offset = 0;
  uint32_t handler_length = 0;
  uint32_t filter_offset = 0;  ///< filter clauses
  md::Token class_token;       ///< catch clauses
  std::string catch_type;      ///< catch clauses: the type, ildasm-like

  int64_t try_end() const { return int64_t{try_offset} + try_length; }
  int64_t handler_end() const { return int64_t{handler_offset} + handler_length; }
};

/// One method of a listing. When the body cannot be read, `error` says why and nothing after it
/// is set.
struct MethodListing {
  md::Token token;
  std::string name;    ///< Ns.Type::Method
  std::string header;  ///< the .method line
  uint32_t rva = 0;
  std::string error;
  uint32_t code_size = 0;
  bool fat = false;
  uint16_t max_stack = 0;
  md::Token locals_token;
  bool init_locals = false;
  std::string locals;  ///< the .locals line, or empty
  std::vector<ListedInstruction> instructions;
  std::vector<int64_t> targets;
  std::vector<ListedClause> clauses;

  std::span<const int64_t> targets_of(const ListedInstruction& in) const {
    return std::span<const int64_t>(targets).subspan(in.first_target, in.target_count);
  }
  /// Every offset a label may name: branch targets and clause bounds, ascending, each once.
  std::vector<int64_t> label_offsets() const;
};

/// The listing of `method`. `body`/`code` may be null when the body could not be read;
/// `error` then says why.
MethodListing list_method(md::Printer& printer, md::MethodDefId method, uint32_t rva, const MethodBody* body, const DecodedCode* code,
                          std::string error);

/// Formats a floating-point operand: shortest round-trip text, or raw bytes for NaN/infinity.
std::string format_real(const Instruction& in);

}  // namespace cil::il
