// The single bounds-checked reader through which every byte of an input file is parsed.
#pragma once

#include <cstdint>
#include <bit>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "support/error.h"

namespace cil {

/// Loads a little-endian integer from memory the caller has already bounds-checked.
template <class T>
inline T load_le(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;  // every supported host is little-endian; static_assert below keeps it so
}
static_assert(std::endian::native == std::endian::little, "cil-instrument assumes a little-endian host");

/// Stores a little-endian integer.
template <class T>
inline void store_le(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

/// A cursor over a byte range of the input. Every read checks `offset <= size && length <= size
/// - offset` first, so no read can overflow, and every error carries the absolute file offset
/// and the name of the structure being read.
class ByteReader {
 public:
  ByteReader() = default;
  /// `structure` must outlive the reader (a string literal, normally).
  ByteReader(std::span<const uint8_t> data, uint64_t file_offset, std::string_view structure)
      : data_(data), file_offset_(file_offset), structure_(structure) {}

  size_t size() const { return data_.size(); }
  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  std::span<const uint8_t> data() const { return data_; }
  /// Absolute file offset of the first byte of this range.
  uint64_t base_offset() const { return file_offset_; }
  /// Absolute file offset of the cursor.
  uint64_t file_offset() const { return file_offset_ + pos_; }
  std::string_view structure() const { return structure_; }

  /// True when [offset, offset+length) lies inside the range; safe against overflow.
  bool contains(size_t offset, size_t length) const {
    return offset <= data_.size() && length <= data_.size() - offset;
  }

  [[gnu::always_inline]] Status seek(size_t pos) {
    if (pos > data_.size()) [[unlikely]] return past_end(pos);
    pos_ = pos;
    return ok();
  }
  [[gnu::always_inline]] Status skip(size_t count) {
    if (!contains(pos_, count)) [[unlikely]] return truncated(count);
    pos_ += count;
    return ok();
  }

  Expected<uint8_t> u8() { return read<uint8_t>(); }
  Expected<uint16_t> u16() { return read<uint16_t>(); }
  Expected<uint32_t> u32() { return read<uint32_t>(); }
  Expected<uint64_t> u64() { return read<uint64_t>(); }

  /// Reads a value at an absolute position in the range without moving the cursor.
  template <class T>
  Expected<T> peek_at(size_t pos) const {
    if (!contains(pos, sizeof(T)))
      return error_at(pos, truncated_message(sizeof(T)));
    return load_le<T>(data_.data() + pos);
  }

  /// Reads a compressed unsigned integer (ECMA-335 II.23.2). The one-byte form inline.
  [[gnu::always_inline]] Expected<uint32_t> compressed_u32() {
    if (pos_ < data_.size() && (data_[pos_] & 0x80) == 0) [[likely]]
      return uint32_t{data_[pos_++]};
    return compressed_u32_long();
  }
  /// Reads a compressed signed integer (ECMA-335 II.23.2). The one-byte form inline: sequence
  /// points are mostly such deltas.
  [[gnu::always_inline]] Expected<int32_t> compressed_i32() {
    if (pos_ < data_.size() && (data_[pos_] & 0x80) == 0) [[likely]] {
      uint32_t raw = data_[pos_++];
      // Rotated left by one within its 7 bits, the sign last.
      return static_cast<int32_t>((raw & 1) ? (raw >> 1) | (~uint32_t{0} << 6) : raw >> 1);
    }
    return compressed_i32_long();
  }
  /// Reads a 2- or 4-byte heap or table index (II.24.2.6).
  Expected<uint32_t> index(uint8_t width);
  /// Takes the next `count` bytes.
  Expected<std::span<const uint8_t>> bytes(size_t count);
  /// Reads a NUL-terminated string of at most `max_length` bytes (NUL excluded).
  Expected<std::string_view> c_string(size_t max_length);

  /// A reader over [offset, offset+length) of this range, named `structure`.
  Expected<ByteReader> sub(size_t offset, size_t length, std::string_view structure) const;
  /// The rest of the range from the cursor, as its own reader.
  ByteReader rest() const {
    return ByteReader(data_.subspan(pos_), file_offset_ + pos_, structure_);
  }

  /// An error naming this structure at the cursor, or at `pos`.
  Error error_here(std::string message) const { return error_at(pos_, std::move(message)); }
  Error error_at(size_t pos, std::string message) const;

 private:
  // Inline with the error out of line: the decoders read every byte of every body through it.
  template <class T>
  [[gnu::always_inline]] Expected<T> read() {
    if (!contains(pos_, sizeof(T))) [[unlikely]] return truncated(sizeof(T));
    T value = load_le<T>(data_.data() + pos_);
    pos_ += sizeof(T);
    return value;
  }
  [[gnu::cold, gnu::noinline]] Error truncated(size_t wanted) const;
  [[gnu::cold, gnu::noinline]] Error past_end(size_t pos) const;
  std::string truncated_message(size_t wanted) const;
  Expected<uint32_t> compressed_u32_long();
  Expected<int32_t> compressed_i32_long();

  std::span<const uint8_t> data_;
  size_t pos_ = 0;
  uint64_t file_offset_ = 0;
  std::string_view structure_;
};

}  // namespace cil
