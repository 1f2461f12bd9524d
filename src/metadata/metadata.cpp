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
  if (heap_name == "#Pdb") return pdb_index_;
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
    } else if (key == (md.uncompressed_ ? "#PDB" : "#Pdb")) {
      choose(md.pdb_index_, i);
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

  // Portable PDB v1.0: a standalone PDB's #Pdb stream gives the row counts that size its
  // indexes into the assembly's type-system tables.
  if (md.pdb_index_ >= 0) {
    StreamHeader& ps = md.streams_[md.pdb_index_];
    ps.used = true;
    md.pdb_ = CIL_TRY(PdbStream::parse(CIL_TRY(r.sub(ps.offset, ps.size, "#Pdb stream"))));
  }
  StreamHeader& ts = md.streams_[md.tables_index_];
  ts.used = true;
  ByteReader tables = CIL_TRY(r.sub(ts.offset, ts.size, md.uncompressed_ ? "#- stream" : "#~ stream"));
  md.tables_ = CIL_TRY(TablesStream::parse(tables, all_large, md.pdb_ ? &md.pdb_->rows : nullptr));
  CIL_TRY(md.check_heap_indexes());
  return md;
}

Status Metadata::check_heap_indexes() const {
  // II.24.2.6: a heap index names an entry of its heap; 0 is the empty entry of every heap.
  for (unsigned id = 0; id < kTableSlots; ++id) {
    auto table = static_cast<TableId>(id);
    const TableSchema& schema = table_schema(table);
    if (!tables_.rows(table)) continue;
    const auto& layout = tables_.layout().table(table);
    for (uint8_t c = 0; c < schema.columns.size(); ++c) {
      ColumnKind kind = schema.columns[c].kind;
      if (kind != ColumnKind::String && kind != ColumnKind::Blob && kind != ColumnKind::Guid) continue;
      const Heap& heap = kind == ColumnKind::String ? static_cast<const Heap&>(strings_)
                         : kind == ColumnKind::Blob ? static_cast<const Heap&>(blobs_)
                                                    : static_cast<const Heap&>(guids_);
      // A 2-byte index into a #Strings or #Blob heap of more than 0xFFFF bytes is always inside it.
      if (layout.width[c] == 2 && kind != ColumnKind::Guid && heap.size() > 0xFFFF) continue;
      uint32_t rid = tables_.first_cell_where(table, c, [&](uint32_t, uint32_t index) {
        return kind == ColumnKind::Guid ? uint64_t{index} * 16 > heap.size() : index != 0 && index >= heap.size();
      });
      if (!rid) continue;
      const char* heap_name = kind == ColumnKind::String ? "#Strings" : kind == ColumnKind::Blob ? "#Blob" : "#GUID";
      return make_error(ErrorKind::Format, fmt::format("{} row {} {}", schema.name, rid, schema.columns[c].name),
                        fmt::format("{} index {:#x} is past the end of the heap (size {:#x})", heap_name,
                                    tables_.get(table, rid, c), heap.size()),
                        tables_.table_file_offset(table) + uint64_t{rid - 1} * layout.row_size + layout.offset[c]);
    }
  }
  return ok();
}

}  // namespace cil::md
