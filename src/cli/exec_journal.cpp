// The state of a folder exec works on: lock, journal, originals kept aside, restore.
#include "cli/exec_journal.h"

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

constexpr std::string_view kJournalHeader = "cil-instrument exec journal 1";

Error io_error(const std::string& file, std::string what, int err) {
  return in_file(make_error(ErrorKind::Io, "", fmt::format("{}: {}", what, std::strerror(err))), file);
}

Status sync_path(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return io_error(path, "cannot open to sync", errno);
  int r = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (r != 0) return io_error(path, "cannot sync", err);
  return ok();
}

std::string journal_path(const std::string& state) { return state + "/journal"; }

Expected<std::vector<JournalEntry>> read_journal(const std::string& path) {
  std::ifstream in(path);
  if (!in) return io_error(path, "cannot read the journal", errno);
  std::string line;
  if (!std::getline(in, line) || line != kJournalHeader)
    return in_file(make_error(ErrorKind::Format, "exec journal", "not a journal of this version"), path);
  std::vector<JournalEntry> entries;
  while (std::getline(in, line)) {
    auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::string kind = line.substr(0, tab), rel = line.substr(tab + 1);
    // A journal names files inside its folder only.
    if (rel.empty() || rel[0] == '/' || rel.find("..") != std::string::npos) continue;
    if (kind == "replace" || kind == "create") entries.push_back({kind == "replace", rel});
  }
  return entries;
}

}  // namespace

Expected<ExecFolder> ExecFolder::lock(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return io_error(dir, "cannot open the folder", errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return in_file(make_error(ErrorKind::Io, "", "another cil-instrument exec or restore is working on this folder"), dir);
    return io_error(dir, "cannot lock the folder", err);
  }
  return ExecFolder(dir, fd);
}

ExecFolder::ExecFolder(ExecFolder&& other) noexcept : dir_(std::move(other.dir_)), fd_(other.fd_) { other.fd_ = -1; }

ExecFolder::~ExecFolder() {
  if (fd_ >= 0) ::close(fd_);
}

std::string ExecFolder::state_dir() const { return (fs::path(dir_) / std::string(kExecStateDir)).string(); }
std::string ExecFolder::staged_path(const std::string& relative) const { return (fs::path(state_dir()) / "staged" / relative).string(); }

bool ExecFolder::interrupted() const {
  std::error_code ec;
  return fs::exists(journal_path(state_dir()), ec);
}

Expected<size_t> ExecFolder::restore() {
  std::string state = state_dir();
  std::string journal = journal_path(state);
  std::error_code ec;
  size_t restored = 0;
  if (fs::exists(journal, ec)) {
    auto entries = read_journal(journal);
    if (!entries) return std::move(entries).error();
    for (const auto& e : *entries) {
      std::string target = (fs::path(dir_) / e.relative).string();
      std::string original = (fs::path(state) / "originals" / e.relative).string();
      if (e.replace) {
        struct stat st {};
        if (::lstat(original.c_str(), &st) != 0) continue;  // never replaced, or already back
        if (::rename(original.c_str(), target.c_str()) != 0) return io_error(target, "cannot put the original back", errno);
        ++restored;
      } else {
        // Created by the run: its staged copy is gone from staged/ once it was put in place.
        struct stat st {};
        std::string staged = staged_path(e.relative);
        if (::lstat(staged.c_str(), &st) == 0) continue;  // never created
        if (::unlink(target.c_str()) != 0 && errno != ENOENT) return io_error(target, "cannot remove the file the run created", errno);
        ++restored;
      }
    }
    if (Status synced = sync_path(dir_, true); !synced) return std::move(synced).error();
    for (const auto& e : *entries) {
      fs::path parent = (fs::path(dir_) / e.relative).parent_path();
      if (parent != fs::path(dir_)) (void)sync_path(parent.string(), true);
    }
    if (::unlink(journal.c_str()) != 0) return io_error(journal, "cannot remove the journal", errno);
    (void)sync_path(state, true);  // the journal is gone; the rest is leftovers
  }
  fs::remove_all(state, ec);
  if (ec) return in_file(make_error(ErrorKind::Io, "", fmt::format("cannot remove: {}", ec.message())), state);
  return restored;
}

Status ExecFolder::clear_leftovers() {
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

Status ExecFolder::write_journal(const std::vector<JournalEntry>& entries) {
  std::string state = state_dir();
  // The staged files reach the disk before the journal that makes them matter.
  ::syncfs(fd_);
  std::string text = std::string(kJournalHeader) + "\n";
  for (const auto& e : entries) text += fmt::format("{}\t{}\n", e.replace ? "replace" : "create", e.relative);
  std::string temp = journal_path(state) + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error(temp, "cannot write the journal", errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      return io_error(temp, "cannot write the journal", err);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    return io_error(temp, "cannot sync the journal", err);
  }
  ::close(fd);
  if (::rename(temp.c_str(), journal_path(state).c_str()) != 0) return io_error(journal_path(state), "cannot write the journal", errno);
  return sync_path(state, true);
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
      if (::link(target.c_str(), original.c_str()) != 0) return io_error(target, "cannot keep the original aside", errno);
      struct stat st {};
      if (::stat(target.c_str(), &st) == 0) ::chmod(staged.c_str(), st.st_mode & 07777);
    }
    if (::rename(staged.c_str(), target.c_str()) != 0) return io_error(target, "cannot put the instrumented file in place", errno);
  }
  return sync_path(dir_, true);
}

}  // namespace cil::cli
