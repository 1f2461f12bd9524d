// SignalWriter: an async-signal-safe handler (save errno, record the siginfo, one byte into a
// non-blocking pipe), a thread that polls the pipe with the flush period as its timeout, and the
// hand-over to the previous disposition once the files are written.
#include "profiler/signal_writer.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <ucontext.h>
#include <unistd.h>

#include <fmt/format.h>

#include "profiler/attach_session.h"

namespace cil::profiler {

namespace {

constexpr size_t kCount = std::size(SignalWriter::kSignals);
/// How long after a handed-over signal a process that still runs is taken to live on.
constexpr int kSurviveSeconds = 3;

// Process-wide, as the dispositions are. Written before the handlers are installed, then only
// read (the siginfo slots are written by the handler, read by the thread after the byte arrives).
int g_pipe[2] = {-1, -1};
struct sigaction g_previous[kCount];
siginfo_t g_info[kCount];
std::atomic<bool> g_started{false};

std::mutex g_mutex;  ///< held while writing; guards g_write
SignalWriter::Write g_write;

int slot_of(int signal) {
  for (size_t i = 0; i < kCount; ++i)
    if (SignalWriter::kSignals[i] == signal) return static_cast<int>(i);
  return -1;
}

bool is_ignored(const struct sigaction& a) { return !(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_IGN; }
bool is_default(const struct sigaction& a) { return !(a.sa_flags & SA_SIGINFO) && a.sa_handler == SIG_DFL; }

// Async-signal-safe: memcpy of a plain struct, write(2) and errno only.
void on_signal(int signal, siginfo_t* info, void*) {
  int saved = errno;
  int slot = slot_of(signal);
  if (slot >= 0) {
    if (info) std::memcpy(&g_info[slot], info, sizeof(siginfo_t));
    else std::memset(&g_info[slot], 0, sizeof(siginfo_t));
    unsigned char byte = static_cast<unsigned char>(signal);
    // Non-blocking: a full pipe already holds a wake-up, and the handler never waits.
    ssize_t ignored = ::write(g_pipe[1], &byte, 1);
    (void)ignored;
  }
  errno = saved;
}

void write_files(int signal) {
  std::lock_guard lock(g_mutex);
  if (g_write) g_write(signal);
}

/// What the signal would have done without us: the disposition found at start. A handler is
/// called as the kernel would call it (the runtime's own, which ends the process by restoring
/// its previous disposition and sending the signal again); the default is restored and the
/// signal raised on this thread, which ends the process by it.
void hand_over(int signal) {
  int slot = slot_of(signal);
  const struct sigaction& previous = g_previous[slot];
  if (is_ignored(previous)) return;
  // The process may end by this signal, and then nothing else would remove the attach socket.
  remove_attach_socket();
  if (is_default(previous)) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(signal, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(signal);
    return;
  }
  siginfo_t info = g_info[slot];
  ucontext_t context;
  ::getcontext(&context);
  if (previous.sa_flags & SA_SIGINFO) previous.sa_sigaction(signal, &info, &context);
  else previous.sa_handler(signal);
  // The runtime's handler returns at once and ends the process from another thread, or not at
  // all when the program cancels the signal: a process still here a while later lives on, and
  // the next attach needs its socket.
  try {
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::seconds(kSurviveSeconds));
      restore_attach_socket();
    }).detach();
  } catch (...) {
  }
}

void run(unsigned period_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto period = std::chrono::seconds(period_seconds);
  auto next = Clock::now() + period;
  for (;;) {
    int timeout = -1;
    if (period_seconds) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
      timeout = static_cast<int>(std::max<long long>(0, std::min<long long>(left, 1LL << 30)));
    }
    pollfd p{g_pipe[0], POLLIN, 0};
    int ready = ::poll(&p, 1, timeout);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (ready == 0) {
      write_files(0);
      next = Clock::now() + period;
      continue;
    }
    unsigned char byte = 0;
    ssize_t got = ::read(g_pipe[0], &byte, 1);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return;
    int signal = byte;
    if (slot_of(signal) < 0) continue;
    write_files(signal);
    hand_over(signal);
  }
}

}  // namespace

Status SignalWriter::start(Write write, unsigned period_seconds) {
  if (g_started.exchange(true)) {
    // A profiler attached again to the process, after an earlier one stopped: the thread and the
    // handlers are there still (the library stays loaded), only the writer is new.
    std::lock_guard lock(g_mutex);
    if (g_write) return make_error(ErrorKind::Unsupported, "", "the signal writer runs already");
    g_write = std::move(write);
    return ok();
  }
  if (::pipe2(g_pipe, O_CLOEXEC) != 0)
    return make_error(ErrorKind::Io, "", fmt::format("cannot create the signal pipe: {}", std::strerror(errno)));
  ::fcntl(g_pipe[1], F_SETFL, ::fcntl(g_pipe[1], F_GETFL) | O_NONBLOCK);
  {
    std::lock_guard lock(g_mutex);
    g_write = std::move(write);
  }
  // The thread takes none of the signals (the handler may run on any thread; the thread itself
  // only unblocks a signal to end the process by it).
  sigset_t block, old;
  sigemptyset(&block);
  for (int s : kSignals) sigaddset(&block, s);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  try {
    std::thread(run, period_seconds).detach();
  } catch (const std::exception& e) {
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return make_error(ErrorKind::Io, "", fmt::format("cannot start the signal writer thread: {}", e.what()));
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  for (size_t i = 0; i < kCount; ++i) {
    struct sigaction current {};
    if (::sigaction(kSignals[i], nullptr, &current) != 0 || is_ignored(current)) continue;
    g_previous[i] = current;
    struct sigaction mine {};
    mine.sa_sigaction = on_signal;
    mine.sa_flags = SA_SIGINFO | SA_RESTART | (current.sa_flags & SA_ONSTACK);
    sigemptyset(&mine.sa_mask);
    ::sigaction(kSignals[i], &mine, nullptr);
  }
  return ok();
}

void SignalWriter::stop() {
  std::lock_guard lock(g_mutex);
  g_write = nullptr;
}

const char* SignalWriter::name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
  }
  return "signal";
}

}  // namespace cil::profiler
