// The allocator's settings for a run that instruments (see heap_policy.h).
#include "cli/heap_policy.h"

#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace cil::cli {

namespace {

// Measured on the framework, Mono's assemblies and Mono.Cecil with its PDB: the heap a count run
// touches is about 0.2 MB, plus 0.16 to 0.21 KB per method, plus 10 to 12 bytes per byte of a
// portable PDB (bench/README.md, "Page faults"). Guessing high costs less than guessing low:
// a page made ready and not used costs about a quarter of a page fault.
constexpr uint64_t kBaseHeap = 200 << 10;
constexpr uint64_t kHeapPerMethod = 180;
constexpr uint64_t kHeapPerPdbByte = 12;
// Blocks from this size up are mapped on their own (and unmapped when freed); the most
// mallopt allows on 64-bit.
constexpr int kMmapThreshold = 32 << 20;
// Less than that: the block made ready must come from the heap.
constexpr uint64_t kMaxPrepared = 24 << 20;

}  // namespace

uint64_t expected_heap(uint64_t methods, uint64_t pdb_bytes) {
  return std::min(kBaseHeap + methods * kHeapPerMethod + pdb_bytes * kHeapPerPdbByte, kMaxPrepared);
}

void keep_heap() {
  // Blocks up to 32 MiB come from the heap (the default maps each one over 128 KiB, or the
  // last size freed, and unmaps it on free: fresh pages, a fault each, for every big buffer),
  // and the heap's top is never given back during a run.
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  mallopt(M_TOP_PAD, 1 << 20);
}

void give_back_heap() { malloc_trim(0); }

bool ready_heap(uint64_t expected_bytes) {
  expected_bytes = std::min(expected_bytes, kMaxPrepared);
  if (expected_bytes == 0) return false;
  // One block as large as the expected heap, its pages made ready in one call, then freed to
  // the top of the thread's heap, where the job's allocations find them (keep_heap keeps them
  // there; without it a large block is mapped on its own and made ready for nothing).
  void* block = std::malloc(expected_bytes);
  if (!block) return false;
  const uintptr_t page = 4096;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + page - 1) & ~(page - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(block) + expected_bytes) & ~(page - 1);
  bool ready = end > begin && ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
  std::free(block);
  return ready;
}

}  // namespace cil::cli
