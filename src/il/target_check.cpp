// Branch targets and clause boundaries against the instruction boundaries of the decoded code.
#include "il/target_check.h"

#include <algorithm>

#include <fmt/format.h>

namespace cil::il {

namespace {

Error target_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

}  // namespace

std::optional<size_t> instruction_at(const DecodedCode& code, uint32_t code_size, int64_t offset) {
  const auto& ins = code.instructions;
  if (offset == int64_t{code_size}) return ins.size();
  auto it = std::lower_bound(ins.begin(), ins.end(), offset,
                             [](const Instruction& in, int64_t off) { return int64_t{in.offset} < off; });
  if (it == ins.end() || int64_t{it->offset} != offset) return std::nullopt;
  return static_cast<size_t>(it - ins.begin());
}

Status check_targets(const MethodBody& body, const DecodedCode& code) {
  auto on_boundary = [&](int64_t offset) { return instruction_at(code, body.code_size, offset).has_value(); };
  for (const auto& in : code.instructions) {
    Operand kind = in.info().operand;
    if (is_branch_operand(kind) && !on_boundary(in.value))
      return target_error(fmt::format("branch at IL_{:04x}: offset {:#x} is not the start of an instruction", in.offset, in.value));
    if (kind == Operand::Switch)
      for (int64_t t : code.targets_of(in))
        if (!on_boundary(t))
          return target_error(fmt::format("switch at IL_{:04x}: offset {:#x} is not the start of an instruction", in.offset, t));
  }
  for (const auto& c : body.clauses) {
    int64_t bounds[] = {c.try_offset, int64_t{c.try_offset} + c.try_length, c.handler_offset,
                        int64_t{c.handler_offset} + c.handler_length};
    for (int64_t b : bounds)
      if (!on_boundary(b)) return target_error(fmt::format("exception clause: offset {:#x} is not the start of an instruction", b));
    if (c.kind == ClauseKind::Filter && !on_boundary(c.filter_offset))
      return target_error(
          fmt::format("exception clause: filter offset {:#x} is not the start of an instruction", c.filter_offset));
  }
  return ok();
}

}  // namespace cil::il
