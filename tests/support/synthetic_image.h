// Synthetic assemblies for unit tests and fuzz targets: heaps, a tables stream built from rows
// of cell values, a metadata root with any streams, and a PE32 image that holds them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/schema.h"

namespace cil::testing {

/// A #Strings heap: index 0 is the empty string.
class StringsBuilder {
 public:
  uint32_t add(std::string_view text);
  std::vector<uint8_t> data{0};
};

/// A #Blob (or #US) heap: index 0 is the empty blob.
class BlobBuilder {
 public:
  uint32_t add(std::span<const uint8_t> blob);
  std::vector<uint8_t> data{0};
};

/// A #~ stream from rows of cell values; column widths follow TableLayout, as the reader's do.
class TablesBuilder {
 public:
  /// Appends a row (one value per column); returns its rid.
  uint32_t add(md::TableId table, std::vector<uint32_t> cells);
  /// Claims `rows` rows of `table` in the header without writing them (for caps and truncation).
  void claim(md::TableId table, uint32_t rows) { claimed_[static_cast<uint8_t>(table)] = rows; }
  std::vector<uint8_t> build() const;

  uint8_t heap_sizes = 0;

 private:
  std::array<std::vector<std::vector<uint32_t>>, md::kTableSlots> rows_;
  std::array<std::optional<uint32_t>, md::kTableSlots> claimed_;
};

struct Stream {
  std::string name;
  std::vector<uint8_t> data;
};

/// A metadata root (II.24.2.1), version "v4.0.30319", holding `streams` in order, 4-aligned.
std::vector<uint8_t> metadata_root(const std::vector<Stream>& streams);

/// The usual five streams: #~, #Strings, #US (empty), #GUID (one GUID), #Blob.
std::vector<uint8_t> metadata_root(const TablesBuilder& tables, const StringsBuilder& strings, const BlobBuilder& blobs);

/// RVA at which pe_image() places `code`, the method bodies.
inline constexpr uint32_t kCodeRva = 0x2048;

/// A PE32 DLL with one section: the CLI header (IL only), `code` at kCodeRva, then the metadata
/// root, 4-aligned. `extra_section_bytes` of zeros follow, for structures a test adds by hand.
std::vector<uint8_t> pe_image(std::span<const uint8_t> metadata, std::span<const uint8_t> code = {},
                              uint32_t extra_section_bytes = 0);

/// File offsets of fields of pe_image()'s output that tests patch.
inline constexpr uint32_t kCoffOffset = 0x44;             ///< COFF header
inline constexpr uint32_t kDirectoriesOffset = 0x44 + 20 + 96;  ///< data directories
inline constexpr uint32_t kSectionFileOffset = 0x200;     ///< the section's first byte (RVA 0x2000)

}  // namespace cil::testing
