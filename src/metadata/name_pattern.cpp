// Iterative glob matching with single-star backtracking: linear memory, no recursion.
#include "metadata/name_pattern.h"

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

}  // namespace cil::md
