// A process's start time from /proc/PID/stat and /proc/stat.
#include "support/process_start.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include <fmt/format.h>

namespace cil {

unsigned long long process_start_ticks(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name may hold spaces and parentheses: fields count from the last ')'.
  size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  size_t at = close + 2;
  for (int field = 3; field < 22 && at < stat.size(); ++field) {
    at = stat.find(' ', at);
    if (at == std::string::npos) return 0;
    ++at;
  }
  if (at >= stat.size()) return 0;
  return std::strtoull(stat.c_str() + at, nullptr, 10);
}

double process_start_epoch(pid_t pid) {
  unsigned long long ticks = process_start_ticks(pid);
  if (!ticks) return 0;
  std::ifstream boot_in("/proc/stat");
  std::string line;
  unsigned long long boot = 0;
  while (std::getline(boot_in, line))
    if (line.rfind("btime ", 0) == 0) boot = std::strtoull(line.c_str() + 6, nullptr, 10);
  long hz = ::sysconf(_SC_CLK_TCK);
  if (!boot || hz <= 0) return 0;
  return static_cast<double>(boot) + static_cast<double>(ticks) / static_cast<double>(hz);
}

}  // namespace cil
