// Ids by hash, for the writer's find-or-add indexes (heap entries, table rows): an
// open-addressing table of 4-byte ids whose keys the caller holds and compares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cil::md {

/// Nonzero ids in slots found by linear probing from their hash, at most half full. Ids of equal
/// keys (equal hashes) are found in the order they were added: the first added wins.
class IdTable {
 public:
  /// Empty, with room for `count` ids.
  void reset(size_t count) {
    size_t slots = 16;
    while (slots < count * 2) slots *= 2;
    slots_.assign(slots, 0);
  }
  /// Adds `id` (nonzero) at the end of its hash's probe sequence.
  void add(size_t hash, uint32_t id) {
    size_t mask = slots_.size() - 1;
    size_t i = hash & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = id;
  }
  /// The first id added under `hash` for which `is(id)` holds, or 0.
  template <class Is>
  uint32_t find(size_t hash, Is&& is) const {
    if (slots_.empty()) return 0;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask; slots_[i] != 0; i = (i + 1) & mask)
      if (is(slots_[i])) return slots_[i];
    return 0;
  }
  void clear() { std::vector<uint32_t>().swap(slots_); }

 private:
  std::vector<uint32_t> slots_;  ///< an id, or 0 for an empty slot; a power of two in size
};

}  // namespace cil::md
