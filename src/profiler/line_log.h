// Text files the profiler writes line by line from any thread: the events and args logs, and
// the diagnostics file that says which methods were left as they were and why.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "support/error.h"

namespace cil::profiler {

/// A file opened (truncated) at creation, appended to under a lock, flushed by flush() and
/// when destroyed.
class LineLog {
 public:
  /// `flush_each_line`: every line reaches the file at once, so a crash loses none (the events
  /// log); otherwise lines are buffered (the args log, which can get millions).
  static Expected<std::unique_ptr<LineLog>> create(const std::string& path, bool flush_each_line);
  ~LineLog();
  LineLog(const LineLog&) = delete;
  LineLog& operator=(const LineLog&) = delete;

  /// Appends `text`, escaped as md::printable does, and a newline.
  void line(std::string_view text);
  void flush();
  const std::string& path() const { return path_; }
  /// Warnings go to a new file from now on (an attached profiler learns its output directory
  /// late, and each attach session has its own file).
  void set_path(std::string path);

 private:
  LineLog(std::string path, std::FILE* file, bool flush_each_line)
      : path_(std::move(path)), file_(file), flush_each_line_(flush_each_line) {}
  std::string path_;
  std::mutex mutex_;
  std::FILE* file_;
  bool flush_each_line_;
};

/// Warnings: the file is created on the first one, so a clean run leaves no file behind.
/// After kMaxWarnings lines, one last line says that the rest were dropped.
class Diagnostics {
 public:
  static constexpr size_t kMaxWarnings = 10000;
  explicit Diagnostics(std::string path) : path_(std::move(path)) {}
  ~Diagnostics();

  void warn(std::string_view message);
  void flush();
  size_t count() const;
  const std::string& path() const { return path_; }
  /// Warnings go to a new file from now on (an attached profiler learns its output directory
  /// late, and each attach session has its own file).
  void set_path(std::string path);

 private:
  std::string path_;
  mutable std::mutex mutex_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;  ///< the file could not be created: warnings are dropped
  size_t count_ = 0;
};

}  // namespace cil::profiler
