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
/// end of the code (`code_size`); nullopt for any other offset. A binary search: offsets ascend.
std::optional<size_t> instruction_at(const DecodedCode& code, uint32_t code_size, int64_t offset);

/// Fails, naming the instruction or clause and the offset, unless every branch target, switch
/// target and clause boundary (try, handler and filter starts; try and handler ends) is the start
/// of an instruction of `code` or the end of the code. BodyModel::from and the entry fast path
/// both run it, so a body is refused with the same message whichever path it takes.
Status check_targets(const MethodBody& body, const DecodedCode& code);

}  // namespace cil::il
