// The entry fast path behind rewrite_body: straight-line code spliced in front of an undecoded
// body without building the model. The original instructions keep their bytes (branch
// displacements are relative, and both ends of every branch move together), exception clauses
// shift, and the header and EH section are written by the encoder's own rules (body_writer.h),
// so the bytes and the map equal those of inserting the code into the BodyModel at index 0 and
// encoding it (the roundtrip test checks this on every body of the framework and the fixtures).
#pragma once

#include <cstdint>
#include <span>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "support/error.h"

namespace cil::il {

/// `body` (whose targets check_targets accepted) with `entry` first and max stack `max_stack`;
/// `code` is its decoded code, for the map. rewrite_body has checked that `entry` does not branch
/// (its displacements would be written as they are). `out`'s buffers are reused.
Status prepend_code(const MethodBody& body, const DecodedCode& code, std::span<const Instr> entry, uint16_t max_stack,
                    EncodedBody& out);

}  // namespace cil::il
