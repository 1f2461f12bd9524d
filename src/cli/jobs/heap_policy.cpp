// The allocator's settings for a run that instruments (see heap_policy.h).
#include "cli/jobs/heap_policy.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace cil::cli {

namespace {

// Measured on twelve inputs (the framework's CoreLib, Linq, Collections, Text.Json, Net.Http
// and System.Runtime, Mono's mscorlib, System, System.Core and System.Xml, Mono.Cecil with its
// PDB, a test app), as the range of heap addresses a count run writes to: about 256 KB, plus
// 0.7 KB for each of the first 4,000 methods (the output's buffers grow up to their chunk
// sizes), plus 0.11 KB for each further method, plus a byte per byte of a portable PDB
// (bench/README.md, "Page faults"; Mono.Cecil's PDB takes 2.5 bytes a byte, a generated Debug
// assembly's much less, and more would lift coverage mode's peak past issue 15's bound). Guessing high costs less than guessing low: a page made
// ready and not used costs about a third of a page fault.
constexpr uint64_t kBaseHeap = 256 << 10;
constexpr uint64_t kFirstMethods = 4000;
constexpr uint64_t kHeapPerFirstMethod = 700;
constexpr uint64_t kHeapPerMethod = 110;
constexpr uint64_t kHeapPerPdbByte = 1;
// Blocks from this size up are mapped on their own (and unmapped when freed); the most
// mallopt allows on 64-bit.
constexpr int kMmapThreshold = 32 << 20;
// Less than that: the block made ready must come from the heap.
constexpr uint64_t kMaxPrepared = 24 << 20;

}  // namespace

uint64_t expected_heap(uint64_t methods, uint64_t pdb_bytes) {
  uint64_t first = std::min(methods, kFirstMethods);
  uint64_t bytes = kBaseHeap + first * kHeapPerFirstMethod + (methods - first) * kHeapPerMethod + pdb_bytes * kHeapPerPdbByte;
  return std::min(bytes, kMaxPrepared);
}

namespace {
std::atomic<bool> g_kept{false};
}  // namespace

void keep_heap() {
  g_kept = true;
  // Blocks up to 32 MiB come from the heap (the default maps each one over 128 KiB, or the
  // last size freed, and unmaps it on free: fresh pages, a fault each, for every big buffer),
  // and the heap's top is never given back during a run.
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  mallopt(M_TOP_PAD, 1 << 20);
}

void release_free_heap() {
  if (g_kept) malloc_trim(0);
}

bool ready_heap(uint64_t expected_bytes) {
  expected_bytes = std::min(expected_bytes, kMaxPrepared);
  if (expected_bytes == 0 || !g_kept) return false;
  // One block as large as the expected heap, its pages made ready in one call, then freed to
  // the top of the thread's heap, where the job's allocations find them (keep_heap keeps them
  // there; without it a large block is mapped on its own and made ready for nothing).
  void* block = std::malloc(expected_bytes);
  if (!block) return false;
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  uintptr_t begin = (reinterpret_cast<uintptr_t>(block) + page - 1) & ~(page - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(block) + expected_bytes) & ~(page - 1);
  bool ready = end > begin && ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
  std::free(block);
  return ready;
}

}  // namespace cil::cli
