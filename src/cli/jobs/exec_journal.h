// exec's journal: what each file it put in place replaced, and the exact file it put there (size,
// mtime, SHA-256), so that recovery puts an original back only over the file exec wrote and never
// over one that a build wrote since (issue 36, item 5). The text form, its reader and the rule.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.h"

namespace cil::cli {

/// The journal's first line. Version 2 added the identity of each file put in place; a journal of
/// another version is refused (its rule is not this one's), with the hint of `restore --force`.
inline constexpr std::string_view kJournalHeader = "cil-instrument exec journal 2";

/// A file as exec left it: enough to tell it from any file written over it later. Size and mtime
/// decide most cases at the cost of a stat; the hash decides the rest (a copy that kept the size
/// and the mtime, `cp -p` or a build restoring timestamps).
struct FileIdentity {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  std::array<uint8_t, 32> sha256{};
  bool operator==(const FileIdentity&) const = default;
};

/// One file exec puts in place: REL (relative to the folder) replaced by staged/REL, or created
/// when no REL existed (a PDB the instrumented assembly names); `placed` is that staged file.
struct JournalEntry {
  bool replace = true;
  std::string relative;
  FileIdentity placed;
  bool operator==(const JournalEntry&) const = default;
};

/// The journal's text: the header, one line per entry, and an `end COUNT` line that tells a
/// complete journal from a truncated one.
std::string format_journal(const std::vector<JournalEntry>& entries);

/// Reads a journal's text. Errors (structure "exec journal") name what is wrong and the byte
/// offset of the line: another version, a malformed line, a path outside the folder, no end line.
Expected<std::vector<JournalEntry>> parse_journal(std::string_view text);

/// The identity of the file at `path` (follows no symlink: exec puts regular files in place).
Expected<FileIdentity> identify_file(const std::string& path);

/// Where the file exec put in place stands now.
enum class PlacedState {
  Same,     ///< still exactly the file exec wrote: the original may go back over it
  Changed,  ///< written since (a rebuild): it stays, the stale original is discarded
  Missing,  ///< removed since: nothing is put back in its place either
};

/// Compares the file at `path` with `placed` (size and mtime first, the hash only when both match).
Expected<PlacedState> placed_state(const std::string& path, const FileIdentity& placed);

}  // namespace cil::cli
