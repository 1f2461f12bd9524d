// Parsing of the metadata root and the choice among duplicate streams.
#include "metadata/metadata.h"

#include <algorithm>

#include <fmt/format.h>

namespace cil::md {

namespace {

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return out;
}

}  // namespace

int Metadata::stream_index(std::string_view heap_name) const {
  if (heap_name == "#Strings") return strings_index_;
  if (heap_name == "#Blob") return blobs_index_;
  if (heap_name == "#US") return us_index_;
  if (heap_name == "#GUID") return guids_index_;
  if (heap_name == "#~" || heap_name == "#-") return tables_index_;
  return -1;
}

Expected<Metadata> Metadata::parse(ByteReader r) {
  Metadata md;
  md.file_offset_ = r.base_offset();
  md.size_ = static_cast<uint32_t>(r.size());
  uint32_t signature = CIL_TRY(r.u32());
  if (signature != kMetadataSignature)
    return r.error_at(0, fmt::format("signature {:#x} is not BSJB", signature));
  md.major_ = CIL_TRY(r.u16());
  md.minor_ = CIL_TRY(r.u16());
  CIL_TRY(r.skip(4));  // Reserved
  uint32_t version_length = CIL_TRY(r.u32());
  if (version_length > kMaxVersionLength)
    return make_error(ErrorKind::Limit, std::string(r.structure()),
                      fmt::format("version string length {} exceeds the limit of {}", version_length, kMaxVersionLength),
                      r.base_offset() + 12);
  auto version = CIL_TRY(r.bytes(version_length));
  size_t end = 0;
  while (end < version.size() && version[end] != 0) ++end;
  md.version_.assign(reinterpret_cast<const char*>(version.data()), end);
  md.flags_ = CIL_TRY(r.u16());
  uint16_t stream_count = CIL_TRY(r.u16());
  if (stream_count > kMaxStreams)
    return make_error(ErrorKind::Limit, "metadata root",
                      fmt::format("{} streams exceed the limit of {}", stream_count, kMaxStreams), r.file_offset() - 2);

  for (uint16_t i = 0; i < stream_count; ++i) {
    StreamHeader s;
    s.header_file_offset = static_cast<uint32_t>(r.file_offset());
    s.offset = CIL_TRY(r.u32());
    s.size = CIL_TRY(r.u32());
    size_t name_start = r.position();
    auto name = r.c_string(31);
    if (!name)
      return make_error(ErrorKind::Format, "metadata stream header", name.error().message, name.error().offset);
    s.name = std::string(*name);
    size_t consumed = r.position() - name_start;
    CIL_TRY(r.skip(((consumed + 3) & ~size_t{3}) - consumed));
    if (!r.contains(s.offset, s.size))
      return make_error(ErrorKind::Format, fmt::format("metadata stream '{}'", s.name),
                        fmt::format("range {:#x}+{:#x} lies outside the metadata ({:#x} bytes)", s.offset, s.size,
                                    r.size()),
                        s.header_file_offset);
    md.streams_.push_back(std::move(s));
  }

  // The CLR decides the kind by the first #~ or #- stream, and #Schema forces uncompressed.
  // Compressed metadata: exact names, the last stream of a name wins. Uncompressed: names
  // compare case-insensitively and the first wins (dnlib documents the same behaviour).
  bool kind_known = false;
  for (const auto& s : md.streams_) {
    if (!kind_known && (s.name == "#~" || s.name == "#-")) {
      md.uncompressed_ = s.name == "#-";
      kind_known = true;
    }
    if (s.name == "#Schema") md.uncompressed_ = true;
  }
  bool all_large = false;
  auto choose = [&](int& slot, int index) {
    if (!md.uncompressed_ || slot < 0) slot = index;
  };
  for (int i = 0; i < static_cast<int>(md.streams_.size()); ++i) {
    const std::string& name = md.streams_[i].name;
    std::string key = md.uncompressed_ ? upper(name) : name;
    bool is_tables = md.uncompressed_ ? (key == "#~" || key == "#-") : key == "#~";
    if (is_tables) {
      choose(md.tables_index_, i);
    } else if (key == (md.uncompressed_ ? "#STRINGS" : "#Strings")) {
      choose(md.strings_index_, i);
    } else if (key == (md.uncompressed_ ? "#BLOB" : "#Blob")) {
      choose(md.blobs_index_, i);
    } else if (key == "#US") {
      choose(md.us_index_, i);
    } else if (key == "#GUID") {
      choose(md.guids_index_, i);
    } else if (key == "#JTD" && md.uncompressed_) {
      all_large = true;
    }
  }
  if (md.tables_index_ < 0)
    return make_error(ErrorKind::Format, "metadata root", "no #~ or #- tables stream", md.file_offset_);

  auto heap_span = [&](int index) -> std::pair<std::span<const uint8_t>, uint64_t> {
    if (index < 0) return {{}, 0};
    StreamHeader& s = md.streams_[index];
    s.used = true;
    return {r.data().subspan(s.offset, s.size), r.base_offset() + s.offset};
  };
  auto [strings, strings_at] = heap_span(md.strings_index_);
  md.strings_ = StringHeap(strings, strings_at);
  auto [blobs, blobs_at] = heap_span(md.blobs_index_);
  md.blobs_ = BlobHeap(blobs, blobs_at);
  auto [us, us_at] = heap_span(md.us_index_);
  md.user_strings_ = UserStringHeap(us, us_at);
  auto [guids, guids_at] = heap_span(md.guids_index_);
  md.guids_ = GuidHeap(guids, guids_at);

  StreamHeader& ts = md.streams_[md.tables_index_];
  ts.used = true;
  ByteReader tables = CIL_TRY(r.sub(ts.offset, ts.size, md.uncompressed_ ? "#- stream" : "#~ stream"));
  md.tables_ = CIL_TRY(TablesStream::parse(tables, all_large));
  return md;
}

}  // namespace cil::md
