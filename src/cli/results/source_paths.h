// Source paths in coverage reports: `report --path-map FROM=TO` moves the documents a PDB names
// (the build machine's paths) to where the sources are now, and `--source-root DIR` makes
// Cobertura's file names relative to DIR.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.h"

namespace cil::cli {

/// Prefix rewriting on whole path components ('/' and '\' both separate them: PDBs made on
/// Windows name C:\src\... documents). The longest matching FROM wins; the rest of the path is
/// appended to TO with its separators turned into TO's (its last one, '/' if TO has none).
class PathMap {
 public:
  /// Adds FROM=TO (split at the first '='). Fails (ErrorKind::Usage) without '=' or with an
  /// empty FROM.
  Status add(std::string_view mapping);
  bool empty() const { return rules_.empty(); }
  /// `path` rewritten by the longest matching FROM, or unchanged.
  std::string apply(std::string_view path) const;

 private:
  struct Rule {
    std::string from, to;
  };
  std::vector<Rule> rules_;
};

/// The part of `path` below `root` (no leading separator), when `root` is a whole-component
/// prefix of `path` and `path` is not `root` itself.
std::optional<std::string> relative_to(std::string_view path, std::string_view root);

}  // namespace cil::cli
