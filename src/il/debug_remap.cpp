// Moving IL offsets of debug information through an OffsetMap.
#include "il/debug_remap.h"

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
