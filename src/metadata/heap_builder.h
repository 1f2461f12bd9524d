// Append-only heaps for the writer: the original bytes stay as they are (so every existing
// index keeps its meaning) and new entries go after them, with find-or-add de-duplication.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "metadata/id_table.h"

namespace cil::md {

/// A heap as the writer sees it: the original bytes (a single zero byte when the heap did not
/// exist; a view of the input) followed by the appended ones (owned), so neither is copied.
struct HeapData {
  std::span<const uint8_t> original;
  std::vector<uint8_t> added;
  uint64_t size() const { return original.size() + added.size(); }
};

/// The entries of an original heap by content, for find-or-add: their offsets in an IdTable,
/// the keys read from the heap itself when compared.
class HeapIndex {
 public:
  /// Whether the entry at `offset` is `key` (without reading the entry's whole extent first).
  using KeyIs = bool (*)(std::span<const uint8_t> heap, uint32_t offset, std::string_view key);
  /// An entry to index: its offset and its key (a view of the heap).
  struct Entry {
    uint32_t offset;
    std::string_view key;
  };
  /// Indexes `entries`, found by the caller's one pass over the heap; the first of equal entries
  /// wins.
  void build(std::span<const uint8_t> heap, std::span<const Entry> entries, KeyIs key_is);
  std::optional<uint32_t> find(std::string_view key) const;
  void clear() { ids_.clear(); }

 private:
  std::span<const uint8_t> heap_;
  KeyIs key_is_ = nullptr;
  IdTable ids_;  ///< offset + 1 of each entry
};

class StringHeapBuilder {
 public:
  /// Hands the heap over to the writer; the builder is empty afterwards.
  HeapData take();
  explicit StringHeapBuilder(std::span<const uint8_t> original) : original_(original) {}
  /// Index of `text`, adding it when no entry of the heap spells it.
  uint32_t add(std::string_view text);
  /// The whole heap: original bytes (or a single NUL when there were none), then the additions.
  std::vector<uint8_t> bytes() const;
  uint32_t size() const;
  bool grew() const { return !added_.empty(); }

 private:
  void index_original();
  std::optional<uint32_t> search_original(std::string_view text) const;
  std::span<const uint8_t> original_;
  bool indexed_ = false;
  uint32_t lookups_ = 0;  ///< searches so far; past a few, the original heap gets an index
  HeapIndex original_index_;
  std::unordered_map<std::string, uint32_t> known_;  ///< added entries
  std::vector<uint8_t> added_;
};

class BlobHeapBuilder {
 public:
  /// Hands the heap over to the writer; the builder is empty afterwards.
  HeapData take();
  explicit BlobHeapBuilder(std::span<const uint8_t> original) : original_(original) {}
  uint32_t add(std::span<const uint8_t> blob);
  /// Appends `blob` without looking for an equal one (for blobs that rarely repeat, whose index
  /// would cost more memory than the duplicates).
  uint32_t append(std::span<const uint8_t> blob);
  /// An added blob by index (nullopt for indexes of the original heap or bad ones).
  std::optional<std::span<const uint8_t>> added(uint32_t index) const;
  std::vector<uint8_t> bytes() const;
  uint32_t size() const;
  bool grew() const { return !added_.empty(); }

 private:
  void index_original();
  std::optional<uint32_t> search_original(std::string_view blob) const;
  std::span<const uint8_t> original_;
  bool indexed_ = false;
  uint32_t lookups_ = 0;
  HeapIndex original_index_;
  std::unordered_map<std::string, uint32_t> known_;
  std::vector<uint8_t> added_;
};

class UserStringHeapBuilder {
 public:
  /// Hands the heap over to the writer; the builder is empty afterwards.
  HeapData take();
  explicit UserStringHeapBuilder(std::span<const uint8_t> original) : original_(original) {}
  /// Index of a new or previously added user string (II.24.2.4).
  uint32_t add(std::u16string_view text);
  std::vector<uint8_t> bytes() const;
  uint32_t size() const;
  bool grew() const { return !added_.empty(); }

 private:
  std::span<const uint8_t> original_;
  std::unordered_map<std::u16string, uint32_t> known_;
  std::vector<uint8_t> added_;
};

}  // namespace cil::md
