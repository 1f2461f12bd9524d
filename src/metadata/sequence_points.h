// The sequence points blob of a MethodDebugInformation row (Portable PDB v1.0, "Sequence Points
// Blob"): decoded into absolute values, and encoded back with the same delta rules.
#pragma once

#include <cstdint>
#include <vector>

#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::md {

/// Start and end line of a hidden sequence point.
inline constexpr uint32_t kHiddenLine = 0xFEEFEE;

struct SequencePoint {
  uint32_t offset = 0;    ///< IL offset
  uint32_t document = 0;  ///< Document row id
  uint32_t start_line = 0, end_line = 0;
  uint32_t start_column = 0, end_column = 0;
  bool hidden() const { return start_line == kHiddenLine && end_line == kHiddenLine && start_column == 0 && end_column == 0; }
  static SequencePoint make_hidden(uint32_t offset, uint32_t document) {
    return {offset, document, kHiddenLine, kHiddenLine, 0, 0};
  }
  friend bool operator==(const SequencePoint&, const SequencePoint&) = default;
};

struct MethodSequencePoints {
  uint32_t local_signature = 0;  ///< StandAloneSig row id of the method's locals, or 0
  /// InitialDocument of a blob whose row names no document (the first point's), else 0; kept so
  /// that a blob without points re-encodes as it was.
  uint32_t initial_document = 0;
  std::vector<SequencePoint> points;
  friend bool operator==(const MethodSequencePoints&, const MethodSequencePoints&) = default;
};

/// Decodes a sequence points blob. `row_document` is the row's Document column: when it is 0 the
/// blob names its initial document itself. Fails on values the format forbids (offsets that do
/// not ascend, lines or columns out of range, a hidden point that is not hidden...).
Expected<MethodSequencePoints> decode_sequence_points(ByteReader blob, uint32_t row_document);
/// The same into `out`, whose storage is reused (for loops over every method).
Status decode_sequence_points_into(ByteReader blob, uint32_t row_document, MethodSequencePoints& out);

/// Encodes `points` for a row whose Document column is `row_document` (0: several documents, or
/// none, so the blob names the first). Fails when the points break the format's rules (the
/// offsets must ascend strictly; a non-hidden point must end after it starts).
Expected<std::vector<uint8_t>> encode_sequence_points(const MethodSequencePoints& points, uint32_t row_document);
/// The same into `out` (cleared first), whose storage is reused.
Status encode_sequence_points_into(const MethodSequencePoints& points, uint32_t row_document, std::vector<uint8_t>& out);

/// The Document column for `points`: the one document they all name, or 0.
uint32_t single_document(const MethodSequencePoints& points);

}  // namespace cil::md
