// Client data in, Config out; the end conditions of an attach session.
#include "profiler/attach_session.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <iterator>
#include <map>

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <fmt/format.h>

#include "instrument/runtime_contract.h"
#include "support/process_start.h"

namespace cil::profiler {

namespace {

Error data_error(std::string message) { return make_error(ErrorKind::Usage, "", "attach: " + std::move(message)); }

}  // namespace

Expected<std::pair<Config, AttachSettings>> read_attach_data(std::string_view data) {
  std::map<std::string, std::string, std::less<>> values;
  while (!data.empty()) {
    size_t end = data.find('\n');
    std::string_view line = data.substr(0, end);
    data.remove_prefix(end == std::string_view::npos ? data.size() : end + 1);
    if (line.empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) return data_error(fmt::format("client data line without a name: '{}'", line));
    values[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
  }
  auto lookup = [&](const char* name) -> const char* {
    auto it = values.find(std::string_view(name));
    return it == values.end() ? nullptr : it->second.c_str();
  };
  // No working directory to fall back on: the client always names the output directory.
  Config config = CIL_TRY(read_config(lookup, ""));
  AttachSettings settings;
  const char* tag = lookup(contract::kAttachSession);
  if (!tag || !*tag) return data_error(fmt::format("{} is missing", contract::kAttachSession));
  settings.tag = tag;
  for (char c : settings.tag)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
      return data_error(fmt::format("{} '{}' has characters other than letters, digits, '-' and '_'", contract::kAttachSession, settings.tag));
  uint64_t number = 0;
  if (const char* client = lookup(contract::kAttachClient)) {
    if (!parse_decimal(client, number) || number > 0x7FFFFFFF) return data_error(fmt::format("{} '{}' is not a process id", contract::kAttachClient, client));
    settings.client = static_cast<pid_t>(number);
  }
  if (const char* ms = lookup(contract::kAttachMilliseconds)) {
    if (!parse_decimal(ms, number)) return data_error(fmt::format("{} '{}' is not a number of milliseconds", contract::kAttachMilliseconds, ms));
    settings.milliseconds = number;
  }
  return std::pair{std::move(config), std::move(settings)};
}

namespace {

bool read_exact(int fd, void* out, size_t size) {
  auto* p = static_cast<char*>(out);
  while (size) {
    ssize_t n = ::recv(fd, p, size, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void answer(int fd, const std::string& text) {
  uint32_t size = static_cast<uint32_t>(text.size());
  std::string bytes(reinterpret_cast<const char*>(&size), 4);
  bytes += text;
  ssize_t ignored = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  (void)ignored;
}

// The socket this process made, for its removal when the process ends (from a signal path too:
// only lstat and unlink, on storage written once before the socket exists).
char g_socket_path[sizeof(sockaddr_un::sun_path)] = {};
dev_t g_socket_dev = 0;
ino_t g_socket_inode = 0;
std::atomic<bool> g_socket_made{false};

void remove_at_exit() { remove_attach_socket(); }

void serve(int listener, AttachHandler handle) {
  for (;;) {
    int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      ::close(listener);  // shut down by restore_attach_socket, or unusable
      return;
    }
    // Only this user's processes may ask (the socket's permissions say the same).
    ucred peer{};
    socklen_t length = sizeof peer;
    uint32_t size = 0;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || (peer.uid != ::geteuid() && peer.uid != 0)) {
      answer(fd, "refused: another user");
    } else if (!read_exact(fd, &size, 4) || size > 65536) {
      answer(fd, "refused: malformed request");
    } else {
      std::string data(size, '\0');
      if (!read_exact(fd, data.data(), size)) answer(fd, "refused: malformed request");
      else {
        std::string refusal;
        try {
          refusal = handle(data);
        } catch (const std::exception& e) {
          refusal = e.what();
        }
        answer(fd, refusal.empty() ? "ok" : refusal);
      }
    }
    ::close(fd);
  }
}

}  // namespace

namespace {

// The listener's handler and descriptor, to make the socket again after a signal that removed it
// did not end the process (restore_attach_socket).
std::mutex g_listener_mutex;
AttachHandler g_handler;
int g_listen_fd = -1;

Status start_listener() {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? std::string(tmp) : std::string("/tmp");
  if (dir.back() != '/') dir += '/';
  std::string path = contract::agent_socket_path(dir, static_cast<int>(::getpid()));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) return make_error(ErrorKind::Io, "", fmt::format("socket path '{}' is too long", path));
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error(ErrorKind::Io, "", fmt::format("cannot create a socket: {}", std::strerror(errno)));
  ::unlink(path.c_str());  // a dead process's, with this pid
  mode_t old = ::umask(0077);
  int bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::umask(old);
  if (bound != 0 || ::listen(fd, 4) != 0) {
    int error = errno;
    ::close(fd);
    return make_error(ErrorKind::Io, "", fmt::format("cannot listen on {}: {}", path, std::strerror(error)));
  }
  // Removed when the process ends: at Shutdown, at exit() (a runtime that ends without Shutdown),
  // before a signal ends it (SignalWriter). A SIGKILL leaves it; `attach` removes such stale ones.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    std::memcpy(g_socket_path, path.c_str(), path.size() + 1);
    g_socket_dev = st.st_dev;
    g_socket_inode = st.st_ino;
    g_socket_made = true;
    static std::once_flag at_exit;
    std::call_once(at_exit, [] { std::atexit(remove_at_exit); });
  }
  try {
    std::thread(serve, fd, g_handler).detach();
  } catch (const std::exception& e) {
    ::close(fd);
    remove_attach_socket();
    return make_error(ErrorKind::Io, "", fmt::format("cannot start the listener thread: {}", e.what()));
  }
  g_listen_fd = fd;
  return ok();
}

}  // namespace

Status listen_for_attach(AttachHandler handle) {
  static std::atomic<bool> listening{false};
  if (listening.exchange(true)) return ok();
  std::lock_guard lock(g_listener_mutex);
  g_handler = std::move(handle);
  return start_listener();
}

void restore_attach_socket() {
  std::lock_guard lock(g_listener_mutex);
  if (g_socket_made || g_listen_fd < 0) return;  // there, or never made
  // The old listener's name is gone: its accept() is ended (the thread closes it) and a new
  // socket takes the name.
  ::shutdown(g_listen_fd, SHUT_RDWR);
  g_listen_fd = -1;
  (void)start_listener();
}

void remove_attach_socket() {
  if (!g_socket_made.exchange(false)) return;
  // Only while the name is still this process's socket (not another's made since with our pid).
  struct stat st {};
  if (::lstat(g_socket_path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == g_socket_dev && st.st_ino == g_socket_inode)
    ::unlink(g_socket_path);
}

const char* session_end_name(SessionEnd end) {
  switch (end) {
    case SessionEnd::Running: return "running";
    case SessionEnd::Elapsed: return "elapsed";
    case SessionEnd::Stopped: return "stopped";
    case SessionEnd::ClientGone: return "client-gone";
    case SessionEnd::Failed: return "failed";
  }
  return "?";
}

SessionWatch::SessionWatch(const AttachSettings& settings, std::string stop_file)
    : deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(settings.milliseconds)),
      timed_(settings.milliseconds != 0),
      client_(settings.client),
      client_start_(settings.client ? process_start_ticks(settings.client) : 0),
      stop_file_(std::move(stop_file)) {}

SessionEnd SessionWatch::poll() const {
  if (::access(stop_file_.c_str(), F_OK) == 0) return SessionEnd::Stopped;
  if (timed_ && std::chrono::steady_clock::now() >= deadline_) return SessionEnd::Elapsed;
  if (client_ > 0) {
    if (::kill(client_, 0) != 0 && errno == ESRCH) return SessionEnd::ClientGone;
    if (client_start_ && process_start_ticks(client_) != client_start_) return SessionEnd::ClientGone;
  }
  return SessionEnd::Running;
}

}  // namespace cil::profiler
