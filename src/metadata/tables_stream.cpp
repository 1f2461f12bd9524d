// Parsing of the tables stream header and the extent check of every table.
#include "metadata/tables_stream.h"

#include <fmt/format.h>

namespace cil::md {

Expected<TablesStream> TablesStream::parse(ByteReader r, bool all_large,
                                           const std::array<uint32_t, kTableSlots>* referenced_rows) {
  TablesStream t;
  t.stream_offset_ = r.base_offset();
  CIL_TRY(r.skip(4));  // Reserved
  t.major_ = CIL_TRY(r.u8());
  t.minor_ = CIL_TRY(r.u8());
  t.heap_sizes_ = CIL_TRY(r.u8());
  CIL_TRY(r.skip(1));  // Reserved
  t.valid_ = CIL_TRY(r.u64());
  t.sorted_ = CIL_TRY(r.u64());

  TableLayout& layout = t.layout_;
  layout.large_strings = t.heap_sizes_ & kHeapLargeStrings;
  layout.large_guids = t.heap_sizes_ & kHeapLargeGuids;
  layout.large_blobs = t.heap_sizes_ & kHeapLargeBlobs;
  layout.all_large = all_large;
  if (referenced_rows) layout.referenced_rows = *referenced_rows;
  for (unsigned id = 0; id < kTableSlots; ++id) {
    if (!((t.valid_ >> id) & 1)) continue;
    uint64_t count_offset = r.file_offset();
    uint32_t rows = CIL_TRY(r.u32());
    if (!table_schema(static_cast<uint8_t>(id)).defined())
      return r.error_at(r.position() - 4, fmt::format("table {:#04x} is marked present but is not a known table", id));
    if (rows > kMaxRows)
      return make_error(ErrorKind::Limit, "#~ stream",
                        fmt::format("{} has {} rows, more than a token can address", table_schema(static_cast<uint8_t>(id)).name, rows),
                        count_offset);
    layout.rows[id] = rows;
  }
  // Heap-sizes flag 0x40 (outside ECMA-335 II.24.2.6) adds a word before the tables; CoreCLR
  // reads past it too, and nothing here uses its value.
  if (t.heap_sizes_ & kHeapExtraData) CIL_TRY(r.skip(4));
  layout.compute();

  for (unsigned id = 0; id < kTableSlots; ++id) {
    uint32_t rows = layout.rows[id];
    uint64_t bytes = uint64_t{rows} * layout.tables[id].row_size;
    t.table_offset_[id] = r.file_offset();
    if (bytes > r.remaining())
      return r.error_here(fmt::format("table {} ({} rows of {} bytes) runs past the end of the stream",
                                      table_schema(static_cast<uint8_t>(id)).name, rows, layout.tables[id].row_size));
    t.table_data_[id] = r.data().data() + r.position();
    CIL_TRY(r.skip(static_cast<size_t>(bytes)));
  }
  return t;
}

Token TablesStream::decode(CodedIndex kind, uint32_t value) const {
  const CodedIndexSchema& schema = coded_index_schema(kind);
  uint32_t tag = value & ((1u << schema.tag_bits) - 1);
  if (tag >= schema.tables.size() || schema.tables[tag] == TableId::Unused) return Token();
  uint32_t rid = value >> schema.tag_bits;
  if (rid > kMaxRid) return Token();
  return make_token(schema.tables[tag], rid);
}

std::optional<uint32_t> encode_coded_index(CodedIndex kind, Token token) {
  const CodedIndexSchema& schema = coded_index_schema(kind);
  for (size_t tag = 0; tag < schema.tables.size(); ++tag) {
    if (schema.tables[tag] == token_table(token) && schema.tables[tag] != TableId::Unused)
      return (token_rid(token) << schema.tag_bits) | static_cast<uint32_t>(tag);
  }
  return std::nullopt;
}

}  // namespace cil::md
