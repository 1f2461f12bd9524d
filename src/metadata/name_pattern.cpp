// Iterative glob matching with single-star backtracking: linear memory, no recursion; and the
// assembly globs, through fnmatch(3) as folder mode has always matched them.
#include "metadata/name_pattern.h"

#include <fnmatch.h>

namespace cil::md {

bool glob_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool MethodFilter::selects(std::string_view full_name) const {
  bool included = include.empty();
  for (const auto& pattern : include) {
    if (glob_match(pattern, full_name)) {
      included = true;
      break;
    }
  }
  if (!included) return false;
  for (const auto& pattern : exclude) {
    if (glob_match(pattern, full_name)) return false;
  }
  return true;
}

bool assembly_glob_match(const std::vector<std::string>& globs, std::string_view relative_path) {
  std::string path(relative_path);
  size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  for (const auto& glob : globs) {
    const std::string& subject = glob.find('/') != std::string::npos ? path : name;
    if (::fnmatch(glob.c_str(), subject.c_str(), 0) == 0) return true;
  }
  return false;
}

bool AssemblyFilter::selects(std::string_view path) const {
  if (!assemblies.empty() && !assembly_glob_match(assemblies, path)) return false;
  return !assembly_glob_match(skip_assemblies, path);
}

}  // namespace cil::md
