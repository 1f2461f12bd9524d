// Moving IL offsets of debug information through an OffsetMap.
#include "instrument/debug_remap.h"

#include <algorithm>

#include <fmt/format.h>

#include "metadata/signature.h"
#include "support/byte_reader.h"

namespace cil::instrument {

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

/// Not the blob the encoder would write: the short way gives up, and the long way names what is
/// wrong (built only then; no message is needed).
Error not_encoders_form() { return make_error(ErrorKind::Format, "sequence points", "not in the encoder's form"); }

/// Compressed integers (II.23.2) in the shortest form for their value only, the form the encoder
/// writes.
struct ShortestIntegerForm {
  [[gnu::always_inline]] static Expected<uint32_t> u32(ByteReader& r) {
    size_t at = r.position();
    uint32_t v = CIL_TRY(r.compressed_u32());
    if (r.position() - at != md::compressed_u32_size(v)) return not_encoders_form();
    return v;
  }
  [[gnu::always_inline]] static Expected<int32_t> i32(ByteReader& r) {
    size_t at = r.position();
    int32_t v = CIL_TRY(r.compressed_i32());
    if (r.position() - at != md::compressed_i32_size(v)) return not_encoders_form();
    return v;
  }
};

/// The short way's checks on top of the walk's (scan_sequence_points' visitor): the blob's
/// documents exist and its document records are the encoder's (before a point, naming another
/// document); every point after offset 0 is on an instruction that moved by `shift`, and stays
/// below the offset limit. Notes where the delta of the first point after offset 0 is, the one
/// value that changes.
struct ShiftCheck {
  uint32_t row_document, documents, shift;
  std::span<const OffsetMap::Entry> entries;
  uint32_t old_signature = 0, current = 0;  // the document of the points that follow
  size_t cursor = 0;  // points ascend: the boundaries are walked once
  bool last_was_document = false;
  size_t patch_at = 0, patch_end = 0;
  uint32_t patched = 0;

  Status header(uint32_t local_signature, uint32_t initial_document) {
    old_signature = local_signature;
    current = row_document ? row_document : initial_document;
    if (current == 0 || current > documents) return not_encoders_form();
    return ok();
  }
  Status document(uint32_t next) {
    if (last_was_document || next == current || next == 0 || next > documents) return not_encoders_form();
    current = next;
    last_was_document = true;
    return ok();
  }
  [[gnu::always_inline]] Status point(const md::SequencePoint& p, size_t delta_at, size_t delta_end, uint32_t delta_offset) {
    last_was_document = false;
    if (p.offset == 0) return ok();
    while (cursor < entries.size() && entries[cursor].old_offset < p.offset) ++cursor;
    // Not an instruction, or one that moved by another amount than the first.
    if (cursor == entries.size() || entries[cursor].old_offset != p.offset || entries[cursor].new_offset != p.offset + shift)
      return not_encoders_form();
    if (uint64_t{p.offset} + shift >= md::kMaxPointOffset) return not_encoders_form();
    if (patch_end == 0) {
      patch_at = delta_at;
      patch_end = delta_end;
      patched = delta_offset + shift;
    }
    return ok();
  }
  Status end() { return last_was_document ? not_encoders_form() : ok(); }  // a record no point follows
};

}  // namespace

bool shift_sequence_points_blob(std::span<const uint8_t> blob, uint32_t row_document, uint32_t documents, const OffsetMap& map,
                                uint32_t local_signature, std::vector<uint8_t>& out) {
  auto entries = map.entries();
  // Nothing appended (no hidden point to add), and the shift is the first instruction's.
  if (entries.empty() || map.new_code_size() != map.new_end_of_original() || entries.front().new_offset < entries.front().old_offset)
    return false;
  ShiftCheck check{row_document, documents, entries.front().new_offset - entries.front().old_offset, entries};
  if (!md::scan_sequence_points<ShortestIntegerForm>(ByteReader(blob, 0, "sequence points"), row_document, check)) return false;
  // The blob again, with its header's local signature and the one delta rewritten.
  out.resize(blob.size() + 8);
  uint8_t* w = md::put_compressed_u32(out.data(), local_signature);
  size_t from = md::compressed_u32_size(check.old_signature);
  auto copy = [&](size_t begin, size_t end) { w = std::copy(blob.begin() + begin, blob.begin() + end, w); };
  if (check.patch_end == 0) {
    copy(from, blob.size());
  } else {
    copy(from, check.patch_at);
    w = md::put_compressed_u32(w, check.patched);
    copy(check.patch_end, blob.size());
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

}  // namespace cil::instrument
