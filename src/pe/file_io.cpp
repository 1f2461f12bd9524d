// File reading and atomic writing with POSIX calls, errors returned as values.
#include "pe/file_io.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace cil {

namespace {

Error io_error(const std::string& what, int err) {
  return make_error(ErrorKind::Io, "", fmt::format("{}: {}", what, std::strerror(err)));
}

}  // namespace

Expected<std::vector<uint8_t>> read_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return io_error("cannot stat", err);
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return io_error("cannot read", EISDIR);
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxInputSize) {
    ::close(fd);
    return make_error(ErrorKind::Limit, "", fmt::format("file is {} bytes, larger than the {} byte limit",
                                                        static_cast<uint64_t>(st.st_size), kMaxInputSize));
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return io_error("cannot read", err);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  bytes.resize(done);
  return bytes;
}

Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
  std::span<const uint8_t> one[] = {bytes};
  return write_file_atomic(path, one);
}

Status write_file_atomic(const std::string& path, std::span<const std::span<const uint8_t>> pieces) {
  std::string temp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return io_error(fmt::format("cannot create a temporary file for {}", path), errno);
  for (auto bytes : pieces) {
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return io_error(fmt::format("cannot write {}", path), err);
      }
      done += static_cast<size_t>(n);
    }
  }
  ::fchmod(fd, 0644);
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return io_error(fmt::format("cannot write {}", path), err);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return io_error(fmt::format("cannot rename the temporary file to {}", path), err);
  }
  return ok();
}

}  // namespace cil
