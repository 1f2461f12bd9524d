// Bounds-checked reads: compressed integers, indexes, strings and sub-ranges.
#include "support/byte_reader.h"

#include <fmt/format.h>

namespace cil {

std::string ByteReader::truncated_message(size_t wanted) const {
  return fmt::format("truncated: needs {} byte(s), {} left", wanted, pos_ <= data_.size() ? data_.size() - pos_ : 0);
}

Error ByteReader::error_at(size_t pos, std::string message) const {
  return make_error(ErrorKind::Format, std::string(structure_), std::move(message), file_offset_ + pos);
}

Error ByteReader::past_end(size_t pos) const {
  return error_at(pos, fmt::format("position {:#x} is past the end (size {:#x})", pos, data_.size()));
}

Error ByteReader::truncated(size_t wanted) const { return error_here(truncated_message(wanted)); }

Expected<uint32_t> ByteReader::compressed_u32_long() {
  if (!contains(pos_, 1)) return truncated(1);
  const uint8_t* p = data_.data() + pos_;
  uint8_t first = p[0];
  if ((first & 0x80) == 0) {
    pos_ += 1;
    return uint32_t{first};
  }
  if ((first & 0xC0) == 0x80) {
    if (!contains(pos_, 2)) return truncated(2);
    pos_ += 2;
    return (uint32_t{first & 0x3Fu} << 8) | p[1];
  }
  if ((first & 0xE0) == 0xC0) {
    if (!contains(pos_, 4)) return truncated(4);
    pos_ += 4;
    return (uint32_t{first & 0x1Fu} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
  }
  return error_here(fmt::format("invalid compressed integer lead byte {:#04x}", first));
}

Expected<int32_t> ByteReader::compressed_i32_long() {
  // II.23.2: the value is rotated left by one within its encoded width, sign bit last.
  size_t start = pos_;
  uint32_t raw = CIL_TRY(compressed_u32());
  size_t width = pos_ - start;
  bool negative = raw & 1;
  uint32_t magnitude = raw >> 1;
  if (!negative) return static_cast<int32_t>(magnitude);
  uint32_t bits = width == 1 ? 6 : width == 2 ? 13 : 28;
  return static_cast<int32_t>(magnitude | (~uint32_t{0} << bits));
}

Expected<uint32_t> ByteReader::index(uint8_t width) {
  if (width == 2) return CIL_TRY(u16());
  return u32();
}

Expected<std::span<const uint8_t>> ByteReader::bytes(size_t count) {
  if (!contains(pos_, count)) return truncated(count);
  auto result = data_.subspan(pos_, count);
  pos_ += count;
  return result;
}

Expected<std::string_view> ByteReader::c_string(size_t max_length) {
  size_t limit = std::min(remaining(), max_length + 1);
  const uint8_t* start = data_.data() + pos_;
  const void* nul = std::memchr(start, 0, limit);
  if (!nul) {
    if (limit == remaining()) return error_here("string is not NUL-terminated before the end");
    return error_here(fmt::format("string is longer than {} bytes", max_length));
  }
  size_t length = static_cast<const uint8_t*>(nul) - start;
  pos_ += length + 1;
  return std::string_view(reinterpret_cast<const char*>(start), length);
}

Expected<ByteReader> ByteReader::sub(size_t offset, size_t length, std::string_view structure) const {
  if (!contains(offset, length))
    return make_error(ErrorKind::Format, std::string(structure),
                      fmt::format("range {:#x}+{:#x} lies outside {} (size {:#x})", offset, length,
                                  structure_, data_.size()),
                      file_offset_ + std::min(offset, data_.size()));
  return ByteReader(data_.subspan(offset, length), file_offset_ + offset, structure);
}

}  // namespace cil
