// Writing a PE image with one section added: headers grown when the section table is full,
// raw data shifted with every file pointer that names it, and the size fields and checksum
// recomputed. Existing RVAs never move, so everything the image points to stays valid.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pe/error.h"
#include "pe/pe_image.h"

namespace cil::pe {

/// Where the added section will live; computed before its contents exist, since they contain
/// RVAs that point into it.
struct SectionPlan {
  uint32_t rva = 0;
  uint32_t header_growth = 0;  ///< bytes inserted after the headers (a FileAlignment multiple)
};

/// Plans a new section after the last one. Fails when the headers cannot hold one more section
/// header and cannot grow.
Expected<SectionPlan> plan_section(const PeImage& image);

/// A change of bytes at a file offset of the original image.
struct Patch {
  uint32_t offset = 0;
  std::vector<uint8_t> bytes;
};
Patch patch_u16(uint32_t offset, uint16_t value);
Patch patch_u32(uint32_t offset, uint32_t value);

struct SectionSpec {
  const char* name = ".cilins";
  uint32_t characteristics = kSectionInitializedData | kSectionMemRead;
};

/// An output file as a sequence of pieces: views of the input (which must outlive it) and bytes
/// of its own, so that a large input is not copied to produce its edited version.
class OutputImage {
 public:
  void append_view(std::span<const uint8_t> bytes);
  void append_owned(std::vector<uint8_t> bytes);
  void append_zeros(size_t count);
  uint64_t size() const { return size_; }
  /// The pieces in order, for writing.
  std::vector<std::span<const uint8_t>> pieces() const;
  /// The whole file in one buffer (tests and small files).
  std::vector<uint8_t> flatten() const;
  /// Overwrites bytes that lie inside one owned piece; false when they do not.
  bool overwrite(uint64_t offset, std::span<const uint8_t> bytes);
  /// Appends every piece of `other`.
  void append(OutputImage other);

 private:
  struct Piece {
    std::span<const uint8_t> view;
    size_t owned = SIZE_MAX;  ///< index in owned_, or SIZE_MAX for a view
  };
  std::vector<Piece> pieces_;
  std::vector<std::vector<uint8_t>> owned_;
  uint64_t size_ = 0;
};

/// The new file: the original with `patches` applied, the section (holding `data`) added, the
/// Authenticode directory cleared (the signature cannot survive an edit), and SizeOfImage,
/// SizeOfHeaders, SizeOfInitializedData and the checksum (when non-zero) updated.
Expected<OutputImage> write_image(const PeImage& image, const SectionPlan& plan, const SectionSpec& spec,
                                  OutputImage data, std::vector<Patch> patches);

/// The PE checksum of the concatenated `pieces` (the CheckSum field at `checksum_offset` excluded).
uint32_t pe_checksum(std::span<const std::span<const uint8_t>> pieces, uint64_t checksum_offset);

}  // namespace cil::pe
