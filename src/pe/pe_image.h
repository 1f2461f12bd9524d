// Read-only view of a PE/COFF image: DOS/NT headers, section table, data directories, RVAs.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/byte_reader.h"
#include "support/error.h"
#include "pe/pe_format.h"

namespace cil::pe {

struct DataDirectory {
  uint32_t rva = 0;
  uint32_t size = 0;
  bool present() const { return rva != 0 && size != 0; }
};

struct SectionHeader {
  std::string name;
  uint32_t virtual_size = 0;
  uint32_t virtual_address = 0;
  uint32_t raw_size = 0;
  uint32_t raw_offset = 0;
  uint32_t characteristics = 0;
  /// Size the section spans in memory: VirtualSize, or SizeOfRawData when that is 0.
  uint32_t mapped_size() const { return virtual_size ? virtual_size : raw_size; }
};

/// The COFF and optional header fields the tool reads or rewrites, with the file offsets of the
/// fields that the writer patches.
struct PeHeaders {
  uint32_t pe_offset = 0;  ///< e_lfanew
  uint16_t machine = 0;
  uint16_t section_count = 0;
  uint32_t timestamp = 0;
  uint16_t optional_header_size = 0;
  uint16_t characteristics = 0;
  bool pe32_plus = false;
  uint8_t linker_major = 0;
  uint8_t linker_minor = 0;
  uint32_t size_of_code = 0;
  uint32_t size_of_initialized_data = 0;
  uint32_t entry_point_rva = 0;
  uint64_t image_base = 0;
  uint32_t section_alignment = 0;
  uint32_t file_alignment = 0;
  uint16_t subsystem = 0;
  uint16_t dll_characteristics = 0;
  uint32_t size_of_image = 0;
  uint32_t size_of_headers = 0;
  uint32_t checksum = 0;
  uint32_t directory_count = 0;  ///< NumberOfRvaAndSizes as stored
  std::array<DataDirectory, kDataDirectoryCount> directories{};

  uint32_t coff_offset = 0;
  uint32_t optional_header_offset = 0;
  uint32_t directories_offset = 0;
  uint32_t section_table_offset = 0;
};

/// A parsed PE image over bytes the caller keeps alive.
class PeImage {
 public:
  /// Parses the headers and section table; fails with an Error naming the header at fault.
  static Expected<PeImage> parse(std::span<const uint8_t> file);

  std::span<const uint8_t> file() const { return file_; }
  const PeHeaders& headers() const { return headers_; }
  const std::vector<SectionHeader>& sections() const { return sections_; }
  DataDirectory directory(DataDirectoryIndex index) const { return headers_.directories[index]; }

  /// The section whose mapped range holds `rva`, or nullptr.
  const SectionHeader* section_for_rva(uint32_t rva) const;
  /// File offset of [rva, rva+size), which must lie in the file bytes of one section (or in the
  /// headers). `what` names the structure for the error.
  Expected<uint32_t> rva_to_offset(uint32_t rva, uint32_t size, std::string_view what) const;
  /// A reader over [rva, rva+size).
  Expected<ByteReader> reader_at(uint32_t rva, uint32_t size, std::string_view what) const;
  /// A reader from `rva` to the end of the file bytes of its section.
  Expected<ByteReader> reader_from(uint32_t rva, std::string_view what) const;
  /// A reader over the whole file.
  ByteReader file_reader(std::string_view what) const { return ByteReader(file_, 0, what); }

 private:
  /// Where [rva, rva+size) lies, for section `s` (which holds `rva`): its file offset, the end
  /// of the section's file data, and which limit the range crosses, if any. The one computation
  /// behind rva_to_offset (which names the limit) and reader_from.
  struct Placement {
    uint64_t offset = 0;
    uint64_t section_data_end = 0;
    bool past_section_data = false;  ///< checked first: it names the section's data
    bool past_file = false;
  };
  Placement place(const SectionHeader& s, uint32_t rva, uint32_t size) const;

  std::span<const uint8_t> file_;
  PeHeaders headers_;
  std::vector<SectionHeader> sections_;
};

}  // namespace cil::pe
