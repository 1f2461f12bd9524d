// The engine's fast path for the commonest rewrite: straight-line code at method entry. The
// original instructions keep their bytes (branch displacements are relative, and both ends of
// every branch move together), exception clauses shift, and the header and EH sections are
// written by encode_body's own writer (body_writer.h) — so the result is byte-identical to
// inserting the code into the BodyModel at index 0 and encoding, without building the model.
// The caller runs check_targets first (target_check.h), as BodyModel::from does.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "support/error.h"

namespace cil::il {

/// `body` with `code` (no branches, no switches) inserted at entry and max stack `max_stack`.
Expected<std::vector<uint8_t>> prepend_code(const MethodBody& body, std::span<const Instr> code, uint16_t max_stack);

}  // namespace cil::il
