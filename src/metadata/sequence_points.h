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
/// Limits of Portable PDB v1.0 for a point: its IL offset, and a non-hidden point's lines and
/// columns are below these.
inline constexpr uint32_t kMaxPointOffset = 0x20000000;
inline constexpr uint32_t kMaxPointLine = 0x20000000;
inline constexpr uint32_t kMaxPointColumn = 0x10000;

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

namespace detail {
Error point_offset_error(const ByteReader& r, size_t at, uint64_t offset);
Error point_lines_error(const ByteReader& r, size_t at, int64_t start_line, int64_t end_line);
Error point_columns_error(const ByteReader& r, size_t at, int64_t start_column, int64_t end_column);
}  // namespace detail

/// Reads compressed integers in any form II.23.2 allows (what a reader accepts).
struct AnyIntegerForm {
  [[gnu::always_inline]] static Expected<uint32_t> u32(ByteReader& r) { return r.compressed_u32(); }
  [[gnu::always_inline]] static Expected<int32_t> i32(ByteReader& r) { return r.compressed_i32(); }
};

/// The one walk over a sequence points blob, record by record, with the format's checks (offsets
/// below the limit and ascending, a visible point's lines and columns in range): every reader of
/// the format goes through it. `Form::u32/i32(ByteReader&)` read its compressed integers (a
/// stricter form can refuse a longer encoding). `visit` gets, in blob order:
///   header(local_signature, initial_document)      the blob's own initial document, or 0 when the
///                                                  row names it (`row_document`);
///   document(document)                             a document record;
///   point(point, delta_at, delta_end, delta_offset) a point, with the bytes of its offset delta;
///   end()                                          after the last record;
/// each returning Status; an error ends the walk and is returned as it is.
template <class Form, class Visitor>
Status scan_sequence_points(ByteReader r, uint32_t row_document, Visitor&& visit) {
  uint32_t local_signature = CIL_TRY(Form::u32(r));
  uint32_t document = row_document, initial_document = 0;
  if (!row_document) initial_document = document = CIL_TRY(Form::u32(r));
  CIL_TRY(visit.header(local_signature, initial_document));
  bool first = true, first_visible = true;
  uint32_t offset = 0, line = 0, column = 0;
  while (!r.at_end()) {
    size_t at = r.position();
    uint32_t delta_offset = CIL_TRY(Form::u32(r));
    if (delta_offset == 0 && !first) {
      document = CIL_TRY(Form::u32(r));  // a document record
      CIL_TRY(visit.document(document));
      continue;
    }
    size_t delta_end = r.position();
    if (uint64_t{offset} + delta_offset >= kMaxPointOffset) return detail::point_offset_error(r, at, uint64_t{offset} + delta_offset);
    offset += delta_offset;
    first = false;
    uint32_t delta_lines = CIL_TRY(Form::u32(r));
    int64_t delta_columns = delta_lines == 0 ? int64_t{CIL_TRY(Form::u32(r))} : int64_t{CIL_TRY(Form::i32(r))};
    if (delta_lines == 0 && delta_columns == 0) {
      CIL_TRY(visit.point(SequencePoint::make_hidden(offset, document), at, delta_end, delta_offset));
      continue;
    }
    int64_t start_line = first_visible ? int64_t{CIL_TRY(Form::u32(r))} : int64_t{line} + CIL_TRY(Form::i32(r));
    int64_t start_column = first_visible ? int64_t{CIL_TRY(Form::u32(r))} : int64_t{column} + CIL_TRY(Form::i32(r));
    int64_t end_line = start_line + delta_lines;
    int64_t end_column = start_column + delta_columns;
    if (start_line < 0 || end_line >= kMaxPointLine || start_line == kHiddenLine || end_line == kHiddenLine)
      return detail::point_lines_error(r, at, start_line, end_line);
    if (start_column < 0 || start_column >= kMaxPointColumn || end_column < 0 || end_column >= kMaxPointColumn)
      return detail::point_columns_error(r, at, start_column, end_column);
    line = static_cast<uint32_t>(start_line);
    column = static_cast<uint32_t>(start_column);
    first_visible = false;
    CIL_TRY(visit.point(SequencePoint{offset, document, line, static_cast<uint32_t>(end_line), column, static_cast<uint32_t>(end_column)},
                        at, delta_end, delta_offset));
  }
  return visit.end();
}

/// Reads a sequence points blob a point at a time, without storing the points: `header` gets the
/// local signature and the initial document (its points are left alone), then
/// `on_point(const SequencePoint&) -> Status` runs for each point in blob order. The checks of
/// decode_sequence_points_into, which is this with a push_back; an error of `on_point` ends the
/// reading and is returned as it is.
template <class OnPoint>
Status read_sequence_points(ByteReader r, uint32_t row_document, MethodSequencePoints& header, OnPoint&& on_point) {
  struct Points {
    MethodSequencePoints& out;
    OnPoint& on_point;
    Status header(uint32_t local_signature, uint32_t initial_document) {
      out.local_signature = local_signature;
      out.initial_document = initial_document;
      return ok();
    }
    Status document(uint32_t) { return ok(); }
    Status point(const SequencePoint& p, size_t, size_t, uint32_t) { return on_point(p); }
    Status end() { return ok(); }
  };
  return scan_sequence_points<AnyIntegerForm>(r, row_document, Points{header, on_point});
}

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
