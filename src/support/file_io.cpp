// File reading and atomic writing with POSIX calls, errors returned as values.
#include "support/file_io.h"

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

/// Writes all of `bytes` at `offset`; 0, or the errno of the failure.
int write_all_at(int fd, uint64_t offset, std::span<const uint8_t> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

/// Copies a range of the source file inside the kernel; false when the kernel cannot (other
/// file systems, old kernels), in which case the caller writes the bytes instead.
bool copy_range(int from, uint64_t offset, int to, uint64_t to_offset, size_t length) {
  loff_t in = static_cast<loff_t>(offset);
  loff_t out = static_cast<loff_t>(to_offset);
  while (length > 0) {
    ssize_t n = ::copy_file_range(from, &in, to, &out, length, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    length -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

OutputFile::~OutputFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
  }
}

Status OutputFile::fail(const std::string& what, int err) {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
    fd_ = -1;
  }
  return io_error(what, err);
}

Status OutputFile::open() {
  if (fd_ >= 0) return ok();
  temp_ = path_ + ".tmp-XXXXXX";
  fd_ = ::mkstemp(temp_.data());
  if (fd_ < 0) return io_error("cannot create a temporary file beside it", errno);
  return ok();
}

Status OutputFile::write_at(uint64_t offset, std::span<const uint8_t> bytes) {
  CIL_TRY(open());
  if (int err = write_all_at(fd_, offset, bytes)) return fail("cannot write", err);
  return ok();
}

Status OutputFile::write_pieces(std::span<const FilePiece> pieces, const CopySource& source) {
  CIL_TRY(open());
  uint64_t at = 0;
  for (const auto& piece : pieces) {
    if (piece.in_place) {
      at += piece.in_place;
      continue;
    }
    auto bytes = piece.bytes;
    const uint8_t* base = source.mapped.data();
    bool inside = kernel_copy_ && source.fd >= 0 && !bytes.empty() && bytes.data() >= base &&
                  bytes.data() + bytes.size() <= base + source.mapped.size();
    // When the kernel cannot copy (or copies part), the piece is written again with pwrite,
    // over whatever it wrote, and later pieces go through user space too.
    if (inside && copy_range(source.fd, static_cast<uint64_t>(bytes.data() - base), fd_, at, bytes.size())) {
      at += bytes.size();
      continue;
    }
    if (inside) kernel_copy_ = false;
    if (int err = write_all_at(fd_, at, bytes)) return fail("cannot write", err);
    at += bytes.size();
  }
  // Pieces in place past the last written byte still count towards the length.
  if (::ftruncate(fd_, static_cast<off_t>(at)) != 0) return fail("cannot write", errno);
  return ok();
}

Status OutputFile::commit() {
  CIL_TRY(open());
  ::fchmod(fd_, 0644);
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(temp_.c_str());
    return io_error("cannot write", err);
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    ::unlink(temp_.c_str());
    return io_error("cannot rename the temporary file into place", err);
  }
  return ok();
}

Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
  OutputFile file(path);
  FilePiece one[] = {{bytes}};
  CIL_TRY(file.write_pieces(one));
  return file.commit();
}

}  // namespace cil
