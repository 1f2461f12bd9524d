// Encoding a BodyModel to bytes (II.25.4), in phases: branch forms chosen to a fixpoint and
// offsets assigned (layout), clauses resolved to offsets, then header, code and EH sections
// written, and the offset map read off the layout.
#pragma once

#include <cstdint>
#include <vector>

#include "il/body_model.h"
#include "il/offset_map.h"
#include "support/error.h"

namespace cil::il {

/// Layout passes after which every short branch left is widened at once: a chain of short
/// branches that each cross the one widened in the pass before would otherwise take one pass
/// per branch (quadratic time on hostile code).
inline constexpr size_t kMaxLayoutPasses = 64;

/// An encoded method body (header through the last EH section) and where the original
/// instructions went.
struct EncodedBody {
  std::vector<uint8_t> bytes;
  /// Empty for a body the tool wrote from scratch (BodyModel::original.boundaries empty).
  OffsetMap map;
  /// The header's LocalVarSigTok (0: none), for the debug information's MethodDebugInformation.
  md::Token local_sig_token;
  /// Passes over the instructions to choose branch forms (work done, for tests that bound it).
  size_t layout_passes = 0;
};

/// Encodes the header, code and EH sections. Short branches whose target is out of reach are
/// widened (never truncated), repeatedly until no branch changes. An unedited body keeps its
/// original header and section layout, so decoding then encoding gives the same bytes (and an
/// identity map). Fails when an edit left a reference to a missing instruction, a clause that
/// ends before it starts, or original instructions out of their order.
Expected<EncodedBody> encode_body(const BodyModel& body);
/// The same into `out`, whose buffers are reused (for loops over many bodies).
Status encode_body_into(const BodyModel& body, EncodedBody& out);

}  // namespace cil::il
