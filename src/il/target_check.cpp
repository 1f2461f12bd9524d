// The messages for targets that miss an instruction boundary, and the check alone.
#include "il/target_check.h"

#include <fmt/format.h>

namespace cil::il {

namespace {

Error target_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

}  // namespace

namespace detail {

Error branch_target_error(const Instruction& in, int64_t target) {
  return target_error(fmt::format("branch at IL_{:04x}: offset {:#x} is not the start of an instruction", in.offset, target));
}

Error switch_target_error(const Instruction& in, int64_t target) {
  return target_error(fmt::format("switch at IL_{:04x}: offset {:#x} is not the start of an instruction", in.offset, target));
}

Error clause_boundary_error(int64_t offset) {
  return target_error(fmt::format("exception clause: offset {:#x} is not the start of an instruction", offset));
}

Error filter_start_error(uint32_t offset) {
  return target_error(fmt::format("exception clause: filter offset {:#x} is not the start of an instruction", offset));
}

}  // namespace detail

Status check_targets(const MethodBody& body, const DecodedCode& code) {
  return resolve_targets(body, code, [](const TargetSite&, size_t) {});
}

}  // namespace cil::il
