// Instrumenting a folder in place and putting it back: the originals kept aside and a journal,
// written and synced before the first file is replaced, so that a run killed at any moment is
// undone by the next run or by `restore`.
#pragma once

#include <string>
#include <vector>

#include "support/error.h"

namespace cil::cli {

/// The folder's state directory: DIR/.cil-instrument-exec, holding `journal`, `originals/` (the
/// replaced files, hard links made before the replacement) and `staged/` (the new files).
inline constexpr std::string_view kExecStateDir = ".cil-instrument-exec";

/// One file exec puts in place: REL (relative to the folder) replaced by staged/REL, or created
/// when no REL existed (a PDB the instrumented assembly names).
struct JournalEntry {
  bool replace = true;
  std::string relative;
};

/// A folder held by this process (flock on the folder: a second exec or restore on it is refused
/// while it is held; the kernel drops the lock when the process dies).
class ExecFolder {
 public:
  /// Locks `dir`. Refuses a folder another process holds.
  static Expected<ExecFolder> lock(const std::string& dir);
  ExecFolder(ExecFolder&& other) noexcept;
  ExecFolder(const ExecFolder&) = delete;
  ~ExecFolder();

  const std::string& dir() const { return dir_; }
  std::string state_dir() const;
  std::string staged_path(const std::string& relative) const;

  /// True when a journal says that an earlier run replaced files and did not put them back.
  bool interrupted() const;
  /// Puts back every original the journal names, removes the files it created and the state
  /// directory. Idempotent: what is already back is left. Returns the number of files put back.
  Expected<size_t> restore();
  /// Removes a state directory without a journal (a run killed before it replaced anything).
  Status clear_leftovers();
  /// Creates an empty state directory (refuses a folder that cannot be written).
  Status prepare();
  /// Writes the journal of `entries` (synced, with the staged files, before anything is replaced).
  Status write_journal(const std::vector<JournalEntry>& entries);
  /// Replaces (or creates) each entry's file with its staged file, keeping the original aside.
  /// Stops at the first failure (restore() then undoes what was done).
  Status replace_all(const std::vector<JournalEntry>& entries);

 private:
  ExecFolder(std::string dir, int fd) : dir_(std::move(dir)), fd_(fd) {}
  std::string dir_;
  int fd_ = -1;
};

}  // namespace cil::cli
