// Where a rewritten body's original IL offsets went: the value every rewrite returns
// (il::rewrite_body, il::encode_body), and what debug information (sequence points, local scopes,
// async stepping offsets), coverage and the profiler's SetILInstrumentedCodeMap are remapped
// through.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace cil::il {

class OffsetMap {
 public:
  struct Entry {
    uint32_t old_offset = 0;
    uint32_t new_offset = 0;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  /// New code [start, end) that came from no original instruction.
  struct Range {
    uint32_t start = 0;
    uint32_t end = 0;
    friend bool operator==(const Range&, const Range&) = default;
  };

  OffsetMap() = default;
  /// `entries`: one per boundary of the original code, ascending in old offset: the start of
  /// every original instruction, then the original code size (the end boundary). Rewrites never
  /// reorder original instructions, so new offsets ascend too (two are equal only where an edit
  /// removed an original instruction: it maps to where the next one that survived starts).
  /// `new_code_size` is the size of the whole rewritten code, which may extend past the end
  /// boundary's new offset (blocks appended after the original code, such as wrap mode's
  /// handlers and exit block). `inserted`: the new code that came from no original instruction,
  /// as ascending, disjoint, maximal ranges (entry probes, wrap mode's `leave` after a `ret`
  /// turned into a store, appended blocks); an original instruction keeps its range even when
  /// an edit changed its form (a widened branch, a `ret` that became the store).
  /// A body written from scratch (the helpers') has no original: its map is empty.
  OffsetMap(std::vector<Entry> entries, uint32_t new_code_size, std::vector<Range> inserted = {})
      : entries_(std::move(entries)), inserted_(std::move(inserted)), new_code_size_(new_code_size) {}

  /// The map of an unchanged body whose instructions start at `starts` (ascending) and whose code
  /// is `code_size` bytes long.
  static OffsetMap identity(std::span<const uint32_t> starts, uint32_t code_size) {
    std::vector<Entry> entries;
    entries.reserve(starts.size() + 1);
    for (uint32_t s : starts) entries.push_back({s, s});
    entries.push_back({code_size, code_size});
    return OffsetMap(std::move(entries), code_size);
  }

  std::span<const Entry> entries() const { return entries_; }
  /// The inserted code, for what must not be attributed to an original instruction (hidden
  /// sequence points, coverage that counts only the program's own code).
  std::span<const Range> inserted() const { return inserted_; }
  bool empty() const { return entries_.empty(); }
  /// Size of the original code (the old offset of the end boundary).
  uint32_t old_code_size() const { return entries_.empty() ? 0 : entries_.back().old_offset; }
  /// Size of the rewritten code.
  uint32_t new_code_size() const { return new_code_size_; }
  /// New offset of the original end boundary: where the original code now ends, before any
  /// block appended after it (wrap mode's handlers and exit block start there).
  uint32_t new_end_of_original() const { return entries_.empty() ? 0 : entries_.back().new_offset; }

  /// New offset of the original instruction that started at `old_offset` (or of the end boundary
  /// for the original code size). A branch or clause that named that instruction still names it,
  /// so code inserted before it runs only when control falls into it. nullopt when `old_offset`
  /// was not a boundary of the original code.
  std::optional<uint32_t> find(uint32_t old_offset) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), old_offset,
                               [](const Entry& e, uint32_t off) { return e.old_offset < off; });
    if (it == entries_.end() || it->old_offset != old_offset) return std::nullopt;
    return it->new_offset;
  }

  /// True when every boundary kept its offset and the code kept its size.
  bool is_identity() const {
    return new_code_size_ == old_code_size() && inserted_.empty() &&
           std::all_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.old_offset == e.new_offset; });
  }

  /// Refilling a map in place, keeping its storage, so that a loop over many bodies reuses one:
  /// reset() gives the entries to fill (every one, in ascending old offset), then add_inserted()
  /// adds every new range in ascending order (a range that starts where the last one ends
  /// extends it). reset(0, 0) leaves an empty map.
  std::span<Entry> reset(size_t entries, uint32_t new_code_size) {
    entries_.resize(entries);
    inserted_.clear();
    new_code_size_ = new_code_size;
    return entries_;
  }
  void add_inserted(Range range) {
    if (!inserted_.empty() && inserted_.back().end == range.start) inserted_.back().end = range.end;
    else inserted_.push_back(range);
  }

  friend bool operator==(const OffsetMap&, const OffsetMap&) = default;

 private:
  std::vector<Entry> entries_;
  std::vector<Range> inserted_;
  uint32_t new_code_size_ = 0;
};

}  // namespace cil::il
