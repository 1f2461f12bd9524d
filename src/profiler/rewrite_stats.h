// What the profiler costs per JIT-compiled method: the time each rewrite took, summarized at
// shutdown as one JSON line when CIL_INSTRUMENT_STATS names a file.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace cil::profiler {

struct StatsSummary {
  uint64_t count = 0;
  double total = 0, median = 0, p99 = 0, max = 0;  ///< microseconds
};

/// Median and 99th percentile (nearest rank) of `samples`, which it sorts.
StatsSummary summarize(std::vector<double>& samples);

class RewriteStats {
 public:
  /// One rewritten method and how long its JIT callback took, in microseconds.
  void rewritten(double micros);
  /// One JIT callback for a method that was not rewritten (not selected, or refused).
  void passed(double micros);

  /// {"pid", "mode", "rewritten": {count, total_us, median_us, p99_us, max_us},
  ///  "passed": {...}}
  std::string json_line(int pid, std::string_view mode);

 private:
  std::mutex mutex_;
  std::vector<double> rewritten_, passed_;
};

/// Appends `line` and a newline to `path`; false when the file cannot be written.
bool append_line(const std::string& path, const std::string& line);

}  // namespace cil::profiler
