// Building heaps, tables streams, metadata roots and PE32 images for tests and fuzz targets.
#include "support/synthetic_image.h"

#include <cstring>

#include "metadata/table_layout.h"
#include "support/byte_reader.h"
#include "support/le_bytes.h"
#include "pe/pe_format.h"

namespace cil::testing {

namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

void put_compressed(std::vector<uint8_t>& out, uint32_t v) {
  if (v < 0x80) {
    out.push_back(static_cast<uint8_t>(v));
  } else if (v < 0x4000) {
    out.push_back(static_cast<uint8_t>(0x80 | (v >> 8)));
    out.push_back(static_cast<uint8_t>(v));
  } else {
    out.push_back(static_cast<uint8_t>(0xC0 | (v >> 24)));
    out.push_back(static_cast<uint8_t>(v >> 16));
    out.push_back(static_cast<uint8_t>(v >> 8));
    out.push_back(static_cast<uint8_t>(v));
  }
}

}  // namespace

uint32_t StringsBuilder::add(std::string_view text) {
  auto index = static_cast<uint32_t>(data.size());
  data.insert(data.end(), text.begin(), text.end());
  data.push_back(0);
  return index;
}

uint32_t BlobBuilder::add(std::span<const uint8_t> blob) {
  auto index = static_cast<uint32_t>(data.size());
  put_compressed(data, static_cast<uint32_t>(blob.size()));
  data.insert(data.end(), blob.begin(), blob.end());
  return index;
}

uint32_t TablesBuilder::add(md::TableId table, std::vector<uint32_t> cells) {
  auto& rows = rows_[static_cast<uint8_t>(table)];
  rows.push_back(std::move(cells));
  return static_cast<uint32_t>(rows.size());
}

std::vector<uint8_t> TablesBuilder::build() const {
  md::TableLayout layout;
  layout.large_strings = heap_sizes & 0x01;
  layout.large_guids = heap_sizes & 0x02;
  layout.large_blobs = heap_sizes & 0x04;
  uint64_t valid = 0;
  for (unsigned id = 0; id < md::kTableSlots; ++id) {
    layout.rows[id] = claimed_[id] ? *claimed_[id] : static_cast<uint32_t>(rows_[id].size());
    if (layout.rows[id] || claimed_[id]) valid |= uint64_t{1} << id;
  }
  layout.compute();
  std::vector<uint8_t> out;
  put32(out, 0);
  out.push_back(2);  // version 2.0
  out.push_back(0);
  out.push_back(heap_sizes);
  out.push_back(1);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(valid >> (8 * i)));
  for (int i = 0; i < 8; ++i) out.push_back(0);  // Sorted
  for (unsigned id = 0; id < md::kTableSlots; ++id)
    if ((valid >> id) & 1) put32(out, layout.rows[id]);
  for (unsigned id = 0; id < md::kTableSlots; ++id) {
    const auto& info = layout.tables[id];
    for (const auto& row : rows_[id]) {
      size_t start = out.size();
      out.resize(start + info.row_size, 0);
      for (size_t c = 0; c < row.size() && c < md::table_schema(static_cast<uint8_t>(id)).columns.size(); ++c) {
        uint8_t* p = out.data() + start + info.offset[c];
        if (info.width[c] == 2) store_le(p, static_cast<uint16_t>(row[c]));
        else store_le(p, row[c]);
      }
    }
  }
  return out;
}

std::vector<uint8_t> metadata_root(const std::vector<Stream>& streams) {
  std::vector<uint8_t> out;
  put32(out, 0x424A5342);  // BSJB
  put16(out, 1);
  put16(out, 1);
  put32(out, 0);
  const char version[12] = "v4.0.30319";
  put32(out, sizeof version);
  out.insert(out.end(), version, version + sizeof version);
  put16(out, 0);
  put16(out, static_cast<uint16_t>(streams.size()));
  uint32_t headers = 0;
  for (const auto& s : streams) headers += 8 + align_up(static_cast<uint32_t>(s.name.size()) + 1, 4);
  uint32_t offset = static_cast<uint32_t>(out.size()) + headers;
  for (const auto& s : streams) {
    put32(out, offset);
    put32(out, static_cast<uint32_t>(s.data.size()));
    out.insert(out.end(), s.name.begin(), s.name.end());
    out.resize(out.size() + align_up(static_cast<uint32_t>(s.name.size()) + 1, 4) - s.name.size(), 0);
    offset += align_up(static_cast<uint32_t>(s.data.size()), 4);
  }
  for (const auto& s : streams) {
    out.insert(out.end(), s.data.begin(), s.data.end());
    out.resize(align_up(static_cast<uint32_t>(out.size()), 4), 0);
  }
  return out;
}

std::vector<uint8_t> metadata_root(const TablesBuilder& tables, const StringsBuilder& strings, const BlobBuilder& blobs) {
  std::vector<uint8_t> guid(16, 0x11);
  return metadata_root({{"#~", tables.build()},
                        {"#Strings", strings.data},
                        {"#US", {0}},
                        {"#GUID", guid},
                        {"#Blob", blobs.data}});
}

std::vector<uint8_t> pe_image(std::span<const uint8_t> metadata, std::span<const uint8_t> code,
                              uint32_t extra_section_bytes) {
  constexpr uint32_t kPeOffset = 0x40;
  constexpr uint32_t kOptionalHeaderSize = 0xE0;  // PE32 with 16 data directories
  constexpr uint32_t kFileAlignment = 0x200;
  constexpr uint32_t kSectionAlignment = 0x2000;
  constexpr uint32_t kSectionRva = 0x2000;
  uint32_t metadata_delta = align_up(kCodeRva - kSectionRva + static_cast<uint32_t>(code.size()), 4);
  uint32_t section_size = metadata_delta + static_cast<uint32_t>(metadata.size()) + extra_section_bytes;
  uint32_t raw_size = align_up(section_size, kFileAlignment);
  std::vector<uint8_t> out(kFileAlignment + raw_size, 0);
  auto u16 = [&](uint32_t at, uint16_t v) { store_le(out.data() + at, v); };
  auto u32 = [&](uint32_t at, uint32_t v) { store_le(out.data() + at, v); };

  u16(0, pe::kDosMagic);
  u32(0x3C, kPeOffset);
  u32(kPeOffset, pe::kPeSignature);
  uint32_t coff = kPeOffset + 4;
  u16(coff, pe::kMachineI386);
  u16(coff + 2, 1);
  u16(coff + 16, kOptionalHeaderSize);
  u16(coff + 18, pe::kFileExecutableImage | pe::kFile32BitMachine | pe::kFileDll);
  uint32_t opt = coff + pe::kCoffHeaderSize;
  u16(opt, pe::kPe32Magic);
  u32(opt + 28, 0x10000000);  // ImageBase
  u32(opt + 32, kSectionAlignment);
  u32(opt + 36, kFileAlignment);
  u16(opt + 40, 4);  // OS version
  u16(opt + 48, 4);  // subsystem version
  u32(opt + 56, kSectionRva + align_up(section_size, kSectionAlignment));  // SizeOfImage
  u32(opt + 60, kFileAlignment);                                          // SizeOfHeaders
  u16(opt + 68, 3);                                                       // console
  u32(opt + 92, pe::kDataDirectoryCount);
  uint32_t dirs = opt + 96;
  u32(dirs + pe::kClrDirectory * 8, kSectionRva);
  u32(dirs + pe::kClrDirectory * 8 + 4, pe::kCliHeaderSize);
  uint32_t section = opt + kOptionalHeaderSize;
  std::memcpy(out.data() + section, ".text", 5);
  u32(section + 8, section_size);
  u32(section + 12, kSectionRva);
  u32(section + 16, raw_size);
  u32(section + 20, kFileAlignment);
  u32(section + 36, pe::kSectionCode | pe::kSectionMemExecute | pe::kSectionMemRead);

  uint32_t cli = kFileAlignment;
  u32(cli, pe::kCliHeaderSize);
  u16(cli + 4, 2);
  u16(cli + 6, 5);
  u32(cli + 8, kSectionRva + metadata_delta);
  u32(cli + 12, static_cast<uint32_t>(metadata.size()));
  u32(cli + 16, pe::kComImageIlOnly);
  if (!code.empty()) std::memcpy(out.data() + cli + (kCodeRva - kSectionRva), code.data(), code.size());
  if (!metadata.empty()) std::memcpy(out.data() + cli + metadata_delta, metadata.data(), metadata.size());
  return out;
}

}  // namespace cil::testing
