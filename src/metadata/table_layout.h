// Row sizes and column offsets of the tables stream, from row counts and heap widths (II.24.2.6).
// Shared by the reader and the writer, so both always agree on every width.
#pragma once

#include <array>
#include <cstdint>

#include "metadata/schema.h"

namespace cil::md {

inline constexpr unsigned kMaxColumns = 10;

struct TableLayout {
  std::array<uint32_t, kTableSlots> rows{};
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
  const Table& table(TableId t) const { return tables[static_cast<uint8_t>(t)]; }
};

}  // namespace cil::md
