// The cell-by-cell reference check of every table (see reference_check.h).
#include "metadata/reference_check.h"

#include <array>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "metadata/schema.h"

namespace cil::md {

namespace {

/// The first table of a portable PDB (Portable PDB v1.0, "Metadata tables").
constexpr uint8_t kFirstPdbTable = 0x30;

/// A list column (II.22: FieldList, MethodList, ParamList, EventList, PropertyList, and the
/// PDB's VariableList and ConstantList): the first of a run of rows that ends where the next
/// row's run begins.
bool is_list(const ColumnSchema& column) { return column.kind == ColumnKind::Table && column.name.ends_with("List"); }

}  // namespace

Status check_references(const Metadata& metadata, ReferenceScope scope, ReferenceCheckStats* stats) {
  const bool pdb_only = scope == ReferenceScope::PdbOwn;
  const TablesStream& tables = metadata.tables();
  // II.24.2.3: every string ends with a NUL, so in a heap that ends with one every in-range index
  // (the reader checked the range) reads a terminated string; otherwise each is read.
  auto heap = metadata.strings().data();
  bool strings_terminated = heap.empty() || heap.back() == 0;
  for (unsigned id = 0; id < kTableSlots; ++id) {
    auto table = static_cast<TableId>(id);
    const TableSchema& schema = table_schema(table);
    uint32_t rows = tables.rows(table);
    if (!schema.defined() || !rows || !tables.present(table)) continue;
    if (stats) {
      ++stats->tables;
      stats->rows += rows;
    }
    const auto& layout = tables.layout().table(table);
    // Column by column, each with a test of its own kind decided once: the cells are read in
    // place, and the message is made only for the cell that fails.
    for (uint8_t c = 0; c < schema.columns.size(); ++c) {
      const ColumnSchema& column = schema.columns[c];
      uint32_t value = 0;  // the failing cell's
      uint32_t rid = 0;
      std::string problem;
      switch (column.kind) {
        case ColumnKind::Table: {
          if (pdb_only && column.target < kFirstPdbTable) continue;
          auto target = static_cast<TableId>(column.target);
          const uint32_t limit = tables.rows(target) + 1;
          uint32_t last = 0;  // a list's previous row's start
          if (is_list(column)) {
            rid = tables.first_cell_where(table, c, [&](uint32_t, uint32_t v) {
              if (v > limit || v < last) return value = v, true;
              last = v;
              return false;
            });
          } else {
            rid = tables.first_cell_where(table, c, [&](uint32_t, uint32_t v) { return v > limit && (value = v, true); });
          }
          if (!rid) break;
          if (value > limit)
            problem = fmt::format("names row {} of {}, which has {} rows", value, table_schema(target).name, tables.rows(target));
          else
            problem = fmt::format("names row {} of {}, before the previous row's {} (a list never goes back)", value, table_schema(target).name, last);
          break;
        }
        case ColumnKind::Coded: {
          // Per tag, the rows its table has: a row id r is good when r - 1 < bound (unsigned, so
          // that r = 0 fails). A tag naming no table has bound 0; for a PDB, one naming an
          // assembly's table is not checked here (any r but 0 passes).
          const CodedIndexSchema& coded = coded_index_schema(static_cast<CodedIndex>(column.target));
          std::array<uint32_t, 32> bound{};
          for (size_t tag = 0; tag < coded.tables.size() && tag < bound.size(); ++tag) {
            TableId target = coded.tables[tag];
            if (target == TableId::Unused) continue;
            bound[tag] = pdb_only && static_cast<uint8_t>(target) < kFirstPdbTable ? UINT32_MAX : tables.rows(target);
          }
          const uint32_t bits = coded.tag_bits, mask = (1u << bits) - 1;
          rid = tables.first_cell_where(table, c, [&](uint32_t, uint32_t v) {
            return v != 0 && (v >> bits) - 1 >= bound[v & mask] && (value = v, true);
          });
          if (rid) problem = fmt::format("coded index {:#x} names no row", value);
          break;
        }
        case ColumnKind::String:
          if (strings_terminated) continue;
          rid = tables.first_cell_where(table, c, [&](uint32_t, uint32_t v) { return !metadata.strings().get(v) && (value = v, true); });
          if (rid) problem = fmt::format("#Strings index {:#x} does not read", value);
          break;
        case ColumnKind::Blob: {
          uint32_t last_blob = 0;  // a run of rows naming the same blob reads it once
          rid = tables.first_cell_where(table, c, [&](uint32_t row, uint32_t v) {
            if (v == last_blob && row > 1) return false;
            last_blob = v;
            return !metadata.blobs().reads(v) && (value = v, true);
          });
          if (rid) problem = fmt::format("#Blob index {:#x} does not read", value);
          break;
        }
        default: continue;
      }
      if (rid)
        return make_error(ErrorKind::Format, fmt::format("{} row {} {}", schema.name, rid, column.name), problem,
                          tables.table_file_offset(table) + uint64_t{rid - 1} * layout.row_size + layout.offset[c]);
    }
  }
  return ok();
}

}  // namespace cil::md
