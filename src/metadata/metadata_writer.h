// Serialises metadata for the writer: the root, the re-encoded tables stream (index widths
// recomputed from the new row counts and heap sizes) and the grown heaps.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "metadata/metadata.h"
#include "pe/error.h"

namespace cil::md {

/// Rows appended to and cells changed in the tables of one Metadata.
struct TableEdits {
  /// Per table: appended rows, each `columns` cells long, flattened.
  std::array<std::vector<uint32_t>, kTableSlots> added;
  /// (table << 56 | rid << 8 | column) -> new value, for existing rows.
  std::unordered_map<uint64_t, uint32_t> changed;

  static uint64_t key(TableId t, uint32_t rid, uint8_t column) {
    return (uint64_t{static_cast<uint8_t>(t)} << 56) | (uint64_t{rid} << 8) | column;
  }
  uint32_t added_rows(TableId t) const {
    size_t columns = table_schema(t).columns.size();
    return columns ? static_cast<uint32_t>(added[static_cast<uint8_t>(t)].size() / columns) : 0;
  }
};

struct HeapContents {
  std::vector<uint8_t> strings, user_strings, blobs, guids;
};

/// The complete metadata (root and streams) for `original` with `edits` applied and the heaps
/// replaced by `heaps`, whose original parts must be unchanged.
Expected<std::vector<uint8_t>> write_metadata(const Metadata& original, const TableEdits& edits, const HeapContents& heaps);

}  // namespace cil::md
