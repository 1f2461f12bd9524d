// Glob patterns over full method names (Ns.Type::Method, nested types as Outer/Inner).
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

}  // namespace cil::md
