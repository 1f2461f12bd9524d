// Section addition, header growth, file-pointer fix-ups and the PE checksum.
#include "pe/image_writer.h"

#include <algorithm>

#include <fmt/format.h>

#include "pe/debug_directory.h"

namespace cil::pe {

namespace {

uint64_t align_up(uint64_t value, uint32_t alignment) {
  if (alignment == 0) return value;
  return (value + alignment - 1) / alignment * alignment;
}

Error writer_error(std::string message) { return make_error(ErrorKind::Unsupported, "PE image", std::move(message)); }

// Offset of fields inside the optional header (identical for PE32 and PE32+ up to CheckSum).
constexpr uint32_t kOptSizeOfInitializedData = 8;
constexpr uint32_t kOptSizeOfImage = 56;
constexpr uint32_t kOptSizeOfHeaders = 60;
constexpr uint32_t kOptCheckSum = 64;

}  // namespace

Patch patch_u16(uint32_t offset, uint16_t value) {
  Patch p{offset, std::vector<uint8_t>(2)};
  store_le(p.bytes.data(), value);
  return p;
}

Patch patch_u32(uint32_t offset, uint32_t value) {
  Patch p{offset, std::vector<uint8_t>(4)};
  store_le(p.bytes.data(), value);
  return p;
}

Expected<SectionPlan> plan_section(const PeImage& image) {
  const PeHeaders& h = image.headers();
  if (h.file_alignment == 0 || h.section_alignment == 0 || (h.file_alignment & (h.file_alignment - 1)) ||
      (h.section_alignment & (h.section_alignment - 1)))
    return writer_error(fmt::format("unusual alignments (file {:#x}, section {:#x})", h.file_alignment, h.section_alignment));
  if (uint32_t{h.section_count} + 1 > kMaxSections) return writer_error("no room for another section");
  SectionPlan plan;
  uint64_t end_rva = align_up(h.size_of_headers, h.section_alignment);
  uint32_t first_raw = UINT32_MAX, first_rva = UINT32_MAX;
  for (const auto& s : image.sections()) {
    end_rva = std::max<uint64_t>(end_rva, align_up(uint64_t{s.virtual_address} + s.mapped_size(), h.section_alignment));
    if (s.raw_size) first_raw = std::min(first_raw, s.raw_offset);
    first_rva = std::min(first_rva, s.virtual_address);
  }
  if (end_rva > 0xFFFFFFFF) return writer_error("the image already fills the address space");
  plan.rva = static_cast<uint32_t>(end_rva);

  uint64_t table_end = uint64_t{h.section_table_offset} + uint64_t{h.section_count} * kSectionHeaderSize;
  uint64_t needed = table_end + kSectionHeaderSize;
  // The slot for the new header must hold nothing today.
  for (uint64_t i = table_end; i < needed && i < image.file().size() && i < h.size_of_headers; ++i)
    if (image.file()[i] != 0) return writer_error("the bytes after the section table are in use");
  uint64_t limit = std::min<uint64_t>(h.size_of_headers, first_raw);
  if (needed > limit) {
    uint64_t grown = align_up(needed, h.file_alignment);
    if (first_raw < h.size_of_headers) return writer_error("a section's data starts inside the headers");
    if (grown > first_rva) return writer_error("the headers cannot grow: the first section starts right after them");
    plan.header_growth = static_cast<uint32_t>(grown - h.size_of_headers);
  }
  return plan;
}

uint32_t pe_checksum(std::span<const uint8_t> file, uint32_t checksum_offset) {
  uint64_t sum = 0;
  size_t n = file.size() & ~size_t{1};
  for (size_t i = 0; i < n; i += 2) {
    if (i == checksum_offset || i == checksum_offset + 2) continue;
    sum += load_le<uint16_t>(file.data() + i);
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  if (file.size() & 1) {
    sum += file.back();
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint32_t>(sum + file.size());
}

Expected<std::vector<uint8_t>> write_image(const PeImage& image, const SectionPlan& plan, const SectionSpec& spec,
                                           std::span<const uint8_t> data, const std::vector<Patch>& patches) {
  const PeHeaders& h = image.headers();
  std::span<const uint8_t> in = image.file();
  uint32_t growth = plan.header_growth;
  uint32_t old_headers = std::min<uint32_t>(h.size_of_headers, static_cast<uint32_t>(in.size()));
  // Offsets in the original file map to the new file by adding the growth past the headers.
  auto moved = [&](uint64_t offset) { return offset >= old_headers ? offset + growth : offset; };

  std::vector<uint8_t> out;
  out.reserve(in.size() + growth + data.size() + 2 * h.file_alignment);
  out.insert(out.end(), in.begin(), in.begin() + old_headers);
  out.resize(old_headers + growth, 0);
  out.insert(out.end(), in.begin() + old_headers, in.end());

  for (const auto& p : patches) {
    uint64_t at = moved(p.offset);
    if (at + p.bytes.size() > out.size()) return writer_error(fmt::format("patch at {:#x} lies outside the file", p.offset));
    std::copy(p.bytes.begin(), p.bytes.end(), out.begin() + at);
  }

  // Section table: shift raw pointers, then append the new header.
  for (size_t i = 0; i < image.sections().size(); ++i) {
    const auto& s = image.sections()[i];
    uint32_t at = h.section_table_offset + static_cast<uint32_t>(i) * kSectionHeaderSize;
    if (s.raw_offset) store_le<uint32_t>(out.data() + at + 20, static_cast<uint32_t>(moved(s.raw_offset)));
  }
  // Debug entries point at their data by file offset too.
  if (growth) {
    auto entries = read_debug_directory(image);
    if (entries) {
      for (const auto& e : *entries)
        if (e.data_file_offset) store_le<uint32_t>(out.data() + moved(e.entry_offset) + 24, static_cast<uint32_t>(moved(e.data_file_offset)));
    }
  }

  uint64_t raw_offset = align_up(out.size(), h.file_alignment);
  uint64_t raw_size = align_up(std::max<size_t>(data.size(), 1), h.file_alignment);
  if (raw_offset + raw_size > 0x7FFFFFFF) return writer_error("the output would exceed 2 GiB");
  uint32_t header_at = h.section_table_offset + h.section_count * kSectionHeaderSize;
  uint8_t* sh = out.data() + header_at;
  std::fill(sh, sh + kSectionHeaderSize, 0);
  for (size_t i = 0; i < 8 && spec.name[i]; ++i) sh[i] = static_cast<uint8_t>(spec.name[i]);
  store_le<uint32_t>(sh + 8, static_cast<uint32_t>(data.size()));
  store_le<uint32_t>(sh + 12, plan.rva);
  store_le<uint32_t>(sh + 16, static_cast<uint32_t>(raw_size));
  store_le<uint32_t>(sh + 20, static_cast<uint32_t>(raw_offset));
  store_le<uint32_t>(sh + 36, spec.characteristics);
  store_le<uint16_t>(out.data() + h.coff_offset + 2, static_cast<uint16_t>(h.section_count + 1));

  out.resize(raw_offset, 0);
  out.insert(out.end(), data.begin(), data.end());
  out.resize(raw_offset + raw_size, 0);

  uint32_t opt = h.optional_header_offset;
  uint64_t image_end = align_up(uint64_t{plan.rva} + std::max<size_t>(data.size(), 1), h.section_alignment);
  store_le<uint32_t>(out.data() + opt + kOptSizeOfImage, static_cast<uint32_t>(image_end));
  store_le<uint32_t>(out.data() + opt + kOptSizeOfHeaders, h.size_of_headers + growth);
  store_le<uint32_t>(out.data() + opt + kOptSizeOfInitializedData, h.size_of_initialized_data + static_cast<uint32_t>(raw_size));
  if (h.directory_count > kSecurityDirectory && h.directories[kSecurityDirectory].size) {
    uint32_t dir = h.directories_offset + kSecurityDirectory * 8;
    store_le<uint32_t>(out.data() + dir, 0);
    store_le<uint32_t>(out.data() + dir + 4, 0);
  }
  if (h.checksum != 0) store_le<uint32_t>(out.data() + opt + kOptCheckSum, pe_checksum(out, opt + kOptCheckSum));
  return out;
}

}  // namespace cil::pe
