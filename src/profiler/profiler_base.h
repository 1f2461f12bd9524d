// What every mode shares: Initialize (the runtime's interfaces, the checks that decide whether
// the profiler loads, the event mask), Shutdown, the module table, the diagnostics file, and
// the rule that no callback lets a C++ exception reach the runtime.
#pragma once

#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "profiler/callback_base.h"
#include "profiler/com_ptr.h"
#include "profiler/config.h"
#include "profiler/line_log.h"
#include "profiler/module_table.h"
#include "profiler/rewrite_stats.h"

namespace cil::profiler {

/// Prints "cil-instrument: profiler not loaded: <reason>" on stderr and returns the HRESULT
/// with which Initialize declines.
HRESULT decline(std::string_view reason);

/// Loaded when the configuration is bad: Initialize prints why and declines.
class DecliningProfiler final : public CallbackBase {
 public:
  explicit DecliningProfiler(std::string reason) : reason_(std::move(reason)) {}
  HRESULT Initialize(IUnknown*) override { return decline(reason_); }

 private:
  std::string reason_;
};

class ProfilerBase : public CallbackBase {
 public:
  explicit ProfilerBase(Config config);

  HRESULT Initialize(IUnknown* info) final;
  HRESULT Shutdown() final;

 protected:
  /// The event mask, low and high words.
  virtual std::pair<DWORD, DWORD> event_mask() const = 0;
  /// Mode setup once the event mask is set (open logs, set hooks); an error declines.
  virtual Status start() = 0;
  /// At Shutdown: write what the mode collected.
  virtual void finish() = 0;
  /// On SIGTERM, SIGINT or SIGQUIT (`signal`), before the signal ends the process, and every
  /// CIL_INSTRUMENT_FLUSH_SECONDS (`signal` 0), from the signal writer's thread: write what the
  /// mode collected so far, complete, while the program may still run. By default finish().
  virtual void save(int signal) { (void)signal; finish(); }
  /// save() or finish() under one lock: a writer never runs beside another.
  void write_files(int signal);

  /// Runs `fn`, turning any C++ exception into a diagnostic; callbacks always return S_OK.
  template <class Fn>
  HRESULT guarded(const char* callback, Fn&& fn) noexcept {
    try {
      fn();
    } catch (const std::exception& e) {
      failed(callback, e.what());
    } catch (...) {
      failed(callback, "unknown exception");
    }
    return S_OK;
  }
  void failed(const char* callback, const char* what) noexcept;

  /// <output>/cil-instrument.<pid>.<suffix>
  std::string output_file(std::string_view suffix) const;

  ICorProfilerInfo5* info() const { return info_.get(); }

  /// The module is the framework's (framework_modules.h) and the framework is not selected
  /// (CIL_INSTRUMENT_FRAMEWORK): its methods are never instrumented, its precompiled code stays.
  bool framework_left_out(const ModuleEntry& entry) const;

  Config config_;
  std::string runtime_dir_;  ///< libcoreclr.so's directory
  int pid_ = 0;
  std::unique_ptr<ModuleTable> modules_;
  Diagnostics diagnostics_;
  RewriteStats stats_;

 private:
  ComPtr<ICorProfilerInfo5> info_;
  std::mutex write_mutex_;
};

}  // namespace cil::profiler
