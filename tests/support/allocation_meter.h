// Bytes allocated with operator new, so that tests of linear behaviour assert on work done
// (memory asked for) instead of the wall clock, which a loaded machine makes unreliable.
#pragma once

#include <cstddef>

namespace cil::testing {

/// Bytes this thread has asked for with operator new since it started (never decreases).
size_t allocated_bytes();

/// Bytes allocated by this thread while `work` runs.
template <class F>
size_t bytes_allocated_by(F&& work) {
  size_t before = allocated_bytes();
  work();
  return allocated_bytes() - before;
}

}  // namespace cil::testing
