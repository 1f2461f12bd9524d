// Glob patterns over full method names (Ns.Type::Method, nested types as Outer/Inner), and the
// globs over assembly files that folder mode and the profiler choose modules by.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cil::md {

/// `*` matches any run of characters (dots, slashes and colons included), `?` any one
/// character; everything else matches itself. The whole name must match.
bool glob_match(std::string_view pattern, std::string_view text);

/// Include/exclude filters as the commands take them: a name is selected when it matches some
/// include pattern (or there are none) and no exclude pattern.
struct MethodFilter {
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  bool selects(std::string_view full_name) const;
};

/// --assemblies and --skip-assemblies: true when some glob matches the file `relative_path`
/// names. A glob with a '/' is matched against the whole path (relative to the input folder in
/// folder mode; the module's full path in the profiler), any other against the file name. Globs
/// are fnmatch(3)'s without flags: `*`, `?` and `[...]`, a `*` crossing '/'.
bool assembly_glob_match(const std::vector<std::string>& globs, std::string_view relative_path);

/// Modules chosen by their file: selected when some `assemblies` glob matches (or there are
/// none) and no `skip_assemblies` glob does.
struct AssemblyFilter {
  std::vector<std::string> assemblies;
  std::vector<std::string> skip_assemblies;
  bool selects(std::string_view path) const;
  bool empty() const { return assemblies.empty() && skip_assemblies.empty(); }
};

}  // namespace cil::md
