// Dropping dead bytes from the section that holds the input's metadata (issue 39): once the new
// section holds the metadata and the replaced method bodies, their old copies are read by no one,
// yet they were half of an instrumented file. The bytes after each cut move down, and every
// pointer the image holds to them follows: the data directories, the entry point, the CLI header,
// the import table and the base relocations here; the debug directory in the image writer; the
// MethodDef and FieldRVA cells in the metadata writer. An image with a pointer of another kind
// into that section (native code, TLS, exports) gets no cuts and is written as before.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "pe/cli_header.h"
#include "pe/image_writer.h"
#include "pe/pe_image.h"

namespace cil::pe {

/// RVAs [from, to).
struct RvaRange {
  uint32_t from = 0;
  uint32_t to = 0;
};

/// The cuts planned for one image: disjoint ranges of one section's raw data, in order.
struct DroppedPointers;

class SectionCuts {
 public:
  bool empty() const { return ranges_.empty(); }
  /// The index of the section cut, in the section table.
  size_t section() const { return section_; }
  /// Bytes cut: a multiple of FileAlignment, so the raw data after keeps its alignment.
  uint32_t total() const { return total_; }
  const std::vector<RvaRange>& ranges() const { return ranges_; }
  /// Whether `rva` lies in a cut (nothing may point there).
  bool cut(uint32_t rva) const;
  /// The RVA of what was at `rva` (outside every cut): less the bytes cut before it when it lies in
  /// the cut section's address range, else the same.
  uint32_t rva(uint32_t rva) const;
  /// The same for an offset of the input file (before any growth of the headers).
  uint64_t offset(uint64_t offset) const;
  /// The cut ranges as offsets of the input file, in order.
  std::vector<std::pair<uint64_t, uint64_t>> file_ranges() const;
  /// The changes (offsets of the input file) that make the image's own pointers follow the cuts.
  const std::vector<Patch>& patches() const { return patches_; }

 private:
  friend SectionCuts plan_cuts(const PeImage& image, const CliHeader& cli, std::vector<RvaRange> dead,
                               std::span<const uint32_t> live, const DroppedPointers& dropped);
  size_t section_ = 0;
  uint32_t section_rva_ = 0, section_end_ = 0;  ///< the section's address range
  uint32_t raw_offset_ = 0;
  uint32_t total_ = 0;
  std::vector<RvaRange> ranges_;
  std::vector<Patch> patches_;
};

/// Pointers the output no longer holds: directories it clears and, for ReadyToRun code it drops,
/// the CLI header's ManagedNativeHeader.
struct DroppedPointers {
  std::vector<DataDirectoryIndex> directories;
  bool managed_native_header = false;
};

/// Plans cuts in the section that holds the CLI metadata. `dead` are ranges nothing reads in the
/// output (the old metadata, replaced bodies); `live` are RVAs the caller's own pointers keep
/// (bodies not replaced, static data), whose bytes stay. Every pointer the image holds into the
/// section keeps its byte too. Each range is cut short to a multiple of 16 bytes, so what follows
/// keeps its alignment (fat bodies, static data), and the total to a multiple of FileAlignment.
/// No cuts (nothing is lost but the saving) when the image has a pointer into the section the
/// writer does not follow, or when its import table or relocations do not read cleanly.
SectionCuts plan_cuts(const PeImage& image, const CliHeader& cli, std::vector<RvaRange> dead, std::span<const uint32_t> live,
                      const DroppedPointers& dropped = {});

}  // namespace cil::pe
