// Writing a PE image with one section added: headers grown when the section table is full,
// raw data shifted with every file pointer that names it, and the size fields and checksum
// recomputed. Existing RVAs never move, so everything the image points to stays valid.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "support/error.h"
#include "support/file_io.h"
#include "pe/debug_directory.h"
#include "pe/pe_image.h"

namespace cil::pe {

class SectionCuts;

/// Where the added section will live; computed before its contents exist, since they contain
/// RVAs that point into it.
struct SectionPlan {
  uint32_t rva = 0;
  uint32_t header_growth = 0;  ///< bytes inserted after the headers (a FileAlignment multiple)
  uint64_t raw_offset = 0;     ///< where the section's data starts in the new file
};

/// Takes the start of the new section while it is still being built, so that a large section
/// is not held in memory: `bytes` belong at `file_offset` of the new file (a SectionPlan's
/// raw_offset and on). What went to the sink appears in the OutputImage as a piece in place.
class SectionSink {
 public:
  virtual ~SectionSink() = default;
  virtual Status write(uint64_t file_offset, std::span<const uint8_t> bytes) = 0;
  /// Moves `size` bytes written from `file_offset` down to `to`: the section starts lower once
  /// the bytes cut before it are known (section_cuts.h), after some of it went out.
  virtual Status move_down(uint64_t file_offset, uint64_t to, uint64_t size) = 0;
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
  /// Appends `size` bytes that are already in the destination (written through a SectionSink),
  /// given with their word_sum() for the checksum. `size` must be even.
  void append_in_place(uint64_t size, uint64_t word_sum);
  uint64_t size() const { return size_; }
  /// The pieces in order, for writing.
  std::vector<FilePiece> pieces() const;
  /// True when every byte is here (no piece in place), so that flatten() can give the file.
  bool complete() const;
  /// The whole file in one buffer (tests and small files); pieces in place read as zeros.
  std::vector<uint8_t> flatten() const;
  /// The PE checksum of the file (the CheckSum field at `checksum_offset` read as zero). With
  /// `base`, the file the pieces' views are views of, whose own CheckSum is at
  /// `base_checksum_offset`: when that CheckSum is plausible (within 0xFFFF above the file's
  /// length), the views of it at an even offset in both files, of even size, clear of both
  /// CheckSum fields and of bytes another such view left unread, are not read. Their sum is the
  /// base's, known from its CheckSum, less the base's bytes outside them (an incremental update,
  /// as RFC 1624 does for IP). The result is then the full computation's whenever the base's
  /// CheckSum was right, and off by as much (modulo 0xFFFF) as the base's was when it was wrong.
  Expected<uint32_t> checksum(uint64_t checksum_offset, std::span<const uint8_t> base = {},
                              uint64_t base_checksum_offset = 0) const;
  /// Overwrites bytes that lie inside one owned piece; false when they do not.
  bool overwrite(uint64_t offset, std::span<const uint8_t> bytes);
  /// Appends every piece of `other`.
  void append(OutputImage other);

 private:
  struct Piece {
    std::span<const uint8_t> view;
    size_t owned = SIZE_MAX;  ///< index in owned_, or SIZE_MAX for a view
    uint64_t in_place = 0;    ///< size of a piece already in the destination
    uint64_t word_sum = 0;    ///< of the piece in place
  };
  std::span<const uint8_t> bytes_of(const Piece& p) const;
  std::vector<Piece> pieces_;
  std::vector<std::vector<uint8_t>> owned_;
  uint64_t size_ = 0;
};

/// The output's debug directory, written over the input's in place: never more entries than the
/// input has (entries can be dropped or changed, and their data replaced, not added).
struct DebugDirectoryEdit {
  struct Entry : DebugEntryHeader {
    /// The data is the input's: its file offset is one of the input and moves when the headers
    /// grow. Otherwise it was placed in the new section and its offsets are final.
    bool input_data = true;
  };
  std::vector<Entry> entries;
};

/// The new file: the original with `patches` applied, the section (holding `data`) added, the
/// Authenticode directory cleared (the signature cannot survive an edit), `debug` written over
/// the debug directory when given, and SizeOfImage, SizeOfHeaders, SizeOfInitializedData and the
/// checksum (when non-zero) updated from the input's (OutputImage::checksum with the input as
/// its base: the bytes copied from the input are not read again). With `cuts`, their ranges are
/// left out (section_cuts.h), and the plan's raw_offset must be where the section starts after
/// them: the cut section shrinks (in the file and in memory), what follows it in the
/// file moves down, and the debug directory's entries follow their data.
Expected<OutputImage> write_image(const PeImage& image, const SectionPlan& plan, const SectionSpec& spec,
                                  OutputImage data, std::vector<Patch> patches, const DebugDirectoryEdit* debug = nullptr,
                                  const SectionCuts* cuts = nullptr);

/// The sum of the little-endian 16-bit words of `bytes` (an odd last byte as a word of its own),
/// without the carry folding of the PE checksum: sums of pieces that start at even offsets add up.
uint64_t word_sum(std::span<const uint8_t> bytes);

}  // namespace cil::pe
