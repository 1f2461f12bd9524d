// The diagnostics IPC client: the socket's path from /proc and the temporary directory, one
// request and one answer on a Unix domain socket.
#include "cli/jobs/diagnostics_ipc.h"

#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <signal.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <fmt/format.h>

#include "instrument/runtime_contract.h"
#include "support/process_start.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

constexpr char kMagic[14] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', '\0'};
constexpr size_t kHeaderSize = sizeof kMagic + 2 + 1 + 1 + 2;  // magic, size, command set, command, reserved
constexpr uint8_t kProfilerCommandSet = 0x03;
constexpr uint8_t kAttachProfiler = 0x01;
constexpr uint8_t kServerCommandSet = 0xFF;
constexpr uint8_t kServerOk = 0x00;
constexpr uint8_t kServerError = 0xFF;
/// How long the answer may take beyond the runtime's own attach timeout.
constexpr int kAnswerSlackMs = 5'000;

Error attach_error(std::string message) { return make_error(ErrorKind::Io, "", std::move(message)); }

void put16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xFF));
  out.push_back(static_cast<char>(v >> 8));
}
void put32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
uint32_t get32(const unsigned char* p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// A GUID's 16 bytes in memory order (Data1..3 little-endian, Data4 as written).
Expected<std::string> guid_bytes(std::string_view text) {
  if (text.size() == 38 && text.front() == '{' && text.back() == '}') text = text.substr(1, 36);
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-')
    return attach_error(fmt::format("'{}' is not a GUID", text));
  std::string hex;
  for (char c : text)
    if (c != '-') hex.push_back(c);
  unsigned char raw[16];
  for (size_t i = 0; i < 16; ++i) {
    int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return attach_error(fmt::format("'{}' is not a GUID", text));
    raw[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  std::string out;
  for (int i : {3, 2, 1, 0, 5, 4, 7, 6}) out.push_back(static_cast<char>(raw[i]));
  for (int i = 8; i < 16; ++i) out.push_back(static_cast<char>(raw[i]));
  return out;
}

/// The TMPDIR of process `pid`, or "/tmp" (the runtime's GetTempPath), with a trailing '/'.
std::string temp_dir_of(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/environ", pid), std::ios::binary);
  std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string dir = "/tmp/";
  size_t at = 0;
  while (at < env.size()) {
    size_t end = env.find('\0', at);
    if (end == std::string::npos) end = env.size();
    std::string_view item(env.data() + at, end - at);
    if (item.rfind("TMPDIR=", 0) == 0 && item.size() > 7) {
      dir = std::string(item.substr(7));
      if (dir.back() != '/') dir += '/';
    }
    at = end + 1;
  }
  return dir;
}

bool send_all(int fd, const std::string& bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

/// Reads exactly `size` bytes, waiting at most `timeout_ms` in all; false on an early end.
bool receive_all(int fd, unsigned char* out, size_t size, int timeout_ms) {
  size_t got = 0;
  while (got < size) {
    pollfd p{fd, POLLIN, 0};
    int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    ssize_t n = ::recv(fd, out + got, size - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<size_t>(n);
  }
  return true;
}

/// The runtime names its socket dotnet-diagnostic-PID-KEY-socket, KEY the process's start time in
/// clock ticks since boot (field 22 of /proc/PID/stat). A socket with the same PID and another KEY
/// was left by an earlier process that had the same id (a killed one does not remove it), and
/// nothing listens on it. Empty when the start time cannot be read.
std::string start_time_of(pid_t pid) {
  unsigned long long ticks = process_start_ticks(pid);
  return ticks ? std::to_string(ticks) : "";
}

}  // namespace

Expected<std::string> diagnostics_socket(pid_t pid) {
  if (pid <= 0) return attach_error(fmt::format("{} is not a process id", pid));
  struct stat proc {};
  if (::stat(fmt::format("/proc/{}", pid).c_str(), &proc) != 0) return attach_error(fmt::format("no process {}", pid));
  if (proc.st_uid != ::geteuid() && ::geteuid() != 0)
    return attach_error(fmt::format("process {} belongs to another user (uid {}): only its own user can attach", pid, proc.st_uid));
  std::string dir = temp_dir_of(pid);
  std::string prefix = fmt::format("dotnet-diagnostic-{}-", pid);
  std::string started = start_time_of(pid);
  std::string found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0 || name.size() < 7 || name.compare(name.size() - 7, 7, "-socket") != 0) continue;
    if (!started.empty()) {
      // Only this process's own: the others are earlier processes' with the same id.
      if (name == prefix + started + "-socket") found = it->path().string();
      continue;
    }
    // The start time unknown: the newest socket is the live one.
    if (found.empty() || fs::last_write_time(it->path(), ec) > fs::last_write_time(found, ec)) found = it->path().string();
  }
  if (found.empty())
    return attach_error(fmt::format("process {} has no .NET diagnostics socket in {} (not a .NET process, or started with "
                                    "DOTNET_EnableDiagnostics=0)", pid, dir));
  return found;
}

Expected<std::string> attach_message(const AttachRequest& request) {
  std::string payload;
  put32(payload, request.timeout_ms);
  payload += CIL_TRY(guid_bytes(request.clsid));
  // string: a count of UTF-16 code units with the terminating NUL, then the units.
  put32(payload, static_cast<uint32_t>(request.library.size() + 1));
  for (unsigned char c : request.library) {
    if (c >= 0x80) return attach_error(fmt::format("the profiler's path '{}' is not ASCII", request.library));
    put16(payload, c);
  }
  put16(payload, 0);
  put32(payload, static_cast<uint32_t>(request.client_data.size()));
  payload += request.client_data;
  size_t total = kHeaderSize + payload.size();
  if (total > 0xFFFF) return attach_error("the attach request is longer than the protocol's 65535 bytes");
  std::string message(kMagic, sizeof kMagic);
  put16(message, static_cast<uint16_t>(total));
  message.push_back(static_cast<char>(kProfilerCommandSet));
  message.push_back(static_cast<char>(kAttachProfiler));
  put16(message, 0);
  return message + payload;
}

Expected<uint32_t> attach_profiler(const std::string& socket_path, const AttachRequest& request) {
  std::string message = CIL_TRY(attach_message(request));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof address.sun_path)
    return attach_error(fmt::format("the socket path '{}' is too long", socket_path));
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return attach_error(fmt::format("cannot create a socket: {}", std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    return attach_error(fmt::format("cannot connect to {}: {} (the process may have ended)", socket_path, std::strerror(errno)));
  if (!send_all(fd, message)) return attach_error(fmt::format("cannot send the attach request: {}", std::strerror(errno)));
  unsigned char header[kHeaderSize];
  int wait_ms = static_cast<int>(request.timeout_ms) + kAnswerSlackMs;
  if (!receive_all(fd, header, sizeof header, wait_ms))
    return attach_error("the runtime did not answer the attach request (the process may have ended)");
  if (std::memcmp(header, kMagic, sizeof kMagic) != 0) return attach_error("the answer is not a diagnostics IPC message");
  uint16_t size = static_cast<uint16_t>(header[14] | header[15] << 8);
  uint8_t set = header[16], command = header[17];
  if (set != kServerCommandSet || (command != kServerOk && command != kServerError) || size < kHeaderSize + 4)
    return attach_error(fmt::format("unexpected answer (command set 0x{:02X}, command 0x{:02X}, {} bytes)", set, command, size));
  unsigned char result[4];
  if (!receive_all(fd, result, sizeof result, wait_ms)) return attach_error("the runtime's answer ends early");
  return get32(result);
}

namespace {

/// A connected Unix socket, or -1 (errno set).
int connect_unix(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

}  // namespace

size_t remove_stale_agent_sockets(const std::string& dir) {
  std::error_code ec;
  size_t removed = 0;
  const std::string prefix(contract::kAgentSocketPrefix), suffix(contract::kAgentSocketSuffix);
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) continue;
    std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.empty() || digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    auto pid = static_cast<pid_t>(std::strtol(digits.c_str(), nullptr, 10));
    std::string path = it->path().string();
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != ::geteuid()) continue;
    // Stale only when nobody listens and its maker is gone: the pid is free, or taken by a
    // process started after the socket was made (a process between bind and listen is not
    // listening yet either, but it is alive and older than its socket).
    int fd = connect_unix(path);
    if (fd >= 0) {
      ::close(fd);
      continue;
    }
    if (errno != ECONNREFUSED) continue;
    bool gone = ::kill(pid, 0) != 0 && errno == ESRCH;
    if (!gone) {
      double started = process_start_epoch(pid);
      gone = started > 0 && started > static_cast<double>(st.st_ctime) + 1;
    }
    if (gone && ::unlink(path.c_str()) == 0) ++removed;
  }
  return removed;
}

std::string agent_socket(pid_t pid) {
  std::string dir = temp_dir_of(pid);
  remove_stale_agent_sockets(dir);
  std::string path = contract::agent_socket_path(dir, pid);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISSOCK(st.st_mode)) return "";
  // A socket left by a process that had this pid before: nobody listens.
  int fd = connect_unix(path);
  if (fd < 0) return "";
  ::close(fd);
  return path;
}

Expected<std::string> attach_agent(const std::string& socket_path, const std::string& client_data) {
  int fd = connect_unix(socket_path);
  if (fd < 0) return attach_error(fmt::format("cannot connect to {}: {}", socket_path, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  std::string request;
  put32(request, static_cast<uint32_t>(client_data.size()));
  request += client_data;
  if (!send_all(fd, request)) return attach_error(fmt::format("cannot send the attach request: {}", std::strerror(errno)));
  unsigned char size[4];
  if (!receive_all(fd, size, 4, kAnswerSlackMs * 2)) return attach_error("the loaded profiler did not answer (the process may have ended)");
  uint32_t length = get32(size);
  if (length > 4096) return attach_error("the loaded profiler's answer is malformed");
  std::string text(length, '\0');
  if (length && !receive_all(fd, reinterpret_cast<unsigned char*>(text.data()), length, kAnswerSlackMs * 2))
    return attach_error("the loaded profiler's answer ends early");
  return text == "ok" ? std::string() : text;
}

std::string attach_result_text(uint32_t hresult) {
  switch (hresult) {
    case 0: return "attached";
    case 0x8013136Au: return "another profiler is loaded in the process (one started with it, such as under cil-instrument run, or another tool's)";
    case 0x80131375u: return "the profiler declined to load; its reason is on the process's standard error";
    case 0x80131385u: return "the runtime does not know the attach command (.NET Core 3.0 or later is needed)";
    case 0x80131515u: return "the runtime does not support profiler attach";
    case 0x80131384u: return "the runtime could not read the request";
  }
  return "the runtime refused the attach";
}

}  // namespace cil::cli
