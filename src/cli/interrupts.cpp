// Signal handlers that remove a named temporary output file, then die by the same signal.
#include "cli/interrupts.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include <limits.h>
#include <unistd.h>

namespace cil::cli {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// The one path the handler may remove. The process owns its signals, so this state is global;
// the handler only reads it, and reads the path only while it is armed.
char g_temp_path[PATH_MAX + 1];
volatile sig_atomic_t g_armed = 0;

extern "C" void remove_temp_and_die(int sig) {
  // Async-signal-safe only: unlink(), then the default action (restored by SA_RESETHAND, not
  // blocked thanks to SA_NODEFER) ends the process by `sig`.
  if (g_armed) ::unlink(g_temp_path);
  ::raise(sig);
  ::_exit(128 + sig);
}

class SignalCleanup final : public TempNameObserver {
 public:
  void naming(const std::string& path) override {
    g_armed = 0;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (path.size() >= sizeof g_temp_path) return;  // cannot be created anyway (ENAMETOOLONG)
    std::memcpy(g_temp_path, path.c_str(), path.size() + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    g_armed = 1;
  }
  void unnamed() override { g_armed = 0; }
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
