// A fixed pool of threads that claim job indexes in order; the main thread emits results in order.
#include "cli/jobs/ordered_jobs.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace cil::cli {

OrderedRun run_ordered(size_t count, unsigned threads, bool fail_fast, const std::function<JobResult(size_t)>& work,
                       const std::function<void(size_t, const JobResult&)>& emit,
                       const std::function<void(size_t done)>& progress) {
  std::vector<JobResult> results(count);
  std::mutex mutex;
  std::condition_variable changed;
  size_t next = 0;       // the next index to claim
  size_t completed = 0;  // jobs finished
  bool stop = false;     // fail_fast saw a failure: claim no more
  auto worker = [&] {
    for (;;) {
      size_t index;
      {
        std::lock_guard lock(mutex);
        if (stop || next >= count) return;
        index = next++;
      }
      JobResult result = work(index);
      std::lock_guard lock(mutex);
      if (fail_fast && result.exit != 0) stop = true;
      result.done = true;
      results[index] = std::move(result);
      ++completed;
      changed.notify_all();
    }
  };
  threads = static_cast<unsigned>(std::clamp<size_t>(threads, 1, std::max<size_t>(count, 1)));
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);

  OrderedRun run;
  size_t reported = 0;
  for (size_t i = 0; i < count; ++i) {
    std::unique_lock lock(mutex);
    for (;;) {
      if (progress && completed != reported) {
        reported = completed;
        lock.unlock();
        progress(reported);
        lock.lock();
        continue;
      }
      if (results[i].done || (stop && i >= next)) break;
      changed.wait(lock);
    }
    if (!results[i].done) break;  // never claimed: the run stopped before it
    JobResult result = std::move(results[i]);
    lock.unlock();
    ++run.jobs_run;
    if (result.exit != 0 && run.first_failure == 0) run.first_failure = result.exit;
    emit(i, result);
  }
  for (auto& thread : pool) thread.join();
  return run;
}

}  // namespace cil::cli
