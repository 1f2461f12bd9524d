// Encoding a BodyModel to bytes (II.25.4): branch forms chosen to a fixpoint, tiny or fat
// header, small or fat EH sections.
#pragma once

#include <cstdint>
#include <vector>

#include "il/body_model.h"
#include "support/error.h"

namespace cil::il {

/// Layout passes after which every short branch left is widened at once: a chain of short
/// branches that each cross the one widened in the pass before would otherwise take one pass
/// per branch (quadratic time on hostile code).
inline constexpr size_t kMaxLayoutPasses = 64;

/// What encoding took, for tests that bound the work instead of timing it.
struct EncodeStats {
  size_t layout_passes = 0;  ///< passes over the instructions to choose branch forms
};

/// Encodes the header, code and EH sections. Short branches whose target is out of reach are
/// widened (never truncated), repeatedly until no branch changes. An unedited body keeps its
/// original header and section layout, so decoding then encoding gives the same bytes.
Expected<std::vector<uint8_t>> encode_body(const BodyModel& body, EncodeStats* stats = nullptr);

/// The encoded size of one instruction in its current form.
uint32_t encoded_size(const Instr& in);

}  // namespace cil::il
