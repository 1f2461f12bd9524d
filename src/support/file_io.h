// Whole-file reads and atomic whole-file writes (temporary file, then rename).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "support/error.h"

namespace cil {

/// Largest input accepted; a PE image's fields are 32-bit, so nothing valid is larger.
inline constexpr uint64_t kMaxInputSize = 0x7FFFFFFF;

Expected<std::vector<uint8_t>> read_file(const std::string& path);

/// A file mapped read-only into memory, with its descriptor kept open so that unchanged ranges
/// can be copied to an output inside the kernel. Pages are read only when touched.
class MappedFile {
 public:
  /// Maps `path`; fails for what cannot be mapped (an empty file, a pipe): use read_file then.
  static Expected<MappedFile> open(const std::string& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  int fd() const { return fd_; }

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

/// A file being written: a temporary file in the destination's directory, created on the first
/// write, renamed over the destination by commit() and removed if it is never committed, so a
/// failure never leaves a partial file behind. Writes go to explicit offsets, so part of the file
/// can be written early (while the rest is still being built) and the rest around it later.
/// Errors do not repeat the path: the caller names the file.
class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {}
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  const std::string& path() const { return path_; }
  Status write_at(uint64_t offset, std::span<const uint8_t> bytes);
  /// Writes consecutive pieces from offset 0, skipping those already in place. Pieces that lie
  /// inside `source.mapped` are copied from `source.fd` with copy_file_range (falling back to
  /// write).
  Status write_pieces(std::span<const FilePiece> pieces, const CopySource& source = {});
  /// Makes the file the destination (mode 0644).
  Status commit();

 private:
  Status open();
  Status fail(const std::string& what, int err);
  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool kernel_copy_ = true;
};

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// failure never leaves a partial file behind.
Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace cil
