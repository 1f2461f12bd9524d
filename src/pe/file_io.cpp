// File reading and atomic writing with POSIX calls, errors returned as values.
#include "pe/file_io.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
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

Expected<MappedFile> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    ::close(fd);
    return make_error(ErrorKind::Io, "", "cannot map: not a non-empty regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxInputSize) {
    ::close(fd);
    return make_error(ErrorKind::Limit, "", fmt::format("file is {} bytes, larger than the {} byte limit",
                                                        static_cast<uint64_t>(st.st_size), kMaxInputSize));
  }
  void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) {
    int err = errno;
    ::close(fd);
    return io_error("cannot map", err);
  }
  MappedFile file;
  file.data_ = static_cast<const uint8_t*>(p);
  file.size_ = static_cast<size_t>(st.st_size);
  file.fd_ = fd;
  return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept : data_(other.data_), size_(other.size_), fd_(other.fd_) {
  other.data_ = nullptr;
  other.size_ = 0;
  other.fd_ = -1;
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    data_ = other.data_;
    size_ = other.size_;
    fd_ = other.fd_;
    other.data_ = nullptr;
    other.size_ = 0;
    other.fd_ = -1;
  }
  return *this;
}

MappedFile::~MappedFile() { release(); }

void MappedFile::release() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  fd_ = -1;
}

namespace {

Status write_all(int fd, std::span<const uint8_t> bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(fmt::format("cannot write {}", path), errno);
    }
    done += static_cast<size_t>(n);
  }
  return ok();
}

/// Copies a range of the source file inside the kernel; false when the kernel cannot (other
/// file systems, old kernels), in which case the caller writes the bytes instead.
bool copy_range(int from, uint64_t offset, int to, size_t length) {
  loff_t in = static_cast<loff_t>(offset);
  while (length > 0) {
    ssize_t n = ::copy_file_range(from, &in, to, nullptr, length, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    length -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
  std::span<const uint8_t> one[] = {bytes};
  return write_file_atomic(path, one);
}

Status write_file_atomic(const std::string& path, std::span<const std::span<const uint8_t>> pieces,
                         const CopySource& source) {
  std::string temp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return io_error(fmt::format("cannot create a temporary file for {}", path), errno);
  bool kernel_copy = source.fd >= 0;
  for (auto bytes : pieces) {
    const uint8_t* base = source.mapped.data();
    bool inside = kernel_copy && !bytes.empty() && bytes.data() >= base &&
                  bytes.data() + bytes.size() <= base + source.mapped.size();
    if (inside) {
      off_t before = ::lseek(fd, 0, SEEK_CUR);
      if (copy_range(source.fd, static_cast<uint64_t>(bytes.data() - base), fd, bytes.size())) continue;
      // The kernel copied part of it, or nothing: restart the piece with plain writes.
      kernel_copy = false;
      if (before < 0 || ::lseek(fd, before, SEEK_SET) < 0 || ::ftruncate(fd, before) != 0) {
        int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return io_error(fmt::format("cannot write {}", path), err);
      }
    }
    Status written = write_all(fd, bytes, path);
    if (!written) {
      ::close(fd);
      ::unlink(temp.c_str());
      return written;
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
