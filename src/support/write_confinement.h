// The one rule every writer of the tool follows: a write lands only where the user said, never
// on an input, and never through a symbolic link the user did not name.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "support/error.h"

namespace cil {

/// The identities (device and inode) of a run's inputs, and the checks every output path passes
/// before anything is written to it. Identities, not names: `./a.dll`, `/abs/a.dll`, a hard
/// link and a symbolic link to it are all the same input.
///
/// Two kinds of output:
/// - a path the user named (`-o OUT`, `--cobertura FILE`): its directories are the user's choice
///   (links among them included); the file itself must not be an input, nor an existing
///   non-regular file (a symbolic link included: OutputFile replaces names, it never writes
///   through one);
/// - a path under an output root (`-o OUTDIR`): the relative part is plain (no "..", not
///   absolute), every directory along it inside the root is a real directory (a symbolic link
///   there is refused, whatever it points to), and the file is not an input nor a non-regular
///   file. Missing directories are created one at a time, each checked again once made.
///
/// The checks use lstat() on each component, so a link put in place by another process between
/// the check and the rename could still be followed; the tool does not race anyone but itself.
class WriteConfinement {
 public:
  /// Records the file `path` names (links followed) as an input. A path that does not exist is
  /// ignored: nothing can be written over it.
  void add_input(const std::string& path);
  /// Whether the file `path` names (links followed) is an input.
  bool is_input(const std::string& path) const;
  size_t input_count() const { return inputs_.size(); }

  /// Refuses (Usage) a named output that is an input, and (Io) one that exists and is not a
  /// regular file. An absent path passes.
  Status check_named(const std::string& path) const;

  /// `root`/`relative`, checked as above; with `create`, the missing directories between them
  /// are made (the root too, with its parents). Refusals are Usage errors naming the path.
  Expected<std::string> check_under(const std::string& root, const std::string& relative, bool create) const;

 private:
  std::set<std::pair<uint64_t, uint64_t>> inputs_;
};

/// Whether the last component of `path` fits the file system's limit on a name (NAME_MAX of
/// the directory it goes in, 255 where that cannot be asked).
bool name_fits(const std::string& path);

}  // namespace cil
