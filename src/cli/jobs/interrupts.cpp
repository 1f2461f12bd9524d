// Signal handlers that remove a named temporary output file, then die by the same signal.
#include "cli/jobs/interrupts.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <limits.h>
#include <unistd.h>

namespace cil::cli {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// The paths the handler may remove, one slot per writing thread (`instrument -j N` writes N
// outputs at once). The process owns its signals, so this state is global; the handler only
// reads it, and reads a slot's path only while the slot is armed.
struct Slot {
  char path[PATH_MAX + 1];
  volatile sig_atomic_t armed;
};
Slot g_slots[kMaxWritingThreads];
std::atomic<unsigned> g_next_slot{0};

extern "C" void remove_temp_and_die(int sig) {
  // Async-signal-safe only: unlink(), then the default action (restored by SA_RESETHAND, not
  // blocked thanks to SA_NODEFER) ends the process by `sig`.
  for (auto& slot : g_slots)
    if (slot.armed) ::unlink(slot.path);
  ::raise(sig);
  ::_exit(128 + sig);
}

/// This thread's slot (threads beyond the cap share the last one: their temporary files are then
/// left to the next run's sweep, as after SIGKILL).
Slot& my_slot() {
  thread_local unsigned index = std::min(g_next_slot.fetch_add(1), unsigned{kMaxWritingThreads - 1});
  return g_slots[index];
}

class SignalCleanup final : public TempNameObserver {
 public:
  void naming(const std::string& path) override {
    Slot& slot = my_slot();
    slot.armed = 0;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (path.size() >= sizeof slot.path) return;  // cannot be created anyway (ENAMETOOLONG)
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    slot.armed = 1;
  }
  void unnamed() override { my_slot().armed = 0; }
};

void install_handlers() {
  for (int sig : kSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_temp_and_die;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace

OutputOptions interruptible_output() {
  static SignalCleanup cleanup;
  static bool installed = false;
  if (!installed) {
    install_handlers();
    installed = true;
  }
  OutputOptions options;
  const char* scheme = std::getenv("CIL_INSTRUMENT_TEMPFILE");
  options.unnamed = !(scheme && std::strcmp(scheme, "named") == 0);
  options.observer = &cleanup;
  return options;
}

}  // namespace cil::cli
