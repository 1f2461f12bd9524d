// The profiler's files on the endings that skip Shutdown: SIGTERM, SIGINT and SIGQUIT (which .NET
// 10 lets end the process without ProcessExit or a Shutdown callback), and a periodic write for
// those that cannot be caught (SIGKILL). The signal handler only wakes a writer thread; the thread
// writes, then hands the signal to the disposition it found, so the process ends as it would have.
#pragma once

#include <csignal>
#include <functional>
#include <mutex>

#include "support/error.h"

namespace cil::profiler {

/// One per process (signal dispositions are process-wide). Thread-safe.
class SignalWriter {
 public:
  /// What the writer is asked to do: `signal` is the signal number, or 0 for a periodic write.
  using Write = std::function<void(int signal)>;

  /// The signals it handles (a signal ignored when the profiler starts stays ignored).
  static constexpr int kSignals[] = {SIGTERM, SIGINT, SIGQUIT};

  /// Starts the writer thread and installs the handlers. `period_seconds` > 0 also writes every
  /// that many seconds. Fails (nothing installed) when the pipe or the thread cannot be created,
  /// or when it runs already. Started again after stop() (a second attach), it takes the new
  /// writer and keeps the first start's period.
  static Status start(Write write, unsigned period_seconds);
  /// No write after this returns (a write under way is waited for); a signal still ends the
  /// process as it would have. For Shutdown, after which the profiler may be destroyed.
  static void stop();

  /// The name of one of kSignals ("SIGTERM"), or "signal".
  static const char* name(int signal);
};

}  // namespace cil::profiler
