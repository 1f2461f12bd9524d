// Decoding and encoding of the delta-compressed sequence points blob.
#include "metadata/sequence_points.h"

#include <fmt/format.h>

#include "metadata/signature.h"

namespace cil::md {

namespace {

// The range of a compressed signed integer (II.23.2).
constexpr int64_t kMinSigned = -0x10000000;
constexpr int64_t kMaxSigned = 0x0FFFFFFF;

Error encode_error(std::string message) { return make_error(ErrorKind::Format, "sequence points", std::move(message)); }

}  // namespace

namespace detail {
Error point_offset_error(const ByteReader& r, size_t at, uint64_t offset) {
  return r.error_at(at, fmt::format("IL offset {:#x} is out of range", offset));
}
Error point_lines_error(const ByteReader& r, size_t at, int64_t start_line, int64_t end_line) {
  return r.error_at(at, fmt::format("line {}..{} is out of range", start_line, end_line));
}
Error point_columns_error(const ByteReader& r, size_t at, int64_t start_column, int64_t end_column) {
  return r.error_at(at, fmt::format("column {}..{} is out of range", start_column, end_column));
}
}  // namespace detail

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
  return read_sequence_points(r, row_document, out, [&](const SequencePoint& p) -> Status {
    out.points.push_back(p);
    return ok();
  });
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
  // Written through a pointer into room for the worst case, then cut to size: the header's two
  // values, and per point a document record and five values, each value at most 4 bytes.
  constexpr size_t kMaxHeader = 8, kMaxPoint = 28;
  out.resize(kMaxHeader + in.points.size() * kMaxPoint);
  uint8_t* w = out.data();
  auto fail = [&](std::string message) {
    out.clear();
    return encode_error(std::move(message));
  };
  w = put_compressed_u32(w, in.local_signature);
  uint32_t document = row_document;
  if (!row_document) {
    document = in.points.empty() ? in.initial_document : in.points.front().document;
    w = put_compressed_u32(w, document);
  }
  bool first = true, first_visible = true;
  uint32_t offset = 0, line = 0, column = 0;
  for (const SequencePoint& p : in.points) {
    if (!first && p.offset <= offset) return fail(fmt::format("IL offset {:#x} does not come after {:#x}", p.offset, offset));
    if (p.offset >= kMaxPointOffset) return fail(fmt::format("IL offset {:#x} is out of range", p.offset));
    if (p.document != document) {
      if (first) return fail("the first point's document is not the row's");
      w = put_compressed_u32(w, 0);
      w = put_compressed_u32(w, p.document);
      document = p.document;
    }
    w = put_compressed_u32(w, first ? p.offset : p.offset - offset);
    offset = p.offset;
    first = false;
    if (p.hidden()) {
      w = put_compressed_u32(w, 0);
      w = put_compressed_u32(w, 0);
      continue;
    }
    if (p.end_line < p.start_line || p.start_line >= kMaxPointLine || p.end_line >= kMaxPointLine || p.start_line == kHiddenLine ||
        p.end_line == kHiddenLine || p.start_column >= kMaxPointColumn || p.end_column >= kMaxPointColumn ||
        (p.end_line == p.start_line && p.end_column <= p.start_column))
      return fail(fmt::format("the point at IL offset {:#x} has an impossible span", p.offset));
    uint32_t delta_lines = p.end_line - p.start_line;
    w = put_compressed_u32(w, delta_lines);
    int32_t delta_columns = static_cast<int32_t>(p.end_column) - static_cast<int32_t>(p.start_column);
    if (delta_lines == 0) w = put_compressed_u32(w, static_cast<uint32_t>(delta_columns));
    else w = put_compressed_i32(w, delta_columns);
    if (first_visible) {
      w = put_compressed_u32(w, p.start_line);
      w = put_compressed_u32(w, p.start_column);
    } else {
      int64_t delta_line = int64_t{p.start_line} - line;
      if (delta_line < kMinSigned || delta_line > kMaxSigned)
        return fail(fmt::format("line {} is too far from line {} for the delta encoding", p.start_line, line));
      w = put_compressed_i32(w, static_cast<int32_t>(p.start_line) - static_cast<int32_t>(line));
      w = put_compressed_i32(w, static_cast<int32_t>(p.start_column) - static_cast<int32_t>(column));
    }
    line = p.start_line;
    column = p.start_column;
    first_visible = false;
  }
  out.resize(static_cast<size_t>(w - out.data()));
  return ok();
}

}  // namespace cil::md
