// What a profiled run left behind (see run_files.h).
#include "cli/results/run_files.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "instrument/runtime_contract.h"

namespace cil::cli {

namespace fs = std::filesystem;

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

/// cil-instrument.<pid>.<anything>: the profiler's logs and warnings.
bool profiler_log(const std::string& name) {
  constexpr std::string_view prefix = "cil-instrument.";
  if (name.rfind(prefix, 0) != 0) return false;
  size_t dot = name.find('.', prefix.size());
  if (name.ends_with(contract::kAttachStopSuffix)) return false;  // an attach's request to stop
  return dot != std::string::npos && all_digits(std::string_view(name).substr(prefix.size(), dot - prefix.size()));
}

}  // namespace

bool is_warnings_file(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  // cil-instrument.<pid>.log, or cil-instrument.<pid>.<tag>.log for an attach session.
  return profiler_log(name) && name.ends_with(".log") && !name.ends_with(".events.log") && !name.ends_with(".args.log");
}

bool is_session_record(const std::string& path) {
  return profiler_log(fs::path(path).filename().string()) && path.ends_with(contract::kAttachDoneSuffix);
}

std::string join_patterns(const std::vector<std::string>& patterns) {
  std::string out;
  for (const auto& pattern : patterns) {
    if (!out.empty()) out += contract::kPatternSeparator;
    out += pattern;
  }
  return out;
}

std::string profiler_library() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  fs::path lib = self.parent_path() / std::string(contract::kLibraryName);
  return fs::exists(lib, ec) ? lib.string() : "";
}

std::vector<std::string> profiler_files_since(const std::string& dir, fs::file_time_type since) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    bool ours = name.ends_with(contract::kCountsFileSuffix) || name.ends_with(contract::kHitsFileSuffix) || profiler_log(name);
    if (!ours || !entry.is_regular_file(ec)) continue;
    auto written = entry.last_write_time(ec);
    if (!ec && written >= since) found.push_back((fs::path(dir) / name).string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<pid_t> processes_with_environment(const std::string& variable, const std::string& value) {
  std::vector<pid_t> found;
  std::string wanted = variable + "=" + value;
  wanted.push_back('\0');
  std::error_code ec;
  pid_t self = getpid();
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::string name = entry.path().filename().string();
    if (!all_digits(name)) continue;
    pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == self) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);  // others' are unreadable: skipped
    if (!in) continue;
    std::string environment((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    environment.insert(environment.begin(), '\0');
    if (environment.find(std::string(1, '\0') + wanted) != std::string::npos) found.push_back(pid);
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace cil::cli
