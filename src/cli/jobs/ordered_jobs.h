// Running N independent jobs on a few threads, handing their results back in job order.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace cil::cli {

/// What a job leaves for the caller to print.
struct JobResult {
  std::string out;   ///< for stdout
  std::string err;   ///< for stderr (diagnostic lines)
  int exit = 0;      ///< 0, or the ExitCode of a failure
  bool done = false; ///< set by the runner
};

struct OrderedRun {
  size_t jobs_run = 0;     ///< jobs that ran (fewer than asked when stopped by a failure)
  int first_failure = 0;   ///< exit code of the first failed job in job order, or 0
};

/// Runs `work(i)` for i in [0, count) on `threads` threads and calls `emit(i, result)` in the
/// main thread in order of i, each as soon as it and every job before it are done, so messages
/// come in input order whatever the completion order. With `fail_fast`, no job starts after one
/// has failed (a non-zero exit); jobs already started finish and are emitted. `progress(done)`
/// is called in the main thread after each completion.
OrderedRun run_ordered(size_t count, unsigned threads, bool fail_fast, const std::function<JobResult(size_t)>& work,
                       const std::function<void(size_t, const JobResult&)>& emit,
                       const std::function<void(size_t done)>& progress = {});

}  // namespace cil::cli
