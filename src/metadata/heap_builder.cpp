// Find-or-add over original heap contents, appending new entries after them.
#include "metadata/heap_builder.h"

#include <cstring>

#include "metadata/signature.h"
#include "support/byte_reader.h"

namespace cil::md {

namespace {

// An absent heap still needs index 0 to mean "empty": it starts as one zero byte.
uint32_t base_size(std::span<const uint8_t> original) {
  return original.empty() ? 1u : static_cast<uint32_t>(original.size());
}

constexpr uint8_t kZero[1] = {0};

HeapData take_heap(std::span<const uint8_t> original, std::vector<uint8_t>& added) {
  HeapData data{original.empty() ? std::span<const uint8_t>(kZero) : original, std::move(added)};
  added.clear();
  return data;
}

std::vector<uint8_t> joined(std::span<const uint8_t> original, const std::vector<uint8_t>& added) {
  std::vector<uint8_t> out;
  out.reserve(original.size() + added.size() + 4);
  if (original.empty()) out.push_back(0);
  else out.insert(out.end(), original.begin(), original.end());
  out.insert(out.end(), added.begin(), added.end());
  return out;
}

/// Lookups answered by a linear scan before the original heap is indexed. An index costs about
/// as much as 6 scans of #Strings or 19 of #Blob (mscorlib, callgrind), but count mode looks up
/// 53 strings and 34 blobs there (161 and 76 on Mono.Cecil with its PDB): its heaps are always
/// indexed, and scans first only add to that. Two scans spare the index a job that adds a name
/// or two.
constexpr uint32_t kScansBeforeIndex = 2;

bool string_is(std::span<const uint8_t> heap, uint32_t offset, std::string_view key) {
  return offset + key.size() < heap.size() && heap[offset + key.size()] == 0 &&
         std::memcmp(heap.data() + offset, key.data(), key.size()) == 0;
}

std::string_view blob_at(std::span<const uint8_t> heap, uint32_t offset) {
  // Offsets given to the index are those of blobs that read whole.
  ByteReader r(heap, 0, "#Blob heap");
  (void)r.seek(offset);
  auto length = r.compressed_u32();
  auto bytes = r.bytes(length ? *length : 0);
  return bytes ? std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()) : std::string_view();
}

bool blob_is(std::span<const uint8_t> heap, uint32_t offset, std::string_view key) { return blob_at(heap, offset) == key; }

}  // namespace

void HeapIndex::build(std::span<const uint8_t> heap, std::span<const Entry> entries, KeyIs key_is) {
  heap_ = heap;
  key_is_ = key_is;
  ids_.reset(entries.size());
  std::hash<std::string_view> hash;
  for (const Entry& entry : entries) ids_.add(hash(entry.key), entry.offset + 1);  // in heap order: the first wins
}

std::optional<uint32_t> HeapIndex::find(std::string_view key) const {
  uint32_t id = ids_.find(std::hash<std::string_view>{}(key), [&](uint32_t id) { return key_is_(heap_, id - 1, key); });
  if (id == 0) return std::nullopt;
  return id - 1;
}

std::optional<uint32_t> StringHeapBuilder::search_original(std::string_view text) const {
  // An entry starts at 0 or after a NUL and ends at a NUL: the first match is the heap's start,
  // or the first "\0text\0" (memmem: glibc's search is many times faster than a scan from
  // every occurrence of the first character, and the heap is scanned once per new name).
  std::string_view heap(reinterpret_cast<const char*>(original_.data()), original_.size());
  if (heap.size() > text.size() && heap.substr(0, text.size()) == text && heap[text.size()] == '\0') return 0;
  std::string needle;
  needle.reserve(text.size() + 2);
  needle += '\0';
  needle += text;
  needle += '\0';
  const void* at = ::memmem(heap.data(), heap.size(), needle.data(), needle.size());
  if (!at) return std::nullopt;
  return static_cast<uint32_t>(static_cast<const char*>(at) - heap.data() + 1);
}

void StringHeapBuilder::index_original() {
  indexed_ = true;
  std::vector<HeapIndex::Entry> entries;
  // Each entry ends at the next NUL (memchr finds it many bytes a step); the bytes after the
  // last NUL are no entry.
  const uint8_t* begin = original_.data();
  const uint8_t* end = begin + original_.size();
  for (const uint8_t* start = begin; start < end;) {
    const auto* nul = static_cast<const uint8_t*>(std::memchr(start, 0, static_cast<size_t>(end - start)));
    if (!nul) break;
    entries.push_back({static_cast<uint32_t>(start - begin),
                       std::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(nul - start))});
    start = nul + 1;
  }
  original_index_.build(original_, entries, string_is);
}

uint32_t StringHeapBuilder::add(std::string_view text) {
  if (text.empty()) return 0;
  if (!indexed_ && ++lookups_ > kScansBeforeIndex) index_original();
  if (indexed_) {
    if (auto found = original_index_.find(text)) return *found;
  } else if (auto found = search_original(text)) {
    return *found;
  }
  auto it = known_.find(std::string(text));
  if (it != known_.end()) return it->second;
  uint32_t index = base_size(original_) + static_cast<uint32_t>(added_.size());
  added_.insert(added_.end(), text.begin(), text.end());
  added_.push_back(0);
  known_.emplace(std::string(text), index);
  return index;
}

HeapData StringHeapBuilder::take() {
  known_.clear();
  original_index_.clear();
  return take_heap(original_, added_);
}
HeapData BlobHeapBuilder::take() {
  known_.clear();
  original_index_.clear();
  return take_heap(original_, added_);
}
HeapData UserStringHeapBuilder::take() {
  known_.clear();
  return take_heap(original_, added_);
}

std::vector<uint8_t> StringHeapBuilder::bytes() const { return joined(original_, added_); }
uint32_t StringHeapBuilder::size() const { return base_size(original_) + static_cast<uint32_t>(added_.size()); }

void BlobHeapBuilder::index_original() {
  indexed_ = true;
  std::vector<HeapIndex::Entry> entries;
  ByteReader r(original_, 0, "#Blob heap");
  if (r.size()) (void)r.skip(1);  // index 0: the empty blob
  while (!r.at_end()) {
    uint32_t start = static_cast<uint32_t>(r.position());
    auto length = r.compressed_u32();
    if (!length) break;
    auto bytes = r.bytes(*length);
    if (!bytes) break;
    entries.push_back({start, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size())});
  }
  original_index_.build(original_, entries, blob_is);
}

std::optional<uint32_t> BlobHeapBuilder::search_original(std::string_view blob) const {
  ByteReader r(original_, 0, "#Blob heap");
  if (r.size()) (void)r.skip(1);
  while (!r.at_end()) {
    uint32_t start = static_cast<uint32_t>(r.position());
    auto length = r.compressed_u32();
    if (!length) break;
    auto bytes = r.bytes(*length);
    if (!bytes) break;
    if (bytes->size() == blob.size() && std::memcmp(bytes->data(), blob.data(), blob.size()) == 0) return start;
  }
  return std::nullopt;
}

uint32_t BlobHeapBuilder::add(std::span<const uint8_t> blob) {
  if (blob.empty()) return 0;
  std::string_view view(reinterpret_cast<const char*>(blob.data()), blob.size());
  if (!indexed_ && ++lookups_ > kScansBeforeIndex) index_original();
  if (indexed_) {
    if (auto found = original_index_.find(view)) return *found;
  } else if (auto found = search_original(view)) {
    return *found;
  }
  std::string key(view);
  auto it = known_.find(key);
  if (it != known_.end()) return it->second;
  uint32_t index = base_size(original_) + static_cast<uint32_t>(added_.size());
  encode_compressed_u32(added_, static_cast<uint32_t>(blob.size()));
  added_.insert(added_.end(), blob.begin(), blob.end());
  known_.emplace(std::move(key), index);
  return index;
}

uint32_t BlobHeapBuilder::append(std::span<const uint8_t> blob) {
  if (blob.empty()) return 0;
  uint32_t index = base_size(original_) + static_cast<uint32_t>(added_.size());
  encode_compressed_u32(added_, static_cast<uint32_t>(blob.size()));
  added_.insert(added_.end(), blob.begin(), blob.end());
  return index;
}

std::optional<std::span<const uint8_t>> BlobHeapBuilder::added(uint32_t index) const {
  uint32_t base = base_size(original_);
  if (index < base) return std::nullopt;
  ByteReader r(added_, 0, "#Blob heap");
  if (!r.seek(index - base)) return std::nullopt;
  auto length = r.compressed_u32();
  if (!length) return std::nullopt;
  auto bytes = r.bytes(*length);
  if (!bytes) return std::nullopt;
  return *bytes;
}

std::vector<uint8_t> BlobHeapBuilder::bytes() const { return joined(original_, added_); }
uint32_t BlobHeapBuilder::size() const { return base_size(original_) + static_cast<uint32_t>(added_.size()); }

uint32_t UserStringHeapBuilder::add(std::u16string_view text) {
  // Long strings are not worth remembering: they are unlikely to repeat and costly to key.
  constexpr size_t kRemembered = 256;
  if (text.size() <= kRemembered) {
    auto it = known_.find(std::u16string(text));
    if (it != known_.end()) return it->second;
  } else {
    added_.reserve(added_.size() + text.size() * 2 + 8);
  }
  uint32_t index = base_size(original_) + static_cast<uint32_t>(added_.size());
  encode_compressed_u32(added_, static_cast<uint32_t>(text.size() * 2 + 1));
  // II.24.2.4: the final byte is 1 when any character needs more than the low byte handling.
  uint8_t special = 0;
  for (char16_t c : text) {
    uint8_t bytes[2];
    std::memcpy(bytes, &c, 2);
    added_.push_back(bytes[0]);
    added_.push_back(bytes[1]);
    if (c >= 0x7F || (c >= 0x01 && c <= 0x08) || (c >= 0x0E && c <= 0x1F) || c == 0x27 || c == 0x2D) special = 1;
  }
  added_.push_back(special);
  if (text.size() <= kRemembered) known_.emplace(std::u16string(text), index);
  return index;
}

std::vector<uint8_t> UserStringHeapBuilder::bytes() const { return joined(original_, added_); }
uint32_t UserStringHeapBuilder::size() const { return base_size(original_) + static_cast<uint32_t>(added_.size()); }

}  // namespace cil::md
