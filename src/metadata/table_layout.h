// Row sizes and column offsets of the tables stream, from row counts and heap widths (II.24.2.6).
// Shared by the reader and the writer, so both always agree on every width.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "metadata/schema.h"

namespace cil::md {

inline constexpr unsigned kMaxColumns = 10;

struct TableLayout {
  std::array<uint32_t, kTableSlots> rows{};
  /// Row counts of tables that live in another metadata and are only indexed from this one: the
  /// type-system tables a standalone portable PDB's debug tables point into (its #Pdb stream).
  /// Index widths count them as rows.
  std::array<uint32_t, kTableSlots> referenced_rows{};
  bool large_strings = false;  ///< HeapSizes bit 0x01
  bool large_guids = false;    ///< HeapSizes bit 0x02
  bool large_blobs = false;    ///< HeapSizes bit 0x04
  bool all_large = false;      ///< #JTD: every index is 4 bytes

  struct Table {
    uint32_t row_size = 0;
    std::array<uint8_t, kMaxColumns> offset{};
    std::array<uint8_t, kMaxColumns> width{};
  };
  std::array<Table, kTableSlots> tables{};

  /// Fills `tables` from the row counts and heap flags.
  void compute();

  uint8_t table_index_width(TableId target) const;
  uint8_t coded_index_width(CodedIndex kind) const;
  uint32_t row_count(TableId t) const { return rows[static_cast<uint8_t>(t)]; }
  /// The row count that sizes indexes into `t`: its rows here or in the referenced metadata.
  uint32_t sizing_rows(uint8_t t) const { return std::max(rows[t], referenced_rows[t]); }
  const Table& table(TableId t) const { return tables[static_cast<uint8_t>(t)]; }
};

}  // namespace cil::md
