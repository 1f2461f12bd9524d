// Decoding and encoding of the delta-compressed sequence points blob.
#include "metadata/sequence_points.h"

#include <fmt/format.h>

#include "metadata/signature.h"

namespace cil::md {

namespace {

// Limits of Portable PDB v1.0 for the values of a non-hidden point.
constexpr uint32_t kMaxOffset = 0x20000000;
constexpr uint32_t kMaxLine = 0x20000000;
constexpr uint32_t kMaxColumn = 0x10000;
// The range of a compressed signed integer (II.23.2).
constexpr int64_t kMinSigned = -0x10000000;
constexpr int64_t kMaxSigned = 0x0FFFFFFF;

Error encode_error(std::string message) { return make_error(ErrorKind::Format, "sequence points", std::move(message)); }

}  // namespace

Expected<MethodSequencePoints> decode_sequence_points(ByteReader r, uint32_t row_document) {
  MethodSequencePoints out;
  CIL_TRY(decode_sequence_points_into(r, row_document, out));
  return out;
}

Status decode_sequence_points_into(ByteReader r, uint32_t row_document, MethodSequencePoints& out) {
  out.local_signature = 0;
  out.initial_document = 0;
  out.points.clear();
  out.points.reserve(r.remaining() / 4);  // a point takes at least 3 bytes, usually about 5
  out.local_signature = CIL_TRY(r.compressed_u32());
  uint32_t document = row_document;
  if (!row_document) out.initial_document = document = CIL_TRY(r.compressed_u32());
  bool first = true, first_visible = true;
  uint32_t offset = 0, line = 0, column = 0;
  while (!r.at_end()) {
    size_t at = r.position();
    uint32_t delta_offset = CIL_TRY(r.compressed_u32());
    if (delta_offset == 0 && !first) {
      document = CIL_TRY(r.compressed_u32());  // a document record
      continue;
    }
    if (uint64_t{offset} + delta_offset >= kMaxOffset)
      return r.error_at(at, fmt::format("IL offset {:#x} is out of range", uint64_t{offset} + delta_offset));
    offset += delta_offset;
    first = false;
    uint32_t delta_lines = CIL_TRY(r.compressed_u32());
    int64_t delta_columns = delta_lines == 0 ? int64_t{CIL_TRY(r.compressed_u32())} : int64_t{CIL_TRY(r.compressed_i32())};
    if (delta_lines == 0 && delta_columns == 0) {
      out.points.push_back(SequencePoint::make_hidden(offset, document));
      continue;
    }
    int64_t start_line = first_visible ? int64_t{CIL_TRY(r.compressed_u32())} : int64_t{line} + CIL_TRY(r.compressed_i32());
    int64_t start_column = first_visible ? int64_t{CIL_TRY(r.compressed_u32())} : int64_t{column} + CIL_TRY(r.compressed_i32());
    int64_t end_line = start_line + delta_lines;
    int64_t end_column = start_column + delta_columns;
    if (start_line < 0 || end_line >= kMaxLine || start_line == kHiddenLine || end_line == kHiddenLine)
      return r.error_at(at, fmt::format("line {}..{} is out of range", start_line, end_line));
    if (start_column < 0 || start_column >= kMaxColumn || end_column < 0 || end_column >= kMaxColumn)
      return r.error_at(at, fmt::format("column {}..{} is out of range", start_column, end_column));
    line = static_cast<uint32_t>(start_line);
    column = static_cast<uint32_t>(start_column);
    first_visible = false;
    out.points.push_back({offset, document, line, static_cast<uint32_t>(end_line), column, static_cast<uint32_t>(end_column)});
  }
  return ok();
}

uint32_t single_document(const MethodSequencePoints& points) {
  if (points.points.empty()) return 0;
  uint32_t document = points.points.front().document;
  for (const auto& p : points.points)
    if (p.document != document) return 0;
  return document;
}

Expected<std::vector<uint8_t>> encode_sequence_points(const MethodSequencePoints& in, uint32_t row_document) {
  std::vector<uint8_t> out;
  CIL_TRY(encode_sequence_points_into(in, row_document, out));
  return out;
}

Status encode_sequence_points_into(const MethodSequencePoints& in, uint32_t row_document, std::vector<uint8_t>& out) {
  out.clear();
  out.reserve(8 + in.points.size() * 6);  // a point takes 3 to 20 bytes, usually about 5
  encode_compressed_u32(out, in.local_signature);
  uint32_t document = row_document;
  if (!row_document) {
    document = in.points.empty() ? in.initial_document : in.points.front().document;
    encode_compressed_u32(out, document);
  }
  bool first = true, first_visible = true;
  uint32_t offset = 0, line = 0, column = 0;
  for (const SequencePoint& p : in.points) {
    if (!first && p.offset <= offset)
      return encode_error(fmt::format("IL offset {:#x} does not come after {:#x}", p.offset, offset));
    if (p.offset >= kMaxOffset) return encode_error(fmt::format("IL offset {:#x} is out of range", p.offset));
    if (p.document != document) {
      if (first) return encode_error("the first point's document is not the row's");
      encode_compressed_u32(out, 0);
      encode_compressed_u32(out, p.document);
      document = p.document;
    }
    encode_compressed_u32(out, first ? p.offset : p.offset - offset);
    offset = p.offset;
    first = false;
    if (p.hidden()) {
      encode_compressed_u32(out, 0);
      encode_compressed_u32(out, 0);
      continue;
    }
    if (p.end_line < p.start_line || p.start_line >= kMaxLine || p.end_line >= kMaxLine || p.start_line == kHiddenLine ||
        p.end_line == kHiddenLine || p.start_column >= kMaxColumn || p.end_column >= kMaxColumn ||
        (p.end_line == p.start_line && p.end_column <= p.start_column))
      return encode_error(fmt::format("the point at IL offset {:#x} has an impossible span", p.offset));
    uint32_t delta_lines = p.end_line - p.start_line;
    encode_compressed_u32(out, delta_lines);
    int32_t delta_columns = static_cast<int32_t>(p.end_column) - static_cast<int32_t>(p.start_column);
    if (delta_lines == 0) encode_compressed_u32(out, static_cast<uint32_t>(delta_columns));
    else encode_compressed_i32(out, delta_columns);
    if (first_visible) {
      encode_compressed_u32(out, p.start_line);
      encode_compressed_u32(out, p.start_column);
    } else {
      int64_t delta_line = int64_t{p.start_line} - line;
      if (delta_line < kMinSigned || delta_line > kMaxSigned)
        return encode_error(fmt::format("line {} is too far from line {} for the delta encoding", p.start_line, line));
      encode_compressed_i32(out, static_cast<int32_t>(p.start_line) - static_cast<int32_t>(line));
      encode_compressed_i32(out, static_cast<int32_t>(p.start_column) - static_cast<int32_t>(column));
    }
    line = p.start_line;
    column = p.start_column;
    first_visible = false;
  }
  return ok();
}

}  // namespace cil::md
