// A profiler attached to a running process (`cil-instrument attach`): its settings, read from the
// attach request's client data, and the session's end conditions and marker files. The session
// itself (ReJIT in, wait, revert, write, detach) runs in ProfilerBase on a thread of its own.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>

#include "profiler/config.h"
#include "support/error.h"

namespace cil::profiler {

struct AttachSettings {
  std::string tag;            ///< in every file name of the session
  pid_t client = 0;           ///< the attaching process; 0: none to watch
  uint64_t milliseconds = 0;  ///< the session's length; 0: until stopped
};

/// The configuration and session settings of the client data (`NAME=VALUE` lines, see
/// instrument/runtime_contract.h). Errors are the one line the profiler prints when it declines.
Expected<std::pair<Config, AttachSettings>> read_attach_data(std::string_view data);

/// A profiler left loaded after its session (see instrument/runtime_contract.h, kAgentSocketPrefix)
/// listens for the next attach on its own socket. `handle` gets the client data and returns ""
/// to accept, or the reason it refuses; it runs on the listener's thread. Once per process.
using AttachHandler = std::function<std::string(std::string_view data)>;
Status listen_for_attach(AttachHandler handle);

/// Removes the socket listen_for_attach made, if it is still there and still this process's, so
/// that no stale socket outlives the process. Async-signal-safe (lstat and unlink only); once.
void remove_attach_socket();
/// Makes the socket again after remove_attach_socket() if the process lives on (a signal it
/// removed the socket for was handled without ending the process). Not for a signal handler.
void restore_attach_socket();


/// Why a session ends.
/// Failed: the mode ended it (trace mode: the hooks could not be loaded).
enum class SessionEnd { Running, Elapsed, Stopped, ClientGone, Failed };
const char* session_end_name(SessionEnd end);

/// The end conditions of one session, polled by its thread.
class SessionWatch {
 public:
  SessionWatch(const AttachSettings& settings, std::string stop_file);
  /// Running while the time is not up, the stop file is absent and the client lives.
  SessionEnd poll() const;

 private:
  std::chrono::steady_clock::time_point deadline_;
  bool timed_ = false;
  pid_t client_ = 0;
  unsigned long long client_start_ = 0;  ///< the client's start time (a reused pid is another process)
  std::string stop_file_;
};

}  // namespace cil::profiler
