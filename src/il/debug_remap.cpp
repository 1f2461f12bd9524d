// Moving IL offsets of debug information through an OffsetMap.
#include "il/debug_remap.h"

#include <algorithm>

#include <fmt/format.h>

#include "metadata/signature.h"
#include "support/byte_reader.h"

namespace cil::il {

namespace {

Error remap_error(std::string structure, std::string message) {
  return make_error(ErrorKind::Format, std::move(structure), std::move(message));
}

Expected<uint32_t> moved(const OffsetMap& map, uint32_t offset, const char* structure, const char* what) {
  auto found = map.find(offset);
  if (!found) return remap_error(structure, fmt::format("{} IL_{:04x} is not the start of an instruction", what, offset));
  return *found;
}

void put_u32(std::vector<uint8_t>& out, uint32_t value) {
  uint8_t bytes[4];
  store_le(bytes, value);
  out.insert(out.end(), bytes, bytes + 4);
}

}  // namespace

Expected<md::MethodSequencePoints> remap_sequence_points(const md::MethodSequencePoints& in, const OffsetMap& map) {
  md::MethodSequencePoints out;
  CIL_TRY(remap_sequence_points_into(in, map, out));
  return out;
}

Status remap_sequence_points_into(const md::MethodSequencePoints& in, const OffsetMap& map, md::MethodSequencePoints& out) {
  out.points.clear();
  out.local_signature = in.local_signature;
  out.initial_document = in.initial_document;
  out.points.reserve(in.points.size() + 1);
  for (const auto& p : in.points) {
    md::SequencePoint q = p;
    q.offset = p.offset == 0 ? 0 : CIL_TRY(moved(map, p.offset, "sequence points", "the point at"));
    // Two boundaries share a new offset only where an edit removed the instruction between them:
    // the removed instruction's point goes, and the one at the instruction that is there stays.
    if (!out.points.empty() && out.points.back().offset == q.offset) out.points.pop_back();
    out.points.push_back(q);
  }
  if (!out.points.empty() && map.new_code_size() > map.new_end_of_original() &&
      out.points.back().offset < map.new_end_of_original())
    out.points.push_back(md::SequencePoint::make_hidden(map.new_end_of_original(), out.points.back().document));
  return ok();
}

namespace {

/// A compressed value (II.23.2) read from `r` into `v`: false when it does not read or is not in
/// the shortest form for its value, the form the encoder writes.
[[gnu::always_inline]] inline bool shortest_u32(ByteReader& r, uint32_t& v) {
  size_t at = r.position();
  auto read = r.compressed_u32();
  if (!read) return false;
  v = *read;
  return r.position() - at == md::compressed_u32_size(v);
}
[[gnu::always_inline]] inline bool shortest_i32(ByteReader& r, int32_t& v) {
  size_t at = r.position();
  auto read = r.compressed_i32();
  if (!read) return false;
  v = *read;
  return r.position() - at == md::compressed_i32_size(v);
}

}  // namespace

bool shift_sequence_points_blob(std::span<const uint8_t> blob, uint32_t row_document, uint32_t documents, const OffsetMap& map,
                                uint32_t local_signature, std::vector<uint8_t>& out) {
  using md::kMaxPointColumn, md::kMaxPointLine, md::kMaxPointOffset;
  auto entries = map.entries();
  // Nothing appended (no hidden point to add), and the shift is the first instruction's.
  if (entries.empty() || map.new_code_size() != map.new_end_of_original() || entries.front().new_offset < entries.front().old_offset)
    return false;
  const uint32_t shift = entries.front().new_offset - entries.front().old_offset;
  ByteReader r(blob, 0, "sequence points");
  // Each value read must have been written in its shortest form.
  uint32_t old_signature = 0, document = row_document;
  if (!shortest_u32(r, old_signature)) return false;
  if (!row_document && !shortest_u32(r, document)) return false;
  if (document == 0 || document > documents) return false;
  size_t cursor = 0;  // points ascend: the boundaries are walked once
  bool first = true, first_visible = true;
  uint32_t offset = 0, line = 0, column = 0;
  size_t patch_at = 0, patch_end = 0;  // the delta of the first point after offset 0
  uint32_t patched = 0;
  bool last_was_document = false;
  while (!r.at_end()) {
    size_t at = r.position();
    uint32_t delta_offset = 0;
    if (!shortest_u32(r, delta_offset)) return false;
    if (delta_offset == 0 && !first) {
      uint32_t next = 0;
      // A document record the encoder writes: before a point (checked at the next point and at
      // the end), naming a Document row that is not the current one.
      if (last_was_document || !shortest_u32(r, next) || next == document || next == 0 || next > documents) return false;
      document = next;
      last_was_document = true;
      continue;
    }
    last_was_document = false;
    if (uint64_t{offset} + delta_offset >= kMaxPointOffset) return false;
    offset += delta_offset;
    first = false;
    if (offset != 0) {
      while (cursor < entries.size() && entries[cursor].old_offset < offset) ++cursor;
      // Not an instruction, or one that moved by another amount than the first.
      if (cursor == entries.size() || entries[cursor].old_offset != offset || entries[cursor].new_offset != offset + shift) return false;
      if (uint64_t{offset} + shift >= kMaxPointOffset) return false;
      if (patch_end == 0) {
        patch_at = at;
        patch_end = r.position();
        patched = delta_offset + shift;
      }
    }
    uint32_t delta_lines = 0;
    if (!shortest_u32(r, delta_lines)) return false;
    int64_t delta_columns = 0;
    if (delta_lines == 0) {
      uint32_t v = 0;
      if (!shortest_u32(r, v)) return false;
      delta_columns = v;
    } else {
      int32_t v = 0;
      if (!shortest_i32(r, v)) return false;
      delta_columns = v;
    }
    if (delta_lines == 0 && delta_columns == 0) continue;  // hidden
    int64_t start_line = 0, start_column = 0;
    if (first_visible) {
      uint32_t l = 0, c = 0;
      if (!shortest_u32(r, l) || !shortest_u32(r, c)) return false;
      start_line = l;
      start_column = c;
    } else {
      int32_t dl = 0, dc = 0;
      if (!shortest_i32(r, dl) || !shortest_i32(r, dc)) return false;
      start_line = int64_t{line} + dl;
      start_column = int64_t{column} + dc;
    }
    int64_t end_line = start_line + delta_lines;
    int64_t end_column = start_column + delta_columns;
    if (start_line < 0 || end_line >= kMaxPointLine || start_line == md::kHiddenLine || end_line == md::kHiddenLine) return false;
    if (start_column < 0 || start_column >= kMaxPointColumn || end_column < 0 || end_column >= kMaxPointColumn) return false;
    // The encoder writes a point on one line only when it ends after it starts (so it is not
    // hidden): with delta_lines 0 the delta of columns is positive here.
    line = static_cast<uint32_t>(start_line);
    column = static_cast<uint32_t>(start_column);
    first_visible = false;
  }
  if (last_was_document) return false;  // a document record that no point follows
  // The blob again, with its header's local signature and the one delta rewritten.
  out.resize(blob.size() + 8);
  uint8_t* w = md::put_compressed_u32(out.data(), local_signature);
  size_t from = md::compressed_u32_size(old_signature);
  auto copy = [&](size_t begin, size_t end) { w = std::copy(blob.begin() + begin, blob.begin() + end, w); };
  if (patch_end == 0) {
    copy(from, blob.size());
  } else {
    copy(from, patch_at);
    w = md::put_compressed_u32(w, patched);
    copy(patch_end, blob.size());
  }
  out.resize(static_cast<size_t>(w - out.data()));
  return true;
}

Expected<ScopeRange> remap_scope(ScopeRange scope, const OffsetMap& map) {
  uint64_t end = uint64_t{scope.start} + scope.length;
  if (end > map.old_code_size())
    return remap_error("local scope", fmt::format("IL_{:04x}+{:#x} runs past the end of the code ({:#x} bytes)", scope.start,
                                                  scope.length, map.old_code_size()));
  uint32_t new_start = scope.start == 0 ? 0 : CIL_TRY(moved(map, scope.start, "local scope", "the start"));
  uint32_t new_end = end == map.old_code_size() ? map.new_code_size()
                                                : CIL_TRY(moved(map, static_cast<uint32_t>(end), "local scope", "the end"));
  if (scope.length == 0) new_end = new_start;
  return ScopeRange{new_start, new_end - new_start};
}

Expected<std::vector<uint8_t>> remap_hoisted_scopes(std::span<const uint8_t> value, const OffsetMap& map) {
  if (value.size() % 8)
    return remap_error("state machine hoisted local scopes", fmt::format("{} bytes is not a whole number of scopes", value.size()));
  std::vector<uint8_t> out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); i += 8) {
    ScopeRange scope{load_le<uint32_t>(value.data() + i), load_le<uint32_t>(value.data() + i + 4)};
    if (scope.start != 0 || scope.length != 0) scope = CIL_TRY(remap_scope(scope, map));
    put_u32(out, scope.start);
    put_u32(out, scope.length);
  }
  return out;
}

Expected<std::vector<uint8_t>> remap_async_stepping(std::span<const uint8_t> value, const OffsetMap& map,
                                                     const OffsetMapLookup& lookup) {
  const char* structure = "async method stepping information";
  ByteReader r(value, 0, structure);
  std::vector<uint8_t> out;
  out.reserve(value.size());
  uint32_t catch_handler = CIL_TRY(r.u32());  // offset + 1, or 0 for none
  put_u32(out, catch_handler == 0 ? 0 : CIL_TRY(moved(map, catch_handler - 1, structure, "the catch handler at")) + 1);
  while (!r.at_end()) {
    uint32_t yield = CIL_TRY(r.u32());
    uint32_t resume = CIL_TRY(r.u32());
    uint32_t resume_method = CIL_TRY(r.compressed_u32());
    put_u32(out, CIL_TRY(moved(map, yield, structure, "the yield point at")));
    const OffsetMap* resume_map = lookup ? lookup(resume_method) : nullptr;
    put_u32(out, resume_map ? CIL_TRY(moved(*resume_map, resume, structure, "the resume point at")) : resume);
    md::encode_compressed_u32(out, resume_method);
  }
  return out;
}

}  // namespace cil::il
