// The state of a folder exec works on: locks, journal, originals kept aside, recovery.
#include "cli/jobs/exec_folder.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

Error folder_io_error(const std::string& file, std::string what, int err) {
  return in_file(make_error(ErrorKind::Io, "", fmt::format("{}: {}", what, std::strerror(err))), file);
}

Status sync_folder_path(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return folder_io_error(path, "cannot open to sync", errno);
  int r = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (r != 0) return folder_io_error(path, "cannot sync", err);
  return ok();
}

void close_all(const std::vector<int>& fds) {
  for (int fd : fds) ::close(fd);
}

bool same_inode_as(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::lstat(a.c_str(), &sa) == 0 && ::lstat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool has_entries(const fs::path& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  return !ec && it != fs::directory_iterator();
}

/// Whether `state` (a state directory) holds a run that replaced files: a journal, or originals.
bool holds_interrupted_run(const fs::path& state) {
  std::error_code ec;
  return fs::exists(state / "journal", ec) || has_entries(state / "originals");
}

Expected<std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return folder_io_error(path, "cannot read the journal", errno);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return folder_io_error(path, "cannot read the journal", errno);
  return text.str();
}

}  // namespace

Expected<ExecFolder> ExecFolder::lock(const std::string& dir) {
  std::error_code ec;
  fs::path real = fs::canonical(dir, ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot resolve the folder: {}", ec.message())), dir);
  auto folder = lock_inner(dir);
  if (!folder) return folder;
  for (fs::path p = real.parent_path();; p = p.parent_path()) {
    int fd = ::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {
        int err = errno;
        ::close(fd);
        if (err == EWOULDBLOCK)
          return in_file(make_error(ErrorKind::Io, "",
                                    fmt::format("another cil-instrument exec or restore is working on {}, which holds this folder", p.string())),
                         dir);
        return folder_io_error(p.string(), "cannot lock the folder", err);
      }
      folder->fds_.push_back(fd);
    }
    if (p == p.root_path() || p.empty()) break;
  }
  return folder;
}

Expected<ExecFolder> ExecFolder::lock_inner(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return folder_io_error(dir, "cannot open the folder", errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return in_file(make_error(ErrorKind::Io, "", "another cil-instrument exec or restore is working on this folder or on a folder inside it"),
                     dir);
    return folder_io_error(dir, "cannot lock the folder", err);
  }
  return ExecFolder(dir, {fd});
}

ExecFolder::ExecFolder(ExecFolder&& other) noexcept : dir_(std::move(other.dir_)), fds_(std::move(other.fds_)) { other.fds_.clear(); }

ExecFolder::~ExecFolder() { close_all(fds_); }

std::string ExecFolder::state_dir() const { return (fs::path(dir_) / std::string(kExecStateDir)).string(); }
std::string ExecFolder::journal_path() const { return (fs::path(state_dir()) / "journal").string(); }
std::string ExecFolder::staged_path(const std::string& relative) const { return (fs::path(state_dir()) / "staged" / relative).string(); }

bool ExecFolder::interrupted() const { return holds_interrupted_run(state_dir()); }

Expected<RestoreResult> ExecFolder::restore(bool force) {
  std::string state = state_dir();
  std::string journal = journal_path();
  std::error_code ec;
  RestoreResult result;
  if (!fs::exists(state, ec)) return result;
  std::string hint = fmt::format("the originals are kept in {}/originals; 'cil-instrument restore --force {}' puts them back over the files in place",
                                 state, dir_);
  if (fs::exists(journal, ec)) {
    auto text = read_whole(journal);
    if (!text) return std::move(text).error();
    auto entries = parse_journal(*text);
    if (!entries) {
      if (force) return restore_unchecked();
      return in_file(make_error(ErrorKind::Format, "", fmt::format("{}; {}", entries.error().to_string(), hint)), journal);
    }
    for (const auto& e : *entries) {
      std::string target = (fs::path(dir_) / e.relative).string();
      if (e.replace) {
        std::string original = (fs::path(state) / "originals" / e.relative).string();
        struct stat st {};
        if (::lstat(original.c_str(), &st) != 0) continue;  // never replaced, or already back
        if (same_inode_as(original, target)) {
          ++result.put_back;  // killed between keeping it aside and replacing it: it never left
          continue;
        }
        auto now = placed_state(target, e.placed);
        if (!now) return std::move(now).error();
        if (*now == PlacedState::Same) {
          if (::rename(original.c_str(), target.c_str()) != 0) return folder_io_error(target, "cannot put the original back", errno);
          ++result.put_back;
        } else if (*now == PlacedState::Changed) {
          result.notes.emplace_back(target, "changed since exec put the instrumented file in place (rebuilt?): kept it, and discarded the original it had replaced");
        } else {
          result.notes.emplace_back(target, "removed since exec put the instrumented file in place: left absent, and discarded the original it had replaced");
        }
      } else {
        // Created by the run: its staged copy is gone from staged/ once it was put in place.
        struct stat st {};
        if (::lstat(staged_path(e.relative).c_str(), &st) == 0) continue;  // never created
        auto now = placed_state(target, e.placed);
        if (!now) return std::move(now).error();
        if (*now == PlacedState::Same) {
          if (::unlink(target.c_str()) != 0 && errno != ENOENT) return folder_io_error(target, "cannot remove the file the run created", errno);
          ++result.put_back;
        } else if (*now == PlacedState::Changed) {
          result.notes.emplace_back(target, "created by exec and changed since (rebuilt?): kept it");
        }
      }
    }
    if (Status synced = sync_folder_path(dir_, true); !synced) return std::move(synced).error();
    for (const auto& e : *entries) {
      fs::path parent = (fs::path(dir_) / e.relative).parent_path();
      if (parent != fs::path(dir_)) (void)sync_folder_path(parent.string(), true);
    }
    if (::unlink(journal.c_str()) != 0) return folder_io_error(journal, "cannot remove the journal", errno);
    (void)sync_folder_path(state, true);  // the journal is gone; the rest is leftovers
  } else if (has_entries(fs::path(state) / "originals")) {
    if (force) return restore_unchecked();
    return in_file(make_error(ErrorKind::Format, "", fmt::format("exec journal: missing, though the state directory holds originals; {}", hint)), journal);
  }
  fs::remove_all(state, ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot remove: {}", ec.message())), state);
  return result;
}

Expected<RestoreResult> ExecFolder::restore_unchecked() {
  // Without a journal there is no record of what exec put in place: every original kept aside goes
  // back, which is what the user asked for by --force. Files the run created cannot be told apart.
  std::string state = state_dir();
  fs::path originals = fs::path(state) / "originals";
  RestoreResult result;
  std::error_code ec;
  std::vector<std::string> found;
  for (fs::recursive_directory_iterator it(originals, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_directory(type_ec) && !type_ec) found.push_back(fs::relative(it->path(), originals, type_ec).string());
  }
  if (ec && ec != std::errc::no_such_file_or_directory)
    return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot read the directory: {}", ec.message())), originals.string());
  for (const auto& relative : found) {
    std::string original = (originals / relative).string();
    std::string target = (fs::path(dir_) / relative).string();
    if (!same_inode_as(original, target)) {
      std::error_code mk;
      fs::create_directories(fs::path(target).parent_path(), mk);
      if (::rename(original.c_str(), target.c_str()) != 0) return folder_io_error(target, "cannot put the original back", errno);
      result.notes.emplace_back(target, "put back without the journal's check (--force)");
    }
    ++result.put_back;
  }
  if (Status synced = sync_folder_path(dir_, true); !synced) return std::move(synced).error();
  fs::remove_all(state, ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot remove: {}", ec.message())), state);
  return result;
}

Status ExecFolder::clear_leftovers() {
  if (interrupted()) return in_file(make_error(ErrorKind::Io, "", "holds an interrupted run; not removed"), state_dir());
  std::error_code ec;
  fs::remove_all(state_dir(), ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot remove: {}", ec.message())), state_dir());
  return ok();
}

Status ExecFolder::prepare() {
  if (Status cleared = clear_leftovers(); !cleared) return cleared;
  std::error_code ec;
  fs::create_directories(fs::path(state_dir()) / "staged", ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot create the state directory: {}", ec.message())), state_dir());
  fs::create_directories(fs::path(state_dir()) / "originals", ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot create the state directory: {}", ec.message())), state_dir());
  return ok();
}

Status ExecFolder::write_journal(std::vector<JournalEntry>& entries) {
  std::string state = state_dir();
  for (auto& e : entries) {
    auto placed = identify_file(staged_path(e.relative));
    if (!placed) return std::move(placed).error();
    e.placed = *placed;
  }
  // The staged files reach the disk before the journal that makes them matter.
  ::syncfs(fds_.front());
  std::string text = format_journal(entries);
  std::string journal = journal_path();
  std::string temp = journal + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return folder_io_error(temp, "cannot write the journal", errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      return folder_io_error(temp, "cannot write the journal", err);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return folder_io_error(temp, "cannot sync the journal", err);
  }
  ::close(fd);
  if (::rename(temp.c_str(), journal.c_str()) != 0) return folder_io_error(journal, "cannot write the journal", errno);
  return sync_folder_path(state, true);
}

Status ExecFolder::replace_all(const std::vector<JournalEntry>& entries) {
  std::string state = state_dir();
  for (const auto& e : entries) {
    std::string target = (fs::path(dir_) / e.relative).string();
    std::string staged = staged_path(e.relative);
    if (e.replace) {
      std::string original = (fs::path(state) / "originals" / e.relative).string();
      std::error_code ec;
      fs::create_directories(fs::path(original).parent_path(), ec);
      // A second name for the original first: the folder always has one of the two versions.
      if (::link(target.c_str(), original.c_str()) != 0) return folder_io_error(target, "cannot keep the original aside", errno);
      // chmod changes the ctime only: the mtime the journal recorded stays the staged file's.
      struct stat st {};
      if (::stat(target.c_str(), &st) == 0) ::chmod(staged.c_str(), st.st_mode & 07777);
    }
    if (::rename(staged.c_str(), target.c_str()) != 0) return folder_io_error(target, "cannot put the instrumented file in place", errno);
  }
  return sync_folder_path(dir_, true);
}

std::vector<std::string> state_dirs_inside(const std::string& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_directory(type_ec)) continue;
    std::string name = it->path().filename().string();
    if (it->is_symlink(type_ec)) {
      it.disable_recursion_pending();
      continue;
    }
    if (name.rfind(".cil-instrument", 0) == 0) {
      it.disable_recursion_pending();
      if (name == kExecStateDir && it.depth() > 0) found.push_back(it->path().parent_path().string());
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string interrupted_ancestor(const std::string& dir) {
  std::error_code ec;
  fs::path real = fs::canonical(dir, ec);
  if (ec) return {};
  for (fs::path p = real.parent_path(); !p.empty(); p = p.parent_path()) {
    if (holds_interrupted_run(p / std::string(kExecStateDir))) return p.string();
    if (p == p.root_path()) break;
  }
  return {};
}

}  // namespace cil::cli
