// The four heaps (#Strings, #US, #Blob, #GUID; ECMA-335 II.24.2.3-II.24.2.5) as checked views.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::md {

using Guid = std::array<uint8_t, 16>;

/// Formats a GUID the registry way: xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (lower case).
std::string format_guid(const Guid& guid);

/// A heap's bytes and where they sit in the file. An absent heap is an empty one.
class Heap {
 public:
  Heap() = default;
  Heap(std::span<const uint8_t> data, uint64_t file_offset) : data_(data), file_offset_(file_offset) {}
  std::span<const uint8_t> data() const { return data_; }
  uint32_t size() const { return static_cast<uint32_t>(data_.size()); }
  uint64_t file_offset() const { return file_offset_; }

 protected:
  Error index_error(std::string_view heap, uint32_t index) const;
  /// True when a compressed length at `index` and that many bytes after it lie inside the heap
  /// (a #Blob or #US entry that reads).
  bool prefixed_entry_fits(uint32_t index) const;
  std::span<const uint8_t> data_;
  uint64_t file_offset_ = 0;
};

class StringHeap : public Heap {
 public:
  using Heap::Heap;
  /// The NUL-terminated UTF-8 string at `index`; index 0 is the empty string.
  Expected<std::string_view> get(uint32_t index) const;
  /// The string at `index`, or a placeholder naming a bad index (for display and for names
  /// compared with known ones, which the placeholder never equals).
  std::string_view get_or_placeholder(uint32_t index) const;

 private:
  /// The string at `index` when it reads (both of the above), without an error value.
  std::optional<std::string_view> find(uint32_t index) const {
    if (index >= data_.size()) {
      if (index == 0) return std::string_view();  // an absent heap: index 0 is the empty string
      return std::nullopt;
    }
    const uint8_t* start = data_.data() + index;
    const void* nul = std::memchr(start, 0, data_.size() - index);
    if (!nul) return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(static_cast<const uint8_t*>(nul) - start));
  }
};

class BlobHeap : public Heap {
 public:
  using Heap::Heap;
  /// The blob at `index` (length prefix excluded); index 0 is the empty blob.
  Expected<std::span<const uint8_t>> get(uint32_t index) const;
  /// A reader over the blob at `index`, named `structure`.
  Expected<ByteReader> reader(uint32_t index, std::string_view structure) const;
  /// True when get(index) would succeed: the length and the bytes lie inside the heap.
  bool reads(uint32_t index) const;
};

class UserStringHeap : public Heap {
 public:
  using Heap::Heap;
  /// The UTF-16 string at `index` (its trailing flag byte dropped), at most `max_units` of it.
  Expected<std::u16string> get(uint32_t index, size_t max_units = SIZE_MAX) const;
  /// True when get(index) would succeed: an entry whose length and bytes lie inside the heap.
  bool reads(uint32_t index) const;
};

class GuidHeap : public Heap {
 public:
  using Heap::Heap;
  /// The GUID at 1-based `index`; index 0 is the null GUID.
  Expected<Guid> get(uint32_t index) const;
};

}  // namespace cil::md
