// Copying a file whole, as every output is written: through a temporary file and a rename.
#include "cli/jobs/file_copy.h"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include <fmt/format.h>

#include "cli/jobs/interrupts.h"
#include "support/file_io.h"

namespace cil::cli {

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

Status copy_file(const std::string& from, const std::string& to, bool interruptible) {
  struct stat st {};
  if (::stat(from.c_str(), &st) != 0) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot read: {}", std::strerror(errno))), from);
  OutputFile out(to, interruptible ? interruptible_output() : OutputOptions{});
  if (auto mapped = MappedFile::open(from)) {
    FilePiece piece{mapped->bytes()};
    Status written = out.write_pieces(std::span<const FilePiece>(&piece, 1), CopySource{mapped->fd(), mapped->bytes()});
    if (!written) return in_file(std::move(written).error(), to);
  } else {
    auto bytes = read_file(from);
    if (!bytes) return in_file(std::move(bytes).error(), from);
    Status written = out.write_at(0, *bytes);
    if (!written) return in_file(std::move(written).error(), to);
  }
  Status committed = out.commit();
  if (!committed) return in_file(std::move(committed).error(), to);
  if (::chmod(to.c_str(), st.st_mode & 07777) != 0)
    return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot set the mode: {}", std::strerror(errno))), to);
  return ok();
}

}  // namespace cil::cli
