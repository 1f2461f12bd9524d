// The section layout check shared by the instrument job's input and its output's self-check.
#include "pe/section_layout.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace cil::pe {

namespace {

constexpr const char* kDirectoryNames[kDataDirectoryCount] = {
    "export table", "import table", "resource table", "exception table", "certificate table", "base relocation table",
    "debug", "architecture", "global pointer", "TLS table", "load config table", "bound import", "IAT",
    "delay import descriptor", "CLI header", "reserved"};
constexpr uint32_t kRawSizeField = 16;  // SizeOfRawData within a section header

Error layout_error(std::string structure, std::string message, uint64_t offset) {
  return make_error(ErrorKind::Format, std::move(structure), std::move(message), offset);
}

std::string section_name(const PeImage& image, size_t i) {
  return fmt::format("section table: section {} '{}'", i + 1, image.sections()[i].name);
}

uint64_t header_offset(const PeImage& image, size_t i) {
  return uint64_t{image.headers().section_table_offset} + i * kSectionHeaderSize;
}

}  // namespace

Status check_section_data_in_file(const PeImage& image) {
  const auto& sections = image.sections();
  const uint64_t file_size = image.file().size();
  for (size_t i = 0; i < sections.size(); ++i) {
    const SectionHeader& s = sections[i];
    if (s.raw_size && uint64_t{s.raw_offset} + s.raw_size > file_size)
      return layout_error(section_name(image, i),
                          fmt::format("raw data {:#x}+{:#x} runs past the end of the file ({:#x} bytes)", s.raw_offset, s.raw_size, file_size),
                          header_offset(image, i) + kRawSizeField);
  }
  return ok();
}

Status check_section_layout(const PeImage& image) {
  CIL_TRY(check_section_data_in_file(image));
  const PeHeaders& h = image.headers();
  const auto& sections = image.sections();
  const uint64_t file_size = image.file().size();
  const uint64_t table_end = uint64_t{h.section_table_offset} + uint64_t{sections.size()} * kSectionHeaderSize;
  // SizeOfHeaders is at offset 60 of the optional header in both PE32 and PE32+.
  const uint64_t size_of_headers_at = uint64_t{h.optional_header_offset} + 60;
  if (h.size_of_headers > file_size)
    return layout_error("optional header", fmt::format("SizeOfHeaders {:#x} runs past the end of the file ({:#x} bytes)", h.size_of_headers, file_size),
                        size_of_headers_at);
  if (h.size_of_headers < table_end)
    return layout_error("optional header", fmt::format("SizeOfHeaders {:#x} does not hold the section table (it ends at {:#x})", h.size_of_headers, table_end),
                        size_of_headers_at);

  // Sections in file order and in memory order; neighbours may touch, never overlap. At most
  // kMaxSections of them, so the sorts cost nothing.
  std::vector<size_t> order(sections.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = 0; i < sections.size(); ++i) {
    const SectionHeader& s = sections[i];
    if (!s.raw_size) continue;
    if (s.raw_offset < h.size_of_headers)
      return layout_error(section_name(image, i),
                          fmt::format("raw data at {:#x} lies inside the headers (SizeOfHeaders {:#x})", s.raw_offset, h.size_of_headers),
                          header_offset(image, i) + kRawSizeField + 4);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sections[a].raw_offset < sections[b].raw_offset; });
  for (size_t k = 1; k < order.size(); ++k) {
    const SectionHeader& prev = sections[order[k - 1]];
    const SectionHeader& next = sections[order[k]];
    if (prev.raw_size && next.raw_size && uint64_t{prev.raw_offset} + prev.raw_size > next.raw_offset)
      return layout_error(section_name(image, order[k]),
                          fmt::format("raw data at {:#x} overlaps section '{}' ({:#x}+{:#x})", next.raw_offset, prev.name, prev.raw_offset, prev.raw_size),
                          header_offset(image, order[k]) + kRawSizeField + 4);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sections[a].virtual_address < sections[b].virtual_address; });
  for (size_t k = 0; k < order.size(); ++k) {
    const SectionHeader& s = sections[order[k]];
    uint64_t at = header_offset(image, order[k]) + 12;  // VirtualAddress
    if (s.virtual_address < h.size_of_headers)
      return layout_error(section_name(image, order[k]),
                          fmt::format("virtual address {:#x} lies inside the headers (SizeOfHeaders {:#x})", s.virtual_address, h.size_of_headers), at);
    if (k == 0) continue;
    const SectionHeader& prev = sections[order[k - 1]];
    if (uint64_t{prev.virtual_address} + prev.mapped_size() > s.virtual_address)
      return layout_error(section_name(image, order[k]),
                          fmt::format("virtual range at {:#x} overlaps section '{}' ({:#x}+{:#x})", s.virtual_address, prev.name,
                                      prev.virtual_address, prev.mapped_size()),
                          at);
  }

  const uint32_t directories = std::min<uint32_t>(h.directory_count, kDataDirectoryCount);
  for (uint32_t d = 0; d < directories; ++d) {
    if (d == kSecurityDirectory) continue;  // a file offset: the certificates follow the sections
    DataDirectory dir = h.directories[d];
    if (!dir.rva && !dir.size) continue;
    uint64_t end = uint64_t{dir.rva} + dir.size;
    bool inside = end <= h.size_of_headers;
    if (const SectionHeader* s = image.section_for_rva(dir.rva)) inside = end <= uint64_t{s->virtual_address} + s->mapped_size();
    if (!inside)
      return layout_error(fmt::format("data directory {} ({})", d, kDirectoryNames[d]),
                          fmt::format("RVA range {:#x}+{:#x} is not inside one section", dir.rva, dir.size),
                          uint64_t{h.directories_offset} + uint64_t{d} * 8);
  }
  return ok();
}

}  // namespace cil::pe
