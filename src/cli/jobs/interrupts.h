// Removing an output's temporary file when SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the tool.
#pragma once

#include "support/file_io.h"

namespace cil::cli {

/// Threads that may write outputs at once (the cap on `-j`).
inline constexpr unsigned kMaxWritingThreads = 64;

/// Options for an output this process writes: an unnamed temporary file (named when
/// CIL_INSTRUMENT_TEMPFILE=named), watched by handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT
/// that remove the file's temporary name, if it has one, and end the process by the same signal
/// (so its exit status still says "killed by signal"). The handlers are installed on the first
/// call (make the first call before starting threads); a signal that the tool was started with
/// ignored stays ignored. Each thread has its own watched name.
OutputOptions interruptible_output();

}  // namespace cil::cli
