// The check every rewrite makes first: branch targets and exception-clause boundaries must fall
// on instruction boundaries (III.1.7.2, II.19), or the code cannot be moved by instructions.
#pragma once

#include <cstddef>
#include <optional>

#include "il/instruction.h"
#include "il/method_body.h"
#include "support/error.h"

namespace cil::il {

/// Index of the instruction of `code` that starts at `offset`; code.instructions.size() for the
/// end of the code (`code_size`); nullopt for any other offset. A binary search without branches
/// on the data (offsets ascend); inline: every branch target of every rewritten body comes here.
inline std::optional<size_t> instruction_at(const DecodedCode& code, uint32_t code_size, int64_t offset) {
  const auto& ins = code.instructions;
  if (offset == int64_t{code_size}) return ins.size();
  if (offset < 0 || offset > int64_t{code_size} || ins.empty()) return std::nullopt;
  const Instruction* base = ins.data();
  size_t length = ins.size();
  while (length > 1) {
    size_t half = length / 2;
    base = int64_t{base[half].offset} <= offset ? base + half : base;
    length -= half;
  }
  if (int64_t{base->offset} != offset) return std::nullopt;
  return static_cast<size_t>(base - ins.data());
}

/// Where a target or boundary was named.
struct TargetSite {
  enum Kind : uint8_t { Branch, Switch, TryStart, TryEnd, HandlerStart, HandlerEnd, FilterStart };
  Kind kind = Branch;
  size_t owner = 0;   ///< the instruction's index (Branch, Switch), or the clause's
  uint32_t slot = 0;  ///< Switch: which of its targets
};

namespace detail {
// The one set of messages, whichever path finds the fault.
Error branch_target_error(const Instruction& in, int64_t target);
Error switch_target_error(const Instruction& in, int64_t target);
Error clause_boundary_error(int64_t offset);
Error filter_start_error(uint32_t offset);
}  // namespace detail

/// Resolves every branch target, switch target and clause boundary to the index of the
/// instruction that starts there (code.instructions.size() for the end of the code), and hands
/// each to `visit(const TargetSite&, size_t index)`: the targets of each instruction in code
/// order, then per clause its try start, try end, handler start, handler end and, for a filter,
/// its filter start. Fails on the first one that is not the start of an instruction, naming the
/// instruction or clause and the offset. BodyModel::from builds its labels from these indexes;
/// check_targets, for the entry fast path, only checks: a body is refused with the same message
/// whichever path it takes.
template <class Visit>
Status resolve_targets(const MethodBody& body, const DecodedCode& code, Visit&& visit) {
  const auto& ins = code.instructions;
  for (uint32_t i : code.jumps) {
    const Instruction& in = ins[i];
    Operand kind = operand_of(in.op);
    if (is_branch_operand(kind)) {
      std::optional<size_t> index = instruction_at(code, body.code_size, in.value);
      if (!index) return detail::branch_target_error(in, in.value);
      visit(TargetSite{TargetSite::Branch, i, 0}, *index);
    } else if (kind == Operand::Switch) {
      uint32_t slot = 0;
      for (int64_t t : code.targets_of(in)) {
        std::optional<size_t> index = instruction_at(code, body.code_size, t);
        if (!index) return detail::switch_target_error(in, t);
        visit(TargetSite{TargetSite::Switch, i, slot++}, *index);
      }
    }
  }
  for (size_t k = 0; k < body.clauses.size(); ++k) {
    const ExceptionClause& c = body.clauses[k];
    int64_t bounds[] = {c.try_offset, int64_t{c.try_offset} + c.try_length, c.handler_offset,
                        int64_t{c.handler_offset} + c.handler_length};
    constexpr TargetSite::Kind kinds[] = {TargetSite::TryStart, TargetSite::TryEnd, TargetSite::HandlerStart,
                                          TargetSite::HandlerEnd};
    for (int j = 0; j < 4; ++j) {
      std::optional<size_t> index = instruction_at(code, body.code_size, bounds[j]);
      if (!index) return detail::clause_boundary_error(bounds[j]);
      visit(TargetSite{kinds[j], k, 0}, *index);
    }
    if (c.kind == ClauseKind::Filter) {
      std::optional<size_t> index = instruction_at(code, body.code_size, c.filter_offset);
      if (!index) return detail::filter_start_error(c.filter_offset);
      visit(TargetSite{TargetSite::FilterStart, k, 0}, *index);
    }
  }
  return ok();
}

/// resolve_targets without the indexes.
Status check_targets(const MethodBody& body, const DecodedCode& code);

}  // namespace cil::il
