// Encoding a BodyModel to bytes (II.25.4): branch forms chosen to a fixpoint, tiny or fat
// header, small or fat EH sections.
#pragma once

#include <cstdint>
#include <vector>

#include "il/body_model.h"
#include "support/error.h"

namespace cil::il {

/// Encodes the header, code and EH sections. Short branches whose target is out of reach are
/// widened (never truncated), repeatedly until no branch changes. An unedited body keeps its
/// original header and section layout, so decoding then encoding gives the same bytes.
Expected<std::vector<uint8_t>> encode_body(const BodyModel& body);

}  // namespace cil::il
