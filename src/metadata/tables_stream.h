// The #~ / #- tables stream (II.24.2.6): header, row counts, and checked access to row cells.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "metadata/schema.h"
#include "metadata/table_layout.h"
#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::md {

/// HeapSizes bits (II.24.2.6, and the CLR's extensions).
inline constexpr uint8_t kHeapLargeStrings = 0x01;
inline constexpr uint8_t kHeapLargeGuids = 0x02;
inline constexpr uint8_t kHeapLargeBlobs = 0x04;
inline constexpr uint8_t kHeapPadding = 0x08;
inline constexpr uint8_t kHeapDeltaOnly = 0x20;
inline constexpr uint8_t kHeapExtraData = 0x40;
inline constexpr uint8_t kHeapHasDelete = 0x80;

/// Cap on rows of one table: a token's row id has 24 bits.
inline constexpr uint32_t kMaxRows = kMaxRid;

class TablesStream {
 public:
  /// Parses the header and checks that every present table fits in the stream. `referenced_rows`
  /// (a standalone PDB's #Pdb stream) size the indexes into tables this stream does not hold.
  static Expected<TablesStream> parse(ByteReader stream, bool all_large,
                                      const std::array<uint32_t, kTableSlots>* referenced_rows = nullptr);

  uint8_t major_version() const { return major_; }
  uint8_t minor_version() const { return minor_; }
  uint8_t heap_sizes() const { return heap_sizes_; }
  uint64_t valid_mask() const { return valid_; }
  uint64_t sorted_mask() const { return sorted_; }
  bool has_extra_data() const { return heap_sizes_ & kHeapExtraData; }
  const TableLayout& layout() const { return layout_; }

  uint32_t rows(TableId t) const { return layout_.row_count(t); }
  bool present(TableId t) const { return (valid_ >> static_cast<uint8_t>(t)) & 1; }
  bool valid_rid(TableId t, uint32_t rid) const { return rid >= 1 && rid <= rows(t); }
  bool valid_token(Token token) const {
    return token_type(token) < kTableSlots && valid_rid(token_table(token), token_rid(token));
  }

  /// The cell of column `column` in row `rid` (1-based). `rid` must be valid (checked by the
  /// caller against rows()); the cell lies in the stream because parse() checked the extent.
  uint32_t get(TableId t, uint32_t rid, uint8_t column) const {
    const auto& info = layout_.table(t);
    const uint8_t* p = table_data_[static_cast<uint8_t>(t)] + size_t{rid - 1} * info.row_size + info.offset[column];
    return info.width[column] == 2 ? load_le<uint16_t>(p) : load_le<uint32_t>(p);
  }
  /// A cell that may name a row that does not exist: returns 0 for an invalid `rid`.
  uint32_t get_checked(TableId t, uint32_t rid, uint8_t column) const {
    return valid_rid(t, rid) ? get(t, rid, column) : 0;
  }
  /// The first row (1-based) whose cell in `column` satisfies `found(rid, value)`, the cells read
  /// in place, in row order; 0 when none does. For checks that walk a whole column.
  template <class Found>
  uint32_t first_cell_where(TableId t, uint8_t column, Found&& found) const {
    const auto& info = layout_.table(t);
    const uint8_t* cell = table_data_[static_cast<uint8_t>(t)] + info.offset[column];
    bool wide = info.width[column] != 2;
    for (uint32_t rid = 1, n = rows(t); rid <= n; ++rid, cell += info.row_size)
      if (found(rid, wide ? load_le<uint32_t>(cell) : load_le<uint16_t>(cell))) return rid;
    return 0;
  }
  /// The raw bytes of a whole table.
  std::span<const uint8_t> table_bytes(TableId t) const {
    return {table_data_[static_cast<uint8_t>(t)], size_t{rows(t)} * layout_.table(t).row_size};
  }
  uint64_t table_file_offset(TableId t) const { return table_offset_[static_cast<uint8_t>(t)]; }
  /// Bytes after the last table, up to the end of the stream.
  uint64_t stream_file_offset() const { return stream_offset_; }

  /// Turns a coded index value into a token; 0 when the tag names no table.
  Token decode(CodedIndex kind, uint32_t value) const;

 private:
  uint8_t major_ = 0, minor_ = 0, heap_sizes_ = 0;
  uint64_t valid_ = 0, sorted_ = 0;
  TableLayout layout_;
  std::array<const uint8_t*, kTableSlots> table_data_{};
  std::array<uint64_t, kTableSlots> table_offset_{};
  uint64_t stream_offset_ = 0;
};

/// Encodes a token as a coded index value of `kind`; nullopt when the table is not a target.
std::optional<uint32_t> encode_coded_index(CodedIndex kind, Token token);

}  // namespace cil::md
