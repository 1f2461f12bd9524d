// Sample collection and percentiles.
#include "profiler/rewrite_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace cil::profiler {

StatsSummary summarize(std::vector<double>& samples) {
  StatsSummary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  for (double v : samples) s.total += v;
  auto rank = [&](double p) {
    size_t r = static_cast<size_t>(std::ceil(p * static_cast<double>(samples.size())));
    return samples[std::clamp<size_t>(r, 1, samples.size()) - 1];
  };
  s.median = rank(0.5);
  s.p99 = rank(0.99);
  s.max = samples.back();
  return s;
}

void RewriteStats::rewritten(double micros) {
  std::lock_guard lock(mutex_);
  rewritten_.push_back(micros);
}

void RewriteStats::passed(double micros) {
  std::lock_guard lock(mutex_);
  passed_.push_back(micros);
}

std::string RewriteStats::json_line(int pid, std::string_view mode) {
  std::lock_guard lock(mutex_);
  auto part = [](std::vector<double>& samples) {
    StatsSummary s = summarize(samples);
    return fmt::format("{{\"count\": {}, \"total_us\": {:.1f}, \"median_us\": {:.2f}, \"p99_us\": {:.2f}, \"max_us\": {:.2f}}}",
                       s.count, s.total, s.median, s.p99, s.max);
  };
  return fmt::format("{{\"pid\": {}, \"mode\": \"{}\", \"rewritten\": {}, \"passed\": {}}}", pid, mode, part(rewritten_),
                     part(passed_));
}

bool append_line(const std::string& path, const std::string& line) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) return false;
  bool ok = std::fwrite(line.data(), 1, line.size(), f) == line.size() && std::fputc('\n', f) != EOF;
  return std::fclose(f) == 0 && ok;
}

}  // namespace cil::profiler
