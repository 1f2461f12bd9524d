// Metadata serialisation: root, stream headers, tables stream, heaps.
#include "metadata/metadata_writer.h"

#include <cstring>

#include <fmt/format.h>

#include "pe/byte_reader.h"

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

Expected<std::vector<uint8_t>> write_tables(const Metadata& md, const TableEdits& edits, const HeapContents& heaps,
                                            bool all_large) {
  const TablesStream& old = md.tables();
  TableLayout layout;
  layout.all_large = all_large;
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

  std::vector<uint8_t> out;
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
    bool any_change = false;
    if (!edits.changed.empty()) {
      for (const auto& [key, value] : edits.changed)
        if ((key >> 56) == id) any_change = true;
    }
    if (same_shape && !any_change) {
      auto bytes = old.table_bytes(t);
      out.insert(out.end(), bytes.begin(), bytes.end());
    } else {
      for (uint32_t rid = 1; rid <= old_rows; ++rid) {
        for (uint8_t c = 0; c < schema.columns.size(); ++c) {
          uint32_t value = old.get(t, rid, c);
          if (any_change) {
            auto it = edits.changed.find(TableEdits::key(t, rid, c));
            if (it != edits.changed.end()) value = it->second;
          }
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
  pad4(out);
  return out;
}

}  // namespace

Expected<std::vector<uint8_t>> write_metadata(const Metadata& md, const TableEdits& edits, const HeapContents& heaps) {
  bool all_large = md.tables().layout().all_large;
  std::vector<uint8_t> tables = CIL_TRY(write_tables(md, edits, heaps, all_large));

  struct Stream {
    std::string name;
    const std::vector<uint8_t>* data;
    std::vector<uint8_t> padded;
  };
  std::vector<Stream> streams;
  auto add_stream = [&](std::string name, const std::vector<uint8_t>& data) {
    Stream s{std::move(name), nullptr, data};
    pad4(s.padded);
    streams.push_back(std::move(s));
  };
  // The used streams, in their original order; heaps that did not exist but now have content
  // are added after them.
  bool have_strings = false, have_us = false, have_blob = false, have_guid = false;
  for (const auto& s : md.streams()) {
    if (!s.used) continue;
    int index = static_cast<int>(&s - md.streams().data());
    if (index == md.tables_stream_index()) {
      add_stream(md.uncompressed() ? "#-" : "#~", tables);
    } else if (index == md.stream_index("#Strings")) {
      add_stream(s.name, heaps.strings);
      have_strings = true;
    } else if (index == md.stream_index("#US")) {
      add_stream(s.name, heaps.user_strings);
      have_us = true;
    } else if (index == md.stream_index("#Blob")) {
      add_stream(s.name, heaps.blobs);
      have_blob = true;
    } else if (index == md.stream_index("#GUID")) {
      add_stream(s.name, heaps.guids);
      have_guid = true;
    }
  }
  if (!have_strings && heaps.strings.size() > 1) add_stream("#Strings", heaps.strings);
  if (!have_us && heaps.user_strings.size() > 1) add_stream("#US", heaps.user_strings);
  if (!have_guid && !heaps.guids.empty()) add_stream("#GUID", heaps.guids);
  if (!have_blob && heaps.blobs.size() > 1) add_stream("#Blob", heaps.blobs);
  if (all_large) add_stream("#JTD", {});

  // Root (II.24.2.1).
  std::vector<uint8_t> out;
  put(out, kMetadataSignature, 4);
  put(out, md.major_version(), 2);
  put(out, md.minor_version(), 2);
  put(out, 0, 4);
  std::vector<uint8_t> version(md.version().begin(), md.version().end());
  version.push_back(0);
  pad4(version);
  put(out, static_cast<uint32_t>(version.size()), 4);
  out.insert(out.end(), version.begin(), version.end());
  put(out, md.flags(), 2);
  put(out, static_cast<uint32_t>(streams.size()), 2);
  size_t headers_size = 0;
  for (const auto& s : streams) headers_size += 8 + ((s.name.size() + 1 + 3) & ~size_t{3});
  uint64_t offset = out.size() + headers_size;
  for (const auto& s : streams) {
    put(out, static_cast<uint32_t>(offset), 4);
    put(out, static_cast<uint32_t>(s.padded.size()), 4);
    out.insert(out.end(), s.name.begin(), s.name.end());
    out.push_back(0);
    pad4(out);
    offset += s.padded.size();
  }
  if (offset > 0xFFFFFFFF) return make_error(ErrorKind::Limit, "metadata", "metadata would exceed 4 GiB");
  for (const auto& s : streams) out.insert(out.end(), s.padded.begin(), s.padded.end());
  return out;
}

}  // namespace cil::md
