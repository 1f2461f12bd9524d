// Bounds-checked access to heap entries.
#include "metadata/heaps.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace cil::md {

std::string format_guid(const Guid& g) {
  uint32_t d1 = load_le<uint32_t>(g.data());
  uint16_t d2 = load_le<uint16_t>(g.data() + 4);
  uint16_t d3 = load_le<uint16_t>(g.data() + 6);
  return fmt::format("{:08x}-{:04x}-{:04x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", d1, d2, d3, g[8], g[9],
                     g[10], g[11], g[12], g[13], g[14], g[15]);
}

Error Heap::index_error(std::string_view heap, uint32_t index) const {
  return make_error(ErrorKind::Format, std::string(heap),
                    fmt::format("index {:#x} is past the end of the heap (size {:#x})", index, data_.size()),
                    file_offset_ + std::min<uint64_t>(index, data_.size()));
}

Expected<std::string_view> StringHeap::get(uint32_t index) const {
  if (auto found = find(index)) return *found;
  if (index >= data_.size()) return index_error("#Strings heap", index);
  return make_error(ErrorKind::Format, "#Strings heap", fmt::format("string at index {:#x} is not NUL-terminated", index),
                    file_offset_ + index);
}

std::string_view StringHeap::get_or_placeholder(uint32_t index) const {
  // Every row's name comes through here: no error value is built.
  if (auto found = find(index)) return *found;
  return "<bad string index>";
}

Expected<ByteReader> BlobHeap::reader(uint32_t index, std::string_view structure) const {
  if (index == 0 && data_.empty()) return ByteReader({}, file_offset_, structure);
  if (index >= data_.size()) return index_error("#Blob heap", index);
  ByteReader heap(data_, file_offset_, "#Blob heap");
  CIL_TRY(heap.seek(index));
  uint32_t length = CIL_TRY(heap.compressed_u32());
  if (!heap.contains(heap.position(), length))
    return heap.error_at(index, fmt::format("blob of {:#x} bytes runs past the end of the heap (size {:#x})", length,
                                            data_.size()));
  return heap.sub(heap.position(), length, structure);
}

bool Heap::prefixed_entry_fits(uint32_t index) const {
  if (index >= data_.size()) return false;
  ByteReader entry(data_.subspan(index), file_offset_ + index, "heap entry");
  Expected<uint32_t> length = entry.compressed_u32();
  return length && entry.contains(entry.position(), *length);
}

bool BlobHeap::reads(uint32_t index) const { return (index == 0 && data_.empty()) || prefixed_entry_fits(index); }

Expected<std::span<const uint8_t>> BlobHeap::get(uint32_t index) const {
  ByteReader r = CIL_TRY(reader(index, "blob"));
  return r.data();
}

Expected<std::u16string> UserStringHeap::get(uint32_t index, size_t max_units) const {
  if (index >= data_.size()) return index_error("#US heap", index);
  ByteReader heap(data_, file_offset_, "#US heap");
  CIL_TRY(heap.seek(index));
  uint32_t length = CIL_TRY(heap.compressed_u32());
  auto bytes = CIL_TRY(heap.bytes(length));
  // II.24.2.4: UTF-16 code units, then one flag byte when the length is odd.
  size_t units = std::min(bytes.size() / 2, max_units);
  std::u16string text(units, u'\0');
  if (units) std::memcpy(text.data(), bytes.data(), units * 2);
  return text;
}

bool UserStringHeap::reads(uint32_t index) const { return prefixed_entry_fits(index); }

Expected<Guid> GuidHeap::get(uint32_t index) const {
  Guid guid{};
  if (index == 0) return guid;
  uint64_t offset = (uint64_t{index} - 1) * 16;
  if (offset + 16 > data_.size()) return index_error("#GUID heap", index);
  std::memcpy(guid.data(), data_.data() + offset, 16);
  return guid;
}

}  // namespace cil::md
