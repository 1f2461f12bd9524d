// Short names for managed threads in the logs: T1, T2... in the order the profiler first sees
// them; "--" for a thread the runtime does not manage (a GC thread, for instance).
#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

#include "profiler/abi/corprof.h"

namespace cil::profiler {

class ThreadTags {
 public:
  explicit ThreadTags(cilprof::ICorProfilerInfo* info) : info_(info) {}
  /// The calling thread's tag.
  std::string current();
  /// The tag of a managed thread.
  std::string of(cilprof::ThreadID id);
  /// A destroyed thread's id may be reused: the next thread with it gets a new number.
  void forget(cilprof::ThreadID id);

 private:
  cilprof::ICorProfilerInfo* info_;
  std::mutex mutex_;
  std::unordered_map<cilprof::ThreadID, unsigned> numbers_;
  unsigned next_ = 1;
};

}  // namespace cil::profiler
