// Environment variables in, a checked Config out.
#include "profiler/config.h"

#include <algorithm>

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "instrument/runtime_contract.h"

namespace cil::profiler {

using namespace cil::contract;

namespace {

Error config_error(std::string message) { return make_error(ErrorKind::Usage, "", std::move(message)); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

unsigned flush_period(const char* text) {
  if (!text) return 0;
  std::string_view t = trim(text);
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  if (t.empty() || t.size() > 12) return 0;
  uint64_t value = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return 0;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  // Int32.TryParse's range, as offline count mode's helper parses it.
  if (value == 0 || value > 0x7FFFFFFFu) return 0;
  return static_cast<unsigned>(std::min<uint64_t>(value, kMaxFlushSeconds));
}

bool parse_decimal(std::string_view text, uint64_t& out) {
  if (text.empty() || text.size() > 12) return false;
  out = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::Count: return "count";
    case Mode::Events: return "events";
    case Mode::Args: return "args";
    case Mode::Coverage: return "coverage";
    case Mode::Trace: return "trace";
  }
  return "?";
}

std::vector<std::string> split_patterns(std::string_view text) {
  std::vector<std::string> out;
  while (true) {
    size_t cut = text.find(kPatternSeparator);
    std::string_view item = trim(text.substr(0, cut));
    if (!item.empty()) out.emplace_back(item);
    if (cut == std::string_view::npos) break;
    text.remove_prefix(cut + 1);
  }
  return out;
}

Expected<Config> read_config(const EnvLookup& lookup, std::string_view working_dir) {
  Config config;
  if (const char* mode = lookup(kEnvMode); mode && *mode) {
    std::string_view m = mode;
    if (m == "count") config.mode = Mode::Count;
    else if (m == "events") config.mode = Mode::Events;
    else if (m == "args") config.mode = Mode::Args;
    else if (m == "coverage") config.mode = Mode::Coverage;
    else if (m == "trace") config.mode = Mode::Trace;
    else return config_error(fmt::format("{}: unknown mode '{}' (count, events, args, coverage or trace)", kEnvMode, m));
  }
  if (config.mode == Mode::Trace) {
    const char* hooks = lookup(kEnvHooks);
    if (!hooks || !*hooks) return config_error(fmt::format("{} is not set: trace mode needs the hooks assembly", kEnvHooks));
    config.hooks_path = hooks;
    if (const char* type = lookup(kEnvHookType)) config.hook_type = type;
  }
  if (const char* include = lookup(kEnvInclude)) config.filter.include = split_patterns(include);
  if (const char* exclude = lookup(kEnvExclude)) config.filter.exclude = split_patterns(exclude);
  if (const char* globs = lookup(kEnvAssemblies)) config.assemblies.assemblies = split_patterns(globs);
  if (const char* globs = lookup(kEnvSkipAssemblies)) config.assemblies.skip_assemblies = split_patterns(globs);
  if (const char* root = lookup(kEnvSourceRoot); root && *root) {
    config.source_root = root;
    if (config.source_root.front() != '/')
      return config_error(fmt::format("{}: '{}' is not an absolute path", kEnvSourceRoot, config.source_root));
    while (config.source_root.size() > 1 && config.source_root.back() == '/') config.source_root.pop_back();
  }
  if (const char* counts = lookup(kEnvHitCounts)) config.hit_counts = std::string_view(counts) == "1";
  const char* output = lookup(kEnvOutput);
  config.output_dir = output && *output ? std::string(output) : std::string(working_dir);
  if (config.output_dir.empty()) return config_error(fmt::format("{} is not set and the working directory is unknown", kEnvOutput));
  while (config.output_dir.size() > 1 && config.output_dir.back() == '/') config.output_dir.pop_back();
  if (const char* stats = lookup(kEnvStats)) config.stats_path = stats;
  config.flush_seconds = flush_period(lookup(kEnvFlushSeconds));
  if (const char* framework = lookup(kEnvFramework)) config.framework_selected = std::string_view(framework) == "1";
  if (const char* window = lookup(kEnvWindow); window && *window) {
    std::string_view w = window;
    size_t colon = w.find(':');
    if (colon == std::string_view::npos || !parse_decimal(w.substr(0, colon), config.window_start_ms) ||
        !parse_decimal(w.substr(colon + 1), config.window_end_ms) ||
        (config.window_end_ms && config.window_end_ms <= config.window_start_ms))
      return config_error(fmt::format("{}: '{}' is not START:END in milliseconds with END 0 or after START", kEnvWindow, w));
    if (config.mode != Mode::Count && config.mode != Mode::Coverage && config.mode != Mode::Trace)
      return config_error(fmt::format("{}: a window is for count, coverage and trace modes, not {}", kEnvWindow, mode_name(config.mode)));
    config.window_set = true;
  }
  return config;
}

Status check_output_dir(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return make_error(ErrorKind::Io, "", fmt::format("{}: '{}' is not a directory", kEnvOutput, dir));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return make_error(ErrorKind::Io, "", fmt::format("{}: '{}' is not writable", kEnvOutput, dir));
  return ok();
}

}  // namespace cil::profiler
