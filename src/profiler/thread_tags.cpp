// Thread numbering.
#include "profiler/thread_tags.h"

#include <fmt/format.h>

namespace cil::profiler {

std::string ThreadTags::current() {
  cilprof::ThreadID id = 0;
  if (cilprof::FAILED(info_->GetCurrentThreadID(&id)) || !id) return "--";
  return of(id);
}

std::string ThreadTags::of(cilprof::ThreadID id) {
  std::lock_guard lock(mutex_);
  auto [it, added] = numbers_.try_emplace(id, next_);
  if (added) ++next_;
  return fmt::format("T{}", it->second);
}

void ThreadTags::forget(cilprof::ThreadID id) {
  std::lock_guard lock(mutex_);
  numbers_.erase(id);
}

}  // namespace cil::profiler
