// The allocator's settings for a run that instruments: memory kept and reused, made ready at once.
#pragma once

#include <cstdint>

namespace cil::cli {

/// Sets the C allocator for a process that instruments: blocks of any size up to 32 MiB come
/// from the heap, and freed memory is kept for the next allocation instead of being unmapped
/// and faulted in again page by page. For a process that exits when its instrumenting is done
/// (not `exec`, which waits for its command: the threads' heaps would keep their memory), before
/// its threads start; the libraries never call it. See bench/README.md, "Page faults".
void keep_heap();

/// Gives the heap's free pages back to the system (malloc_trim): between a job's writing and its
/// self-check, whose mappings of the output would otherwise add to the memory the writing kept.
void release_free_heap();

/// Makes `bytes` of the calling thread's heap ready at once (one madvise instead of a page
/// fault per page as they are first written), for the allocations that follow. Only after
/// keep_heap (otherwise the block would be mapped on its own and unmapped when freed). Advice
/// only: false when nothing was made ready (0 bytes, no keep_heap, no memory, or a kernel before
/// 5.14), and the pages then come in as they are first written.
bool ready_heap(uint64_t bytes);

/// The heap one instrumenting job is expected to touch for an input of `methods` method
/// definitions with a PDB of `pdb_bytes` (0 when none).
uint64_t expected_heap(uint64_t methods, uint64_t pdb_bytes);

}  // namespace cil::cli
