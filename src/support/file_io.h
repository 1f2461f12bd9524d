// Whole-file reads of regular files, and whole-file writes that appear complete or not at all.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.h"

namespace cil {

/// Largest input accepted; a PE image's fields are 32-bit, so nothing valid is larger.
inline constexpr uint64_t kMaxInputSize = 0x7FFFFFFF;

/// Reads a whole regular file. Anything else (a FIFO, a device, a socket, a directory) is
/// refused without blocking: open() of a FIFO would wait for a writer forever. A file larger than
/// `max_size` is refused from its size, before it is read.
Expected<std::vector<uint8_t>> read_file(const std::string& path, uint64_t max_size = kMaxInputSize);

/// A file mapped read-only into memory, with its descriptor kept open so that unchanged ranges
/// can be copied to an output inside the kernel. Pages are read only when touched.
class MappedFile {
 public:
  /// Maps `path`; fails for what cannot be mapped (an empty file): use read_file then. Refuses
  /// anything that is not a regular file, as read_file does.
  static Expected<MappedFile> open(const std::string& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  int fd() const { return fd_; }
  /// Lets the kernel take back the pages read so far (they count in the process's resident
  /// memory while mapped): the bytes do not change, and a later read maps them in again from the
  /// file. For a large input whose bytes are no longer needed in bulk.
  void release_pages() const;

 private:
  MappedFile() = default;
  void release();
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int fd_ = -1;
};

/// Where the pieces of an output may come from without a copy through user space: ranges of
/// `mapped`, the mapping of the file open as `fd`.
struct CopySource {
  int fd = -1;
  std::span<const uint8_t> mapped;
};

/// A piece of an output file: bytes to write, or (`in_place` non-zero) that many bytes that are
/// already in the file at this position.
struct FilePiece {
  std::span<const uint8_t> bytes;
  uint64_t in_place = 0;
  uint64_t size() const { return in_place ? in_place : bytes.size(); }
};

/// Told when an output's temporary file gets a name in the file system and when that name is gone
/// again (renamed into place or removed), so that a process that owns its signals can remove
/// the file if it is interrupted in between. naming() comes before the name can exist.
class TempNameObserver {
 public:
  virtual ~TempNameObserver() = default;
  virtual void naming(const std::string& path) = 0;
  virtual void unnamed() = 0;
};

/// How an OutputFile keeps its bytes until commit().
struct OutputOptions {
  /// An unnamed file (O_TMPFILE) in the destination's directory, linked into place by commit():
  /// nothing is left behind even if the process is killed. Where the file system or /proc cannot
  /// do it, or when false, a named temporary file (kTempPrefix...kTempSuffix) is used instead.
  bool unnamed = true;
  TempNameObserver* observer = nullptr;
};

/// Temporary files of outputs are named `.cil-instrument-XXXXXX.tmp`, whatever the destination's
/// name, so a destination name of up to 255 bytes still works.
inline constexpr std::string_view kTempPrefix = ".cil-instrument-";
inline constexpr std::string_view kTempSuffix = ".tmp";

/// A file being written: a temporary file in the destination's directory, created on the first
/// write, put in place of the destination by commit() and removed if it is never committed, so a
/// failure never leaves a partial file behind. Writes go to explicit offsets, so part of the file
/// can be written early (while the rest is still being built) and the rest around it later.
/// A new destination gets mode 0666 less the umask; an existing one keeps its permission bits.
/// A destination that exists and is not a regular file (a device, a FIFO, a directory, a
/// symbolic link) is refused rather than replaced. Errors do not repeat the path: the caller
/// names the file.
class OutputFile {
 public:
  explicit OutputFile(std::string path, OutputOptions options = {}) : path_(std::move(path)), options_(options) {}
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  /// Refuses a destination that exists and is not a regular file; callers check early, before
  /// the work, and commit() checks again.
  static Status check_destination(const std::string& path);

  const std::string& path() const { return path_; }
  Status write_at(uint64_t offset, std::span<const uint8_t> bytes);
  /// Copies the `size` bytes written at `from` down to `to` (below it), a block at a time.
  Status move_down(uint64_t from, uint64_t to, uint64_t size);
  /// Writes consecutive pieces from offset 0, skipping those already in place. Pieces of 32 KiB
  /// or more that lie inside `source.mapped` are copied from `source.fd` with copy_file_range
  /// (falling back to write); the others go out together, one pwritev for each run of them.
  Status write_pieces(std::span<const FilePiece> pieces, const CopySource& source = {});
  /// The file's first `size` bytes (all written), mapped shared and writable before commit():
  /// what finishing steps (signing, the self-check) read is what will be renamed, and what they
  /// write goes to the file. No copy: the pages are the ones just written.
  class Mapping {
   public:
    Mapping(Mapping&& other) noexcept : data_(other.data_), size_(other.size_) { other.data_ = nullptr; }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping& operator=(Mapping&&) = delete;
    ~Mapping();
    std::span<uint8_t> bytes() const { return {data_, size_}; }
    /// Lets the kernel take back the pages of `part` (a range of bytes()) that lie wholly inside
    /// it: what was read or written stays in the file, and a later access maps it in again. For
    /// a check that reads a large output once, in order.
    void release_pages(std::span<const uint8_t> part) const;

   private:
    friend class OutputFile;
    Mapping(uint8_t* data, size_t size) : data_(data), size_(size) {}
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
  };
  Expected<Mapping> map_back(uint64_t size);
  /// Gives up the file: the temporary file is removed and the destination left as it was.
  void abandon() { discard(); }
  /// Makes the file the destination.
  Status commit();

 private:
  Status open();
  Status open_named();
  Status link_into_place(bool exists);
  std::string slash_prefix() const;  ///< the destination's directory with its slash, or ""
  void discard();
  Status fail(const std::string& what, int err);
  std::string path_;
  OutputOptions options_;
  std::string temp_;  ///< the temporary file's name while it has one
  int fd_ = -1;
  bool named_ = false;
  bool kernel_copy_ = true;
};

/// Removes the temporary files that outputs left in `dir` when their process was killed (the
/// writer holds a lock on its file while it lives, so a file whose lock is free is proven
/// stale). Returns how many were removed. OutputFile calls it before it creates one.
size_t remove_stale_temporaries(const std::string& dir);

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// failure never leaves a partial file behind.
Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace cil
