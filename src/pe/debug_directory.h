// The debug directory: CodeView (PDB path), Reproducible, embedded portable PDB, PDB checksum.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/error.h"
#include "pe/pe_image.h"

namespace cil::pe {

struct CodeViewInfo {
  std::array<uint8_t, 16> guid{};
  uint32_t age = 0;
  std::string path;
};

struct EmbeddedPdbInfo {
  uint32_t uncompressed_size = 0;
  uint32_t compressed_size = 0;
};

struct PdbChecksumInfo {
  std::string algorithm;
  std::vector<uint8_t> checksum;
};

/// The fields of one 28-byte debug directory entry (PE/COFF "Debug Directory (Image Only)"), in
/// their order on disk: what the reader decodes and what the image writer writes back.
struct DebugEntryHeader {
  uint32_t characteristics = 0;
  uint32_t timestamp = 0;
  uint16_t major_version = 0;
  uint16_t minor_version = 0;
  uint32_t type = 0;
  uint32_t data_size = 0;
  uint32_t data_rva = 0;
  uint32_t data_file_offset = 0;
};

/// An entry as read from a file: its header, where it sits, and its data decoded by kind.
struct DebugEntry : DebugEntryHeader {
  uint32_t entry_offset = 0;  ///< file offset of the 28-byte directory entry
  std::optional<CodeViewInfo> codeview;
  std::optional<EmbeddedPdbInfo> embedded_pdb;
  std::optional<PdbChecksumInfo> pdb_checksum;
};

inline constexpr uint32_t kDebugEntrySize = 28;

/// Reads every entry of the debug directory and decodes the kinds above. An image without a
/// debug directory gives an empty list.
Expected<std::vector<DebugEntry>> read_debug_directory(const PeImage& image);

/// The name of a debug entry type, or nullptr for types the tool does not know.
const char* debug_type_name(uint32_t type);

}  // namespace cil::pe
