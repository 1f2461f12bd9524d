// Parsing of the DOS header, NT headers and section table, and RVA-to-offset mapping.
#include "pe/pe_image.h"

#include <fmt/format.h>

#include "pe/section_layout.h"

namespace cil::pe {

namespace {

Error format_error(std::string structure, std::string message, uint64_t offset) {
  return make_error(ErrorKind::Format, std::move(structure), std::move(message), offset);
}

}  // namespace

Expected<PeImage> PeImage::parse(std::span<const uint8_t> file) {
  PeImage image;
  image.file_ = file;
  PeHeaders& h = image.headers_;

  ByteReader dos(file, 0, "DOS header");
  if (file.size() < kDosHeaderSize)
    return format_error("DOS header", fmt::format("file is {} bytes, too small for a PE image", file.size()), 0);
  uint16_t magic = CIL_TRY(dos.u16());
  if (magic != kDosMagic)
    return format_error("DOS header", "not a PE file: no MZ signature", 0);
  h.pe_offset = CIL_TRY(dos.peek_at<uint32_t>(0x3C));

  ByteReader nt(file, 0, "the file");  // sub-ranges report "lies outside the file"
  if (h.pe_offset >= file.size())
    return format_error("NT headers", fmt::format("e_lfanew {:#x} points past the end of the file", h.pe_offset), 0x3C);
  if (!nt.contains(h.pe_offset, 4 + kCoffHeaderSize))
    return format_error("NT headers", fmt::format("the PE signature and COFF header at e_lfanew {:#x} run past the end of the file",
                                                  h.pe_offset),
                        h.pe_offset);
  CIL_TRY(nt.seek(h.pe_offset));
  if (CIL_TRY(nt.u32()) != kPeSignature)
    return format_error("NT headers", "no PE\\0\\0 signature at e_lfanew", h.pe_offset);

  h.coff_offset = h.pe_offset + 4;
  ByteReader coff = CIL_TRY(nt.sub(h.coff_offset, kCoffHeaderSize, "COFF header"));
  h.machine = CIL_TRY(coff.u16());
  h.section_count = CIL_TRY(coff.u16());
  h.timestamp = CIL_TRY(coff.u32());
  CIL_TRY(coff.skip(8));  // symbol table pointer and count: unused in images
  h.optional_header_size = CIL_TRY(coff.u16());
  h.characteristics = CIL_TRY(coff.u16());
  if (h.section_count > kMaxSections)
    return make_error(ErrorKind::Limit, "COFF header",
                      fmt::format("{} sections exceed the limit of {}", h.section_count, kMaxSections),
                      h.coff_offset + 2);

  h.optional_header_offset = h.coff_offset + kCoffHeaderSize;
  ByteReader opt = CIL_TRY(nt.sub(h.optional_header_offset, h.optional_header_size, "optional header"));
  uint16_t opt_magic = CIL_TRY(opt.u16());
  if (opt_magic == kPe32PlusMagic) h.pe32_plus = true;
  else if (opt_magic != kPe32Magic)
    return format_error("optional header", fmt::format("unknown magic {:#x}", opt_magic), h.optional_header_offset);
  h.linker_major = CIL_TRY(opt.u8());
  h.linker_minor = CIL_TRY(opt.u8());
  h.size_of_code = CIL_TRY(opt.u32());
  h.size_of_initialized_data = CIL_TRY(opt.u32());
  CIL_TRY(opt.skip(4));  // SizeOfUninitializedData
  h.entry_point_rva = CIL_TRY(opt.u32());
  CIL_TRY(opt.skip(4));  // BaseOfCode
  if (h.pe32_plus) {
    h.image_base = CIL_TRY(opt.u64());
  } else {
    CIL_TRY(opt.skip(4));  // BaseOfData
    h.image_base = CIL_TRY(opt.u32());
  }
  h.section_alignment = CIL_TRY(opt.u32());
  h.file_alignment = CIL_TRY(opt.u32());
  CIL_TRY(opt.skip(12));  // OS, image and subsystem versions
  CIL_TRY(opt.skip(4));   // Win32VersionValue
  h.size_of_image = CIL_TRY(opt.u32());
  h.size_of_headers = CIL_TRY(opt.u32());
  h.checksum = CIL_TRY(opt.u32());
  h.subsystem = CIL_TRY(opt.u16());
  h.dll_characteristics = CIL_TRY(opt.u16());
  CIL_TRY(opt.skip(h.pe32_plus ? 32 : 16));  // stack and heap reserve/commit
  CIL_TRY(opt.skip(4));                      // LoaderFlags
  h.directory_count = CIL_TRY(opt.u32());
  h.directories_offset = h.optional_header_offset + static_cast<uint32_t>(opt.position());
  uint32_t readable = std::min<uint32_t>(h.directory_count, kDataDirectoryCount);
  if (opt.remaining() / 8 < readable)
    return format_error("optional header",
                        fmt::format("NumberOfRvaAndSizes {} does not fit in SizeOfOptionalHeader {:#x}",
                                    h.directory_count, h.optional_header_size),
                        opt.file_offset());
  for (uint32_t i = 0; i < readable; ++i) {
    h.directories[i].rva = CIL_TRY(opt.u32());
    h.directories[i].size = CIL_TRY(opt.u32());
  }

  h.section_table_offset = h.optional_header_offset + h.optional_header_size;
  ByteReader table = CIL_TRY(nt.sub(h.section_table_offset, size_t{h.section_count} * kSectionHeaderSize, "section table"));
  image.sections_.reserve(h.section_count);
  for (uint32_t i = 0; i < h.section_count; ++i) {
    SectionHeader s;
    auto name = CIL_TRY(table.bytes(8));
    size_t length = 0;
    while (length < 8 && name[length] != 0) ++length;
    s.name.assign(reinterpret_cast<const char*>(name.data()), length);
    s.virtual_size = CIL_TRY(table.u32());
    s.virtual_address = CIL_TRY(table.u32());
    s.raw_size = CIL_TRY(table.u32());
    s.raw_offset = CIL_TRY(table.u32());
    CIL_TRY(table.skip(12));  // relocations, line numbers and their counts
    s.characteristics = CIL_TRY(table.u32());
    image.sections_.push_back(std::move(s));
  }
  CIL_TRY(check_section_data_in_file(image));
  return image;
}

const SectionHeader* PeImage::section_for_rva(uint32_t rva) const {
  for (const auto& s : sections_) {
    if (rva >= s.virtual_address && rva - s.virtual_address < s.mapped_size()) return &s;
  }
  return nullptr;
}

PeImage::Placement PeImage::place(const SectionHeader& s, uint32_t rva, uint32_t size) const {
  uint32_t delta = rva - s.virtual_address;
  uint32_t in_file = std::min(s.raw_size, s.mapped_size());
  uint64_t offset = uint64_t{s.raw_offset} + delta;
  return {offset, uint64_t{s.raw_offset} + in_file, delta > in_file || size > in_file - delta,
          offset > file_.size() || size > file_.size() - offset};
}

Expected<uint32_t> PeImage::rva_to_offset(uint32_t rva, uint32_t size, std::string_view what) const {
  const SectionHeader* s = section_for_rva(rva);
  if (!s) {
    // The loader maps the headers at RVA 0, so an RVA inside them reads the file directly.
    if (rva < headers_.size_of_headers && uint64_t{rva} + size <= headers_.size_of_headers &&
        uint64_t{rva} + size <= file_.size())
      return rva;
    return make_error(ErrorKind::Format, std::string(what),
                      fmt::format("RVA {:#x} is not inside any section", rva));
  }
  Placement at = place(*s, rva, size);
  if (at.past_section_data)
    return make_error(ErrorKind::Format, std::string(what),
                      fmt::format("RVA range {:#x}+{:#x} runs past the file data of section '{}'", rva, size, s->name), at.offset);
  if (at.past_file)
    return make_error(ErrorKind::Format, std::string(what),
                      fmt::format("RVA range {:#x}+{:#x} runs past the end of the file (section '{}')", rva, size, s->name),
                      std::min<uint64_t>(at.offset, file_.size()));
  return static_cast<uint32_t>(at.offset);
}

Expected<ByteReader> PeImage::reader_at(uint32_t rva, uint32_t size, std::string_view what) const {
  uint32_t offset = CIL_TRY(rva_to_offset(rva, size, what));
  return ByteReader(file_.subspan(offset, size), offset, what);
}

Expected<ByteReader> PeImage::reader_from(uint32_t rva, std::string_view what) const {
  // The section is found once, and no error value is built when the RVA lies in its file data
  // (every method body); rva_to_offset takes the headers and names what is wrong.
  if (const SectionHeader* s = section_for_rva(rva)) {
    Placement at = place(*s, rva, 0);
    if (at.past_section_data || at.past_file) return rva_to_offset(rva, 0, what).error();
    size_t end = std::min<uint64_t>(file_.size(), at.section_data_end);
    return ByteReader(file_.subspan(at.offset, end - at.offset), at.offset, what);
  }
  uint32_t offset = CIL_TRY(rva_to_offset(rva, 0, what));
  size_t end = std::min<uint64_t>(file_.size(), headers_.size_of_headers);
  return ByteReader(file_.subspan(offset, end - offset), offset, what);
}

}  // namespace cil::pe
