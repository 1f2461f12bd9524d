// `report --path-map` and `--source-root`: prefix matching on whole path components.
#include "cli/results/source_paths.h"

#include <fmt/format.h>

namespace cil::cli {

namespace {

bool is_separator(char c) { return c == '/' || c == '\\'; }

/// `path` without trailing separators, except a root that is only separators ("/").
std::string_view without_trailing_separators(std::string_view path) {
  size_t end = path.size();
  while (end > 1 && is_separator(path[end - 1])) --end;
  return path.substr(0, end);
}

/// The rest of `path` after `prefix` (starting at a separator, or empty for `path` itself), when
/// `prefix` ends on a component boundary of `path`: /src matches /src and /src/a.cs, not /srcx.
std::optional<std::string_view> after_prefix(std::string_view path, std::string_view prefix) {
  prefix = without_trailing_separators(prefix);
  if (!path.starts_with(prefix)) return std::nullopt;
  std::string_view rest = path.substr(prefix.size());
  if (!rest.empty() && !is_separator(rest.front()) && !is_separator(prefix.back())) return std::nullopt;
  return rest;
}

}  // namespace

Status PathMap::add(std::string_view mapping) {
  size_t eq = mapping.find('=');
  if (eq == std::string_view::npos)
    return make_error(ErrorKind::Usage, "", fmt::format("--path-map needs FROM=TO, not '{}'", mapping));
  if (eq == 0) return make_error(ErrorKind::Usage, "", fmt::format("--path-map needs a FROM before '=', not '{}'", mapping));
  rules_.push_back({std::string(mapping.substr(0, eq)), std::string(mapping.substr(eq + 1))});
  return {};
}

std::string PathMap::apply(std::string_view path) const {
  const Rule* best = nullptr;
  std::string_view best_rest;
  size_t best_length = 0;
  for (const Rule& rule : rules_) {
    size_t length = without_trailing_separators(rule.from).size();
    if (best && length <= best_length) continue;
    if (auto rest = after_prefix(path, rule.from)) {
      best = &rule;
      best_rest = *rest;
      best_length = length;
    }
  }
  if (!best) return std::string(path);
  // An empty TO leaves the path relative: no leading separator.
  std::string_view to = without_trailing_separators(best->to);
  if (to.empty())
    while (!best_rest.empty() && is_separator(best_rest.front())) best_rest.remove_prefix(1);
  size_t last = best->to.find_last_of("/\\");
  char separator = last == std::string::npos ? '/' : best->to[last];
  std::string out(to);
  if (!out.empty() && is_separator(out.back()) && !best_rest.empty()) best_rest.remove_prefix(1);  // TO is "/"
  for (char c : best_rest) out += is_separator(c) ? separator : c;
  return out;
}

std::optional<std::string> relative_to(std::string_view path, std::string_view root) {
  auto rest = after_prefix(path, root);
  if (!rest) return std::nullopt;
  while (!rest->empty() && is_separator(rest->front())) rest->remove_prefix(1);
  if (rest->empty()) return std::nullopt;
  return std::string(*rest);
}

}  // namespace cil::cli
