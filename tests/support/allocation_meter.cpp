// The unit tests' operator new and delete: malloc and free, counting the bytes asked for.
#include "support/allocation_meter.h"

#include <cstdlib>
#include <new>

namespace {
thread_local size_t g_allocated = 0;
}  // namespace

size_t cil::testing::allocated_bytes() { return g_allocated; }

void* operator new(std::size_t size) {
  g_allocated += size;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

// The nothrow forms too (std::stable_sort's temporary buffer uses them): otherwise the library's
// nothrow new would pair with this delete, an allocator mismatch that ASan reports.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  g_allocated += size;
  return std::malloc(size ? size : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
