// Metadata serialisation: root, stream headers, tables stream, heaps.
#include "metadata/metadata_writer.h"

#include <cstring>

#include <fmt/format.h>

#include "support/byte_reader.h"

namespace cil::md {

namespace {

void put(std::vector<uint8_t>& out, uint32_t value, uint8_t width) {
  if (width == 2) {
    out.push_back(value & 0xFF);
    out.push_back((value >> 8) & 0xFF);
  } else {
    for (int i = 0; i < 4; ++i) out.push_back((value >> (8 * i)) & 0xFF);
  }
}

void put64(std::vector<uint8_t>& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back((value >> (8 * i)) & 0xFF);
}

void pad4(std::vector<uint8_t>& out) {
  while (out.size() % 4) out.push_back(0);
}

uint64_t max_value(uint8_t width) { return width == 2 ? 0xFFFFu : 0xFFFFFFFFu; }

/// The tables stream as pieces: tables that did not change are views of the input.
Expected<pe::OutputImage> write_tables(const Metadata& md, const TableEdits& edits, const HeapContents& heaps,
                                       bool all_large, const PdbStream* pdb) {
  const TablesStream& old = md.tables();
  TableLayout layout;
  layout.all_large = all_large;
  if (pdb) layout.referenced_rows = pdb->rows;
  // Heaps keep their large flag once set; a heap that grew past 64 KiB gets it.
  layout.large_strings = (old.heap_sizes() & kHeapLargeStrings) || heaps.strings.size() > 0xFFFF;
  layout.large_guids = (old.heap_sizes() & kHeapLargeGuids) || heaps.guids.size() / 16 > 0xFFFF;
  layout.large_blobs = (old.heap_sizes() & kHeapLargeBlobs) || heaps.blobs.size() > 0xFFFF;
  uint64_t valid = old.valid_mask();
  for (unsigned id = 0; id < kTableSlots; ++id) {
    TableId t = static_cast<TableId>(id);
    uint64_t rows = uint64_t{old.rows(t)} + edits.added_rows(t);
    if (rows > kMaxRows) return make_error(ErrorKind::Limit, "#~ stream", fmt::format("{} would exceed {} rows", table_schema(t).name, kMaxRows));
    layout.rows[id] = static_cast<uint32_t>(rows);
    if (rows) valid |= uint64_t{1} << id;
  }
  layout.compute();

  pe::OutputImage stream;
  std::vector<uint8_t> out;  // bytes since the last view
  put(out, 0, 4);  // Reserved
  out.push_back(old.major_version());
  out.push_back(old.minor_version());
  uint8_t heap_sizes = old.heap_sizes() & ~(kHeapLargeStrings | kHeapLargeGuids | kHeapLargeBlobs | kHeapExtraData);
  if (layout.large_strings) heap_sizes |= kHeapLargeStrings;
  if (layout.large_guids) heap_sizes |= kHeapLargeGuids;
  if (layout.large_blobs) heap_sizes |= kHeapLargeBlobs;
  out.push_back(heap_sizes);
  out.push_back(1);  // Reserved, always 1
  put64(out, valid);
  put64(out, old.sorted_mask());
  for (unsigned id = 0; id < kTableSlots; ++id)
    if ((valid >> id) & 1) put(out, layout.rows[id], 4);

  for (unsigned id = 0; id < kTableSlots; ++id) {
    TableId t = static_cast<TableId>(id);
    const TableSchema& schema = table_schema(static_cast<uint8_t>(id));
    const auto& new_info = layout.tables[id];
    const auto& old_info = old.layout().tables[id];
    uint32_t old_rows = old.rows(t);
    bool same_shape = new_info.row_size == old_info.row_size && new_info.width == old_info.width;
    // The changed columns of this table, found once (not per cell).
    std::array<const TableEdits::Column*, kMaxColumns> changes{};
    bool any_change = false;
    for (const auto& [key, column] : edits.changed)
      if (key.first == id && key.second < kMaxColumns) {
        changes[key.second] = &column;
        any_change = true;
      }
    if (same_shape && !any_change) {
      stream.append_owned(std::move(out));
      out = {};
      stream.append_view(old.table_bytes(t));
    } else {
      size_t start = out.size();
      size_t added_rows = edits.added[id].size() / std::max<size_t>(schema.columns.size(), 1);
      out.reserve(start + (uint64_t{old_rows} + added_rows) * new_info.row_size);
      // Same shape: the old rows as they are, then each changed cell stored over its place. A
      // value that does not fit sends the table to the cell-by-cell loop, whose error names the
      // first such cell in row order.
      bool patched = false;
      if (same_shape) {
        auto bytes = old.table_bytes(t);
        out.insert(out.end(), bytes.begin(), bytes.end());
        patched = true;
        for (uint8_t c = 0; c < schema.columns.size() && patched; ++c) {
          const TableEdits::Column* column = changes[c];
          if (!column) continue;
          uint8_t width = new_info.width[c];
          uint8_t* cell = out.data() + start + new_info.offset[c];
          uint32_t last = std::min<uint32_t>(old_rows, static_cast<uint32_t>(column->set.size()) - 1);
          for (uint32_t rid = 1; rid <= last; ++rid) {
            if (!column->set[rid]) continue;
            uint32_t value = column->values[rid];
            if (value > max_value(width)) {
              patched = false;
              break;
            }
            uint8_t* at = cell + size_t{rid - 1} * new_info.row_size;
            if (width == 2) store_le(at, static_cast<uint16_t>(value));
            else store_le(at, value);
          }
        }
        if (!patched) out.resize(start);
      }
      for (uint32_t rid = 1; rid <= old_rows && !patched; ++rid) {
        for (uint8_t c = 0; c < schema.columns.size(); ++c) {
          uint32_t value = old.get(t, rid, c);
          if (const TableEdits::Column* column = changes[c]; column && rid < column->set.size() && column->set[rid])
            value = column->values[rid];
          if (value > max_value(new_info.width[c]))
            return make_error(ErrorKind::Limit, "#~ stream", fmt::format("{} row {} column {} does not fit", schema.name, rid, schema.columns[c].name));
          put(out, value, new_info.width[c]);
        }
      }
    }
    const auto& added = edits.added[id];
    for (size_t i = 0; i < added.size(); ++i) {
      uint8_t c = static_cast<uint8_t>(i % schema.columns.size());
      if (added[i] > max_value(new_info.width[c]))
        return make_error(ErrorKind::Limit, "#~ stream", fmt::format("new {} row: column {} does not fit", schema.name, schema.columns[c].name));
      put(out, added[i], new_info.width[c]);
    }
  }
  // System.Reflection.Metadata ends a tables stream with a zero byte before the padding; PDB
  // metadata follows it, so that a PDB read and written unchanged keeps its bytes (and its id).
  if (pdb) out.push_back(0);
  stream.append_owned(std::move(out));
  stream.append_zeros((4 - stream.size() % 4) % 4);
  return stream;
}

}  // namespace

Expected<uint64_t> write_metadata(const Metadata& md, const TableEdits& edits, HeapContents heaps, pe::OutputImage& out,
                                  const PdbStream* pdb, uint64_t* pdb_offset) {
  if (static_cast<bool>(pdb) != md.pdb_stream().has_value())
    return make_error(ErrorKind::Usage, "metadata", "a #Pdb stream must be written exactly for PDB metadata");
  bool all_large = md.tables().layout().all_large;
  pe::OutputImage tables = CIL_TRY(write_tables(md, edits, heaps, all_large, pdb));
  std::vector<uint8_t> pdb_bytes;
  if (pdb) pdb_bytes = pdb->encode();

  enum class Kind { Tables, Pdb, Heap, Jtd };
  struct Stream {
    std::string name;
    Kind kind;
    HeapData* heap;                    ///< for a heap
    uint64_t size;
    uint64_t padded_size() const { return (size + 3) & ~uint64_t{3}; }
  };
  std::vector<Stream> streams;
  // The used streams, in their original order; heaps that did not exist but now have content
  // are added after them.
  bool have_strings = false, have_us = false, have_blob = false, have_guid = false;
  for (const auto& s : md.streams()) {
    if (!s.used) continue;
    int index = static_cast<int>(&s - md.streams().data());
    if (index == md.tables_stream_index()) {
      streams.push_back({md.uncompressed() ? "#-" : "#~", Kind::Tables, nullptr, tables.size()});
    } else if (index == md.stream_index("#Pdb")) {
      streams.push_back({s.name, Kind::Pdb, nullptr, pdb_bytes.size()});
    } else if (index == md.stream_index("#Strings")) {
      streams.push_back({s.name, Kind::Heap, &heaps.strings, heaps.strings.size()});
      have_strings = true;
    } else if (index == md.stream_index("#US")) {
      streams.push_back({s.name, Kind::Heap, &heaps.user_strings, heaps.user_strings.size()});
      have_us = true;
    } else if (index == md.stream_index("#Blob")) {
      streams.push_back({s.name, Kind::Heap, &heaps.blobs, heaps.blobs.size()});
      have_blob = true;
    } else if (index == md.stream_index("#GUID")) {
      streams.push_back({s.name, Kind::Heap, &heaps.guids, heaps.guids.size()});
      have_guid = true;
    }
  }
  if (!have_strings && !heaps.strings.added.empty()) streams.push_back({"#Strings", Kind::Heap, &heaps.strings, heaps.strings.size()});
  if (!have_us && !heaps.user_strings.added.empty()) streams.push_back({"#US", Kind::Heap, &heaps.user_strings, heaps.user_strings.size()});
  if (!have_guid && heaps.guids.size() > 1) streams.push_back({"#GUID", Kind::Heap, &heaps.guids, heaps.guids.size()});
  if (!have_blob && !heaps.blobs.added.empty()) streams.push_back({"#Blob", Kind::Heap, &heaps.blobs, heaps.blobs.size()});
  if (all_large) streams.push_back({"#JTD", Kind::Jtd, nullptr, 0});

  // Root (II.24.2.1) and stream headers.
  std::vector<uint8_t> root;
  put(root, kMetadataSignature, 4);
  put(root, md.major_version(), 2);
  put(root, md.minor_version(), 2);
  put(root, 0, 4);
  std::vector<uint8_t> version(md.version().begin(), md.version().end());
  version.push_back(0);
  pad4(version);
  put(root, static_cast<uint32_t>(version.size()), 4);
  root.insert(root.end(), version.begin(), version.end());
  put(root, md.flags(), 2);
  put(root, static_cast<uint32_t>(streams.size()), 2);
  size_t headers_size = 0;
  for (const auto& s : streams) headers_size += 8 + ((s.name.size() + 1 + 3) & ~size_t{3});
  uint64_t offset = root.size() + headers_size;
  for (const auto& s : streams) {
    if (offset + s.padded_size() > 0xFFFFFFFF) return make_error(ErrorKind::Limit, "metadata", "metadata would exceed 4 GiB");
    if (s.kind == Kind::Pdb && pdb_offset) *pdb_offset = offset;
    put(root, static_cast<uint32_t>(offset), 4);
    put(root, static_cast<uint32_t>(s.padded_size()), 4);
    root.insert(root.end(), s.name.begin(), s.name.end());
    root.push_back(0);
    pad4(root);
    offset += s.padded_size();
  }
  out.append_owned(std::move(root));
  for (auto& s : streams) {
    switch (s.kind) {
      case Kind::Tables: out.append(std::move(tables)); break;
      case Kind::Pdb:
        out.append_owned(std::move(pdb_bytes));
        out.append_zeros(s.padded_size() - s.size);
        break;
      case Kind::Heap:
        out.append_view(s.heap->original);
        out.append_owned(std::move(s.heap->added));
        out.append_zeros(s.padded_size() - s.size);
        break;
      case Kind::Jtd: break;
    }
  }
  return offset;
}

}  // namespace cil::md
