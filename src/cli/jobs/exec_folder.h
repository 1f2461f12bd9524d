// A folder exec instruments in place: its locks, the originals kept aside, the journal written and
// synced before the first file is replaced, and the recovery that undoes a run killed at any moment
// (by the next run or by `restore`) without putting a stale original over a newer file.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/jobs/exec_journal.h"
#include "support/error.h"

namespace cil::cli {

/// The folder's state directory: DIR/.cil-instrument-exec, holding `journal`, `originals/` (the
/// replaced files, hard links made before the replacement) and `staged/` (the new files).
inline constexpr std::string_view kExecStateDir = ".cil-instrument-exec";

/// What a recovery did: the files put back (or removed, when the run had created them), and one
/// line per file it left as it found it, with the reason (a file rebuilt since exec wrote it).
struct RestoreResult {
  size_t put_back = 0;
  std::vector<std::pair<std::string, std::string>> notes;  ///< (file, what was done and why)
};

/// A folder held by this process. exec's files lie anywhere below its folder, so a folder and the
/// folders inside it are one resource: the holder takes flock LOCK_EX on the folder and LOCK_SH on
/// each of its ancestors. Two execs on a folder and its subfolder then conflict on the outer one
/// whichever starts first (each lock is taken without waiting, so at least one of two racing execs
/// is refused, never both let through); execs on sibling folders share their ancestors' locks. The
/// kernel drops the locks when the process dies.
class ExecFolder {
 public:
  /// Locks `dir` and its ancestors (those this user cannot open are skipped: no one else's exec
  /// on them could reach our files without our read access). Refuses a folder another process holds.
  static Expected<ExecFolder> lock(const std::string& dir);
  /// Locks `dir` alone: for a folder inside one this process holds already (its ancestors are
  /// then covered by the outer folder's exclusive lock).
  static Expected<ExecFolder> lock_inner(const std::string& dir);
  ExecFolder(ExecFolder&& other) noexcept;
  ExecFolder(const ExecFolder&) = delete;
  ~ExecFolder();

  const std::string& dir() const { return dir_; }
  std::string state_dir() const;
  std::string journal_path() const;
  std::string staged_path(const std::string& relative) const;

  /// True when an earlier run replaced files and did not put them back: a journal, or originals
  /// kept aside without one (never removed unread).
  bool interrupted() const;
  /// Undoes an earlier run: puts back each original whose replacement is still exactly the file
  /// exec wrote, keeps (and says so) a file written since, discarding its stale original, removes
  /// the files the run created, then the state directory. Idempotent. A journal that cannot be read
  /// is an error naming it, with the hint of `force`; nothing is touched then. With `force` and an
  /// unreadable journal, every original kept aside is put back over the file in place unchecked.
  Expected<RestoreResult> restore(bool force = false);
  /// Removes a state directory that holds no journal and no original (a run killed before it
  /// replaced anything).
  Status clear_leftovers();
  /// Creates an empty state directory (refuses a folder that cannot be written).
  Status prepare();
  /// Writes the journal of `entries`, with the identity of each staged file, synced with the
  /// staged files before anything is replaced. Fills in each entry's `placed`.
  Status write_journal(std::vector<JournalEntry>& entries);
  /// Replaces (or creates) each entry's file with its staged file, keeping the original aside.
  /// Stops at the first failure (restore() then undoes what was done).
  Status replace_all(const std::vector<JournalEntry>& entries);

 private:
  ExecFolder(std::string dir, std::vector<int> fds) : dir_(std::move(dir)), fds_(std::move(fds)) {}
  Expected<RestoreResult> restore_unchecked();
  std::string dir_;
  std::vector<int> fds_;  ///< the folder's own (exclusive) lock first, then its ancestors'
};

/// The folders below `dir` (not itself, no symlinked folder) that hold an exec state directory.
std::vector<std::string> state_dirs_inside(const std::string& dir);

/// The nearest ancestor of `dir` whose state directory holds an interrupted run (empty if none):
/// that run's files may lie in `dir`.
std::string interrupted_ancestor(const std::string& dir);

}  // namespace cil::cli
