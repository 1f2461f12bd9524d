// Width rules of II.24.2.6: 2-byte indexes until a table or heap is too large for them (a
// portable PDB's indexes into type-system tables count the rows its #Pdb stream gives).
#include "metadata/table_layout.h"

namespace cil::md {

uint8_t TableLayout::table_index_width(TableId target) const {
  if (all_large) return 4;
  return sizing_rows(static_cast<uint8_t>(target)) < 0x10000 ? 2 : 4;
}

uint8_t TableLayout::coded_index_width(CodedIndex kind) const {
  if (all_large) return 4;
  const CodedIndexSchema& schema = coded_index_schema(kind);
  uint32_t largest = 0;
  for (TableId t : schema.tables) {
    if (t != TableId::Unused) largest = std::max(largest, sizing_rows(static_cast<uint8_t>(t)));
  }
  return largest < (1u << (16 - schema.tag_bits)) ? 2 : 4;
}

void TableLayout::compute() {
  for (unsigned id = 0; id < kTableSlots; ++id) {
    const TableSchema& schema = table_schema(static_cast<uint8_t>(id));
    Table& t = tables[id];
    t = Table{};
    uint32_t offset = 0;
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      const ColumnSchema& column = schema.columns[c];
      uint8_t width = 0;
      switch (column.kind) {
        case ColumnKind::U16: width = 2; break;
        case ColumnKind::U32: width = 4; break;
        case ColumnKind::String: width = (large_strings || all_large) ? 4 : 2; break;
        case ColumnKind::Guid: width = (large_guids || all_large) ? 4 : 2; break;
        case ColumnKind::Blob: width = (large_blobs || all_large) ? 4 : 2; break;
        case ColumnKind::Table: width = table_index_width(static_cast<TableId>(column.target)); break;
        case ColumnKind::Coded: width = coded_index_width(static_cast<CodedIndex>(column.target)); break;
      }
      t.offset[c] = static_cast<uint8_t>(offset);
      t.width[c] = width;
      offset += width;
    }
    t.row_size = offset;
  }
}

}  // namespace cil::md
