// File reading and atomic writing with POSIX calls (O_TMPFILE and linkat where they work), errors returned as values.
#include "support/file_io.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <fmt/format.h>

namespace cil {

namespace {

Error io_error(const std::string& what, int err) {
  return make_error(ErrorKind::Io, "", fmt::format("{}: {}", what, std::strerror(err)));
}

}  // namespace

namespace {

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "of an unknown type";
}

Error not_regular(mode_t mode) {
  return make_error(ErrorKind::Io, "", fmt::format("not a regular file ({})", file_type_name(mode)));
}

Error too_large(uint64_t size, uint64_t limit = kMaxInputSize) {
  return make_error(ErrorKind::Limit, "", fmt::format("file is {} bytes, larger than the {} byte limit", size, limit));
}

/// Opens a regular file for reading, its status in `st`. The type is checked before open(),
/// which blocks on a FIFO until a writer comes and may act on a device; O_NONBLOCK covers a path
/// replaced by a FIFO in between, and fstat() then refuses it.
Expected<int> open_regular(const std::string& path, struct stat& st) {
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot open", errno);
  if (!S_ISREG(st.st_mode)) return not_regular(st.st_mode);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return io_error("cannot open", errno);
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return io_error("cannot stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return not_regular(st.st_mode);
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace

Expected<std::vector<uint8_t>> read_file(const std::string& path, uint64_t max_size) {
  struct stat st {};
  int fd = CIL_TRY(open_regular(path, st));
  if (static_cast<uint64_t>(st.st_size) > max_size) {
    ::close(fd);
    return too_large(static_cast<uint64_t>(st.st_size), max_size);
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
  struct stat st {};
  int fd = CIL_TRY(open_regular(path, st));
  if (st.st_size <= 0) {
    ::close(fd);
    return make_error(ErrorKind::Io, "", "cannot map: the file is empty");
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxInputSize) {
    ::close(fd);
    return too_large(static_cast<uint64_t>(st.st_size));
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

namespace {

/// MADV_DONTNEED on the whole pages of `part`, which must lie in a file mapping (private and
/// read-only, or shared): such pages are read again from the file when next touched. Never for
/// anonymous memory, whose pages would come back zeroed. Advice only: a failure changes nothing.
void drop_file_pages(std::span<const uint8_t> part) {
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  auto begin = reinterpret_cast<uintptr_t>(part.data());
  uintptr_t end = begin + part.size();
  begin = (begin + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

}  // namespace

void MappedFile::release_pages() const {
  if (data_) drop_file_pages({data_, size_});
}

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

/// Writes every byte of `parts` from `offset` on (pwritev, continued after a short write).
int write_all_at(int fd, uint64_t offset, std::vector<struct iovec>& parts) {
  size_t first = 0;
  while (first < parts.size()) {
    int count = static_cast<int>(std::min<size_t>(parts.size() - first, IOV_MAX));
    ssize_t n = ::pwritev(fd, parts.data() + first, count, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    offset += static_cast<uint64_t>(n);
    for (auto left = static_cast<size_t>(n); left > 0 && first < parts.size();) {
      size_t take = std::min(left, parts[first].iov_len);
      parts[first].iov_base = static_cast<uint8_t*>(parts[first].iov_base) + take;
      parts[first].iov_len -= take;
      left -= take;
      if (parts[first].iov_len == 0) ++first;
    }
    while (first < parts.size() && parts[first].iov_len == 0) ++first;
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

constexpr size_t kRandomChars = 6;
constexpr int kNameAttempts = 100;

/// `.cil-instrument-XXXXXX.tmp` with six random letters and digits.
std::string temp_name() {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  uint8_t random[kRandomChars] = {};
  if (::getrandom(random, sizeof random, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof random)) {
    // No entropy yet (early boot): the clock and the process id still make clashes rare, and a
    // clash only costs another attempt (O_EXCL, EEXIST).
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    uint64_t x = static_cast<uint64_t>(now.tv_nsec) * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(::getpid()) << 20 ^
                 static_cast<uint64_t>(now.tv_sec);
    for (auto& r : random) {
      r = static_cast<uint8_t>(x);
      x = x >> 8 | x << 56;
    }
  }
  std::string name(kTempPrefix);
  for (uint8_t r : random) name += kChars[r % (sizeof kChars - 1)];
  name += kTempSuffix;
  return name;
}

bool is_temp_name(std::string_view name) {
  if (name.size() != kTempPrefix.size() + kRandomChars + kTempSuffix.size()) return false;
  if (name.substr(0, kTempPrefix.size()) != kTempPrefix || name.substr(name.size() - kTempSuffix.size()) != kTempSuffix) return false;
  for (char c : name.substr(kTempPrefix.size(), kRandomChars))
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

bool same_inode(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

/// The writer of a temporary file holds an exclusive lock on it as long as it lives; a file
/// system without locks (ENOLCK, EOPNOTSUPP) just goes without (its files are never proven
/// stale). False when another process holds the lock.
bool lock_file(int fd) { return ::flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK; }

Error destination_refused(mode_t mode) {
  if (S_ISLNK(mode))
    return make_error(ErrorKind::Io, "", "is a symbolic link: refused rather than replaced (give the path of the file it points to)");
  return make_error(ErrorKind::Io, "", fmt::format("exists and is not a regular file ({}): refused rather than replaced",
                                                   file_type_name(mode)));
}

}  // namespace

size_t remove_stale_temporaries(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  int dfd = ::dirfd(d);
  size_t removed = 0;
  while (const dirent* e = ::readdir(d)) {
    if (!is_temp_name(e->d_name)) continue;
    int fd = ::openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) continue;
    // Ours (a regular file of this user, by our naming) and stale (nobody holds its lock): its
    // writer was killed before it could remove it. The name must still be that file.
    struct stat by_fd {}, by_name {};
    if (::fstat(fd, &by_fd) == 0 && S_ISREG(by_fd.st_mode) && by_fd.st_uid == ::geteuid() &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::fstatat(dfd, e->d_name, &by_name, AT_SYMLINK_NOFOLLOW) == 0 &&
        same_inode(by_fd, by_name) && ::unlinkat(dfd, e->d_name, 0) == 0)
      ++removed;
    ::close(fd);
  }
  ::closedir(d);
  return removed;
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::discard() {
  if (fd_ < 0) return;
  // Unlinked while the lock is held, so no sweep of stale files can mistake it for one.
  if (named_) {
    ::unlink(temp_.c_str());
    if (options_.observer) options_.observer->unnamed();
  }
  ::close(fd_);
  fd_ = -1;
}

Status OutputFile::fail(const std::string& what, int err) {
  discard();
  return io_error(what, err);
}

Status OutputFile::check_destination(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return ok();  // absent: creating it says why not
  return destination_refused(st.st_mode);
}

Status OutputFile::open() {
  if (fd_ >= 0) return ok();
  std::string prefix = slash_prefix();
  std::string dir = prefix.empty() ? "." : prefix;
  remove_stale_temporaries(dir);
  // linkat() gives an unnamed file a name through /proc/self/fd (no privilege needed).
  if (options_.unnamed && ::access("/proc/self/fd", X_OK) == 0) {
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      named_ = false;
      lock_file(fd_);  // a fresh unnamed file: nobody else can hold its lock
      return ok();
    }
    // Not supported here (EOPNOTSUPP, EISDIR, EINVAL): a named file says what else is wrong.
  }
  return open_named();
}

Status OutputFile::open_named() {
  std::string prefix = slash_prefix();
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    std::string temp = prefix + temp_name();
    if (options_.observer) options_.observer->naming(temp);
    int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0666);
    if (fd < 0) {
      int err = errno;
      if (options_.observer) options_.observer->unnamed();
      if (err == EEXIST) continue;
      return io_error("cannot create a temporary file beside it", err);
    }
    // A sweep in another process may have locked and removed the new file before we locked it:
    // then the name is gone (or not ours) and another one is tried.
    struct stat by_fd {}, by_name {};
    if (lock_file(fd) && ::fstat(fd, &by_fd) == 0 && ::lstat(temp.c_str(), &by_name) == 0 && same_inode(by_fd, by_name)) {
      fd_ = fd;
      temp_ = std::move(temp);
      named_ = true;
      return ok();
    }
    ::close(fd);
    if (options_.observer) options_.observer->unnamed();
  }
  return io_error("cannot create a temporary file beside it", EEXIST);
}

Status OutputFile::write_at(uint64_t offset, std::span<const uint8_t> bytes) {
  CIL_TRY(open());
  if (int err = write_all_at(fd_, offset, bytes)) return fail("cannot write", err);
  return ok();
}

Status OutputFile::move_down(uint64_t from, uint64_t to, uint64_t size) {
  CIL_TRY(open());
  // Front to back: a block is read before anything is written over it, since `to` is below `from`.
  // 64 KiB at a time: the move comes at the peak of an instrument run (every body built), and a
  // bigger block was a megabyte more on that peak (the memory test) for no measurable speed.
  std::vector<uint8_t> block(std::min<uint64_t>(size, uint64_t{1} << 16));
  for (uint64_t done = 0; done < size;) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(block.size(), size - done));
    ssize_t n = ::pread(fd_, block.data(), want, static_cast<off_t>(from + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot read back", errno);
    if (n == 0) return make_error(ErrorKind::Io, "output", fmt::format("ends before byte {} of the {} to move", done, size));
    if (int err = write_all_at(fd_, to + done, std::span<const uint8_t>(block.data(), static_cast<size_t>(n)))) return fail("cannot write", err);
    done += static_cast<uint64_t>(n);
  }
  return ok();
}

OutputFile::Mapping::~Mapping() {
  if (data_) ::munmap(data_, size_);
}

void OutputFile::Mapping::release_pages(std::span<const uint8_t> part) const {
  // Only ranges of this mapping: anything else could be anonymous memory.
  if (!data_ || part.data() < data_ || part.data() + part.size() > data_ + size_) return;
  drop_file_pages(part);
}

Expected<OutputFile::Mapping> OutputFile::map_back(uint64_t size) {
  CIL_TRY(open());
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return fail("cannot read back", errno).error();
  // Mapping past the end would fault on access: the file must hold every byte by now.
  if (size == 0 || static_cast<uint64_t>(st.st_size) < size)
    return make_error(ErrorKind::Io, "output", fmt::format("holds {} bytes, {} were written", st.st_size, size));
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (p == MAP_FAILED) return fail("cannot map for reading back", errno).error();
  return Mapping(static_cast<uint8_t*>(p), size);
}

Status OutputFile::write_pieces(std::span<const FilePiece> pieces, const CopySource& source) {
  CIL_TRY(open());
  uint64_t at = 0;
  // Consecutive pieces go out in one pwritev: the bytes the job made, and the small views of the
  // input (a header field's neighbours, a few rows), which cost less to copy through user space
  // than a copy_file_range each. Large views are copied by the kernel, without being mapped.
  constexpr size_t kKernelCopyFrom = 32 * 1024;
  std::vector<struct iovec> batch;
  uint64_t batch_at = 0;
  auto flush = [&]() -> int {
    int err = batch.empty() ? 0 : write_all_at(fd_, batch_at, batch);
    batch.clear();
    return err;
  };
  for (const auto& piece : pieces) {
    if (piece.in_place) {
      if (int err = flush()) return fail("cannot write", err);
      at += piece.in_place;
      continue;
    }
    auto bytes = piece.bytes;
    const uint8_t* base = source.mapped.data();
    bool inside = kernel_copy_ && source.fd >= 0 && bytes.size() >= kKernelCopyFrom && bytes.data() >= base &&
                  bytes.data() + bytes.size() <= base + source.mapped.size();
    if (inside) {
      if (int err = flush()) return fail("cannot write", err);
      // When the kernel cannot copy (or copies part), the piece is written again with pwrite,
      // over whatever it wrote, and later pieces go through user space too.
      if (copy_range(source.fd, static_cast<uint64_t>(bytes.data() - base), fd_, at, bytes.size())) {
        at += bytes.size();
        continue;
      }
      kernel_copy_ = false;
    }
    if (bytes.empty()) continue;
    if (batch.empty()) batch_at = at;
    batch.push_back({const_cast<uint8_t*>(bytes.data()), bytes.size()});
    at += bytes.size();
  }
  if (int err = flush()) return fail("cannot write", err);
  // Pieces in place past the last written byte still count towards the length.
  if (::ftruncate(fd_, static_cast<off_t>(at)) != 0) return fail("cannot write", errno);
  return ok();
}

Status OutputFile::commit() {
  CIL_TRY(open());
  struct stat st {};
  bool exists = ::lstat(path_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    discard();
    return destination_refused(st.st_mode);
  }
  // As cp does: a new file has 0666 less the umask (from open()), an existing one keeps its
  // permission bits (never set-user-ID, set-group-ID or sticky).
  if (exists && ::fchmod(fd_, st.st_mode & 0777) != 0) return fail("cannot set the mode", errno);
  // Closing a second descriptor flushes what the file system delays (NFS reports write errors
  // at close) while the first keeps the file and its lock until it is in place.
  int flush = ::dup(fd_);
  if (flush < 0 || ::close(flush) != 0) return fail("cannot write", errno);
  if (named_) {
    if (::rename(temp_.c_str(), path_.c_str()) != 0) return fail("cannot rename the temporary file into place", errno);
    named_ = false;
    if (options_.observer) options_.observer->unnamed();
    discard();
    return ok();
  }
  return link_into_place(exists);
}

std::string OutputFile::slash_prefix() const {
  size_t slash = path_.rfind('/');
  return slash == std::string::npos ? std::string() : path_.substr(0, slash + 1);
}

Status OutputFile::link_into_place(bool exists) {
  std::string self = fmt::format("/proc/self/fd/{}", fd_);
  auto link_as = [&](const std::string& name) {
    return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
  };
  if (!exists) {
    // Nothing there: the complete file gets its name in one step.
    int err = link_as(path_);
    if (err == 0) {
      discard();
      return ok();
    }
    if (err != EEXIST) return fail("cannot link the new file into place", err);
  }
  // Something is there: a name beside it first, then rename() replaces it in one step.
  std::string prefix = slash_prefix();
  for (int attempt = 0; attempt < kNameAttempts; ++attempt) {
    std::string temp = prefix + temp_name();
    if (options_.observer) options_.observer->naming(temp);
    int err = link_as(temp);
    if (err == EEXIST) {
      if (options_.observer) options_.observer->unnamed();
      continue;
    }
    if (err != 0) {
      if (options_.observer) options_.observer->unnamed();
      return fail("cannot link the new file into place", err);
    }
    temp_ = std::move(temp);
    named_ = true;
    if (::rename(temp_.c_str(), path_.c_str()) != 0) return fail("cannot rename the temporary file into place", errno);
    named_ = false;
    if (options_.observer) options_.observer->unnamed();
    discard();
    return ok();
  }
  return fail("cannot link the new file into place", EEXIST);
}

Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes) {
  OutputFile file(path);
  FilePiece one[] = {{bytes}};
  CIL_TRY(file.write_pieces(one));
  return file.commit();
}

}  // namespace cil
