// Locked, buffered line output.
#include "profiler/line_log.h"

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "metadata/text_encoding.h"

namespace cil::profiler {

namespace {
constexpr size_t kBufferSize = 1 << 16;
}

Expected<std::unique_ptr<LineLog>> LineLog::create(const std::string& path, bool flush_each_line) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) return make_error(ErrorKind::Io, "", fmt::format("cannot create '{}': {}", path, std::strerror(errno)));
  std::setvbuf(file, nullptr, _IOFBF, kBufferSize);
  return std::unique_ptr<LineLog>(new LineLog(path, file, flush_each_line));
}

LineLog::~LineLog() {
  std::lock_guard lock(mutex_);
  std::fclose(file_);
}

void LineLog::line(std::string_view raw) {
  // Names come from the program's metadata: a control character in one must not split the line
  // or reach the terminal of whoever reads the log.
  std::string text = md::printable(raw);
  std::lock_guard lock(mutex_);
  std::fwrite(text.data(), 1, text.size(), file_);
  std::fputc('\n', file_);
  if (flush_each_line_) std::fflush(file_);
}

void LineLog::flush() {
  std::lock_guard lock(mutex_);
  std::fflush(file_);
}

Diagnostics::~Diagnostics() {
  std::lock_guard lock(mutex_);
  if (file_) std::fclose(file_);
}

void Diagnostics::warn(std::string_view message) {
  std::lock_guard lock(mutex_);
  ++count_;
  if (failed_ || count_ > kMaxWarnings + 1) return;
  if (!file_) {
    file_ = std::fopen(path_.c_str(), "w");
    if (!file_) {
      failed_ = true;
      return;
    }
  }
  if (count_ == kMaxWarnings + 1) {
    std::fputs("warning: further warnings dropped\n", file_);
    return;
  }
  std::string line = fmt::format("warning: {}\n", md::printable(message));
  std::fwrite(line.data(), 1, line.size(), file_);
}

void Diagnostics::set_path(std::string path) {
  std::lock_guard lock(mutex_);
  if (file_) std::fclose(file_);
  file_ = nullptr;
  failed_ = false;
  count_ = 0;
  path_ = std::move(path);
}

void Diagnostics::flush() {
  std::lock_guard lock(mutex_);
  if (file_) std::fflush(file_);
}

size_t Diagnostics::count() const {
  std::lock_guard lock(mutex_);
  return count_;
}

}  // namespace cil::profiler
