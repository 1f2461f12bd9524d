// The write rule: inputs recorded by identity, output paths checked component by component.
#include "support/write_confinement.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace cil {

namespace {

Error refused(const std::string& path, std::string message) {
  return in_file(make_error(ErrorKind::Usage, "", std::move(message)), path);
}

const char* type_name(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// The components of a relative path, or nullopt when it is absolute, empty or climbs ("..").
std::optional<std::vector<std::string>> plain_components(std::string_view relative) {
  if (relative.empty() || relative.front() == '/') return std::nullopt;
  std::vector<std::string> parts;
  size_t at = 0;
  while (at <= relative.size()) {
    size_t slash = relative.find('/', at);
    if (slash == std::string_view::npos) slash = relative.size();
    std::string_view part = relative.substr(at, slash - at);
    if (part == "..") return std::nullopt;
    if (!part.empty() && part != ".") parts.emplace_back(part);
    at = slash + 1;
  }
  if (parts.empty()) return std::nullopt;
  return parts;
}

}  // namespace

void WriteConfinement::add_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) inputs_.emplace(st.st_dev, st.st_ino);
}

bool WriteConfinement::is_input(const std::string& path) const {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && inputs_.count({st.st_dev, st.st_ino});
}

Status WriteConfinement::check_named(const std::string& path) const {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return ok();  // absent: creating it says why not
  if (S_ISREG(st.st_mode)) {
    if (inputs_.count({st.st_dev, st.st_ino}))
      return refused(path, "is an input of this run (the same file): the inputs are never modified");
    return ok();
  }
  if (S_ISLNK(st.st_mode))
    return in_file(make_error(ErrorKind::Io, "", "is a symbolic link: refused rather than replaced (give the path of the file it points to)"), path);
  return in_file(make_error(ErrorKind::Io, "", fmt::format("exists and is not a regular file ({}): refused rather than replaced", type_name(st.st_mode))),
                 path);
}

Expected<std::string> WriteConfinement::check_under(const std::string& root, const std::string& relative, bool create) const {
  auto parts = plain_components(relative);
  std::string base = root;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  if (base.empty()) base = ".";
  if (!parts) return refused(base == "/" ? "/" + relative : base + "/" + relative, "is not a plain path inside the output directory: refused");
  if (create) {
    // The root is the user's: its own path may go through links.
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
  }
  std::string path = base == "/" ? "" : base;
  for (size_t i = 0; i < parts->size(); ++i) {
    path += '/';
    path += (*parts)[i];
    bool last = i + 1 == parts->size();
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno != ENOENT) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot examine: {}", std::strerror(errno))), path);
      if (last || !create) return path;  // absent from here on: nothing there to write through
      if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
        return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot create the directory: {}", std::strerror(errno))), path);
      // Made by us or by someone just now: either way it must be a real directory.
      if (::lstat(path.c_str(), &st) != 0)
        return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot examine: {}", std::strerror(errno))), path);
    }
    if (S_ISLNK(st.st_mode))
      return refused(path, last ? "is a symbolic link inside the output directory: nothing is written through a link"
                                : "is a symbolic link inside the output directory: nothing is written through a link, so nothing goes below it");
    if (!last) {
      if (!S_ISDIR(st.st_mode)) return refused(path, fmt::format("is in the way of a directory of the output ({})", type_name(st.st_mode)));
      continue;
    }
    if (!S_ISREG(st.st_mode)) return refused(path, fmt::format("exists and is not a regular file ({}): refused rather than replaced", type_name(st.st_mode)));
    if (inputs_.count({st.st_dev, st.st_ino})) return refused(path, "is an input of this run (the same file): the inputs are never modified");
  }
  return path;
}

bool name_fits(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  long max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (max <= 0) max = NAME_MAX;
  return name.size() <= static_cast<size_t>(max);
}

}  // namespace cil
