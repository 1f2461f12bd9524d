// One method's debug information moved through its offset map: sequence points, local scope
// ranges, and the custom debug information that holds IL offsets (state machine hoisted local
// scopes, async stepping information).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "il/offset_map.h"
#include "metadata/sequence_points.h"
#include "support/error.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// The offset map of MethodDef `rid`'s rewrite, or nullptr when its code did not change.
using OffsetMapLookup = std::function<const OffsetMap*(uint32_t rid)>;

/// Every point moves with the instruction it names, except that a point at offset 0 stays there:
/// code inserted at entry belongs to the method's first line, as the scopes that hold the whole
/// method still do (and the runtime, which gives a funclet's parent frame IL offset 0, finds that
/// line there). When code was appended after the original code (wrap mode's handlers and exit
/// block), a hidden point at its start keeps it from being attributed to the method's last line.
/// The point of an instruction an edit removed (its boundary shares the next one's new offset)
/// goes. Fails when a point does not name an instruction.
Expected<md::MethodSequencePoints> remap_sequence_points(const md::MethodSequencePoints& points, const OffsetMap& map);
/// The same into `out` (not `points`), whose storage is reused.
Status remap_sequence_points_into(const md::MethodSequencePoints& points, const OffsetMap& map, md::MethodSequencePoints& out);

/// remap_sequence_points and encode_sequence_points for a map that moved every instruction a
/// point names by the same number of bytes (the first instruction's) and appended nothing: count
/// mode's entry probe. Done on the blob's bytes: they are copied with the local signature
/// (`local_signature`) and the delta of the first point after offset 0 rewritten, and nothing
/// else changes. Only for a blob in the form the encoder writes (every value in its shortest
/// form; a document record only before a point, naming another document) that passes every
/// check of decoding (documents among the PDB's `documents` rows), remapping and encoding: then
/// `out` holds exactly what the long way writes, and the result is true. Otherwise false (`out`
/// unspecified), and the caller takes the long way, which names what is wrong.
bool shift_sequence_points_blob(std::span<const uint8_t> blob, uint32_t row_document, uint32_t documents, const OffsetMap& map,
                                uint32_t local_signature, std::vector<uint8_t>& out);

struct ScopeRange {
  uint32_t start = 0;
  uint32_t length = 0;
  friend bool operator==(const ScopeRange&, const ScopeRange&) = default;
};

/// A scope [start, start + length) of the original code. Its ends move with the instructions they
/// name, except that a scope starting at 0 still starts at 0 and one ending at the end of the code
/// still ends at the end: code inserted at entry or appended belongs to the scopes that held the
/// whole method (as the first scope of a method must, Portable PDB v1.0). Nesting is kept.
Expected<ScopeRange> remap_scope(ScopeRange scope, const OffsetMap& map);

/// The value of a State Machine Hoisted Local Scopes record: (start, length) pairs, (0, 0) for a
/// variable without a scope.
Expected<std::vector<uint8_t>> remap_hoisted_scopes(std::span<const uint8_t> value, const OffsetMap& map);

/// The value of an Async Method Stepping Information record of a MoveNext method with map `map`:
/// the catch handler offset, then (yield offset, resume offset, resume method) triples; a resume
/// offset moves with the resume method's map, found through `lookup`.
Expected<std::vector<uint8_t>> remap_async_stepping(std::span<const uint8_t> value, const OffsetMap& map,
                                                     const OffsetMapLookup& lookup);

}  // namespace cil::instrument
