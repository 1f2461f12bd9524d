// Serialises metadata for the writer: the root, the re-encoded tables stream (index widths
// recomputed from the new row counts and heap sizes) and the grown heaps.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "metadata/heap_builder.h"
#include "metadata/metadata.h"
#include "support/error.h"
#include "pe/image_writer.h"

namespace cil::md {

/// Rows appended to and cells changed in the tables of one Metadata.
struct TableEdits {
  /// Per table: appended rows, each `columns` cells long, flattened.
  std::array<std::vector<uint32_t>, kTableSlots> added;
  /// New values of cells of existing rows, per (table, column): a dense column of values and
  /// a flag per row (a method's RVA changes for most rows of MethodDef, so a map would cost more).
  struct Column {
    std::vector<uint32_t> values;
    std::vector<bool> set;
  };
  std::map<std::pair<uint8_t, uint8_t>, Column> changed;

  void change(TableId t, uint32_t rows, uint32_t rid, uint8_t column, uint32_t value) {
    Column& c = changed[{static_cast<uint8_t>(t), column}];
    if (c.values.empty()) {
      c.values.assign(size_t{rows} + 1, 0);
      c.set.assign(size_t{rows} + 1, false);
    }
    c.values[rid] = value;
    c.set[rid] = true;
  }
  const uint32_t* changed_value(TableId t, uint32_t rid, uint8_t column) const {
    auto it = changed.find({static_cast<uint8_t>(t), column});
    if (it == changed.end() || rid >= it->second.set.size() || !it->second.set[rid]) return nullptr;
    return &it->second.values[rid];
  }
  uint32_t added_rows(TableId t) const {
    size_t columns = table_schema(t).columns.size();
    return columns ? static_cast<uint32_t>(added[static_cast<uint8_t>(t)].size() / columns) : 0;
  }
};

struct HeapContents {
  HeapData strings, user_strings, blobs, guids;
};

/// Appends the complete metadata (root and streams) for `original`, with `edits` applied and the
/// heaps given by `heaps` (whose original parts are views of the input), to `out`; the heaps are
/// moved in, not copied. Returns the number of bytes appended. `pdb` is the new #Pdb stream of
/// standalone PDB metadata (its row counts size the indexes into the type-system tables), given
/// exactly when `original` has one; `pdb_offset` then receives where it starts, from the root.
Expected<uint64_t> write_metadata(const Metadata& original, const TableEdits& edits, HeapContents heaps,
                                  pe::OutputImage& out, const PdbStream* pdb = nullptr, uint64_t* pdb_offset = nullptr);

}  // namespace cil::md
