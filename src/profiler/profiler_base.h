// What every mode shares: Initialize (the runtime's interfaces, the checks that decide whether
// the profiler loads, the event mask), Shutdown, the module table, the diagnostics file, and
// the rule that no callback lets a C++ exception reach the runtime.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "profiler/attach_session.h"
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
  /// `cil-instrument attach`: the settings come from the client data; the event mask keeps what
  /// the runtime allows after attach (and ReJIT when the mode rewrites methods).
  HRESULT InitializeForAttach(IUnknown* info, void* data, UINT size) final;
  /// Starts the session's thread: begin_session, wait for the end, end_session, the files, the
  /// done marker, then RequestProfilerDetach.
  HRESULT ProfilerAttachComplete() final;
  HRESULT Shutdown() final;

 protected:
  /// The event mask, low and high words.
  virtual std::pair<DWORD, DWORD> event_mask() const = 0;
  /// Mode setup once the event mask is set (open logs, set hooks); an error declines.
  virtual Status start() = 0;
  /// At Shutdown: write what the mode collected.
  virtual void finish() = 0;
  /// Attached: the mode rewrites methods, through ReJIT (COR_PRF_ENABLE_REJIT is asked for).
  virtual bool uses_rejit() const { return false; }
  /// Attached, on the session's thread: put the probes in (RequestReJIT); a summary for the done
  /// marker ("rejit N").
  virtual std::string begin_session() { return ""; }
  /// Attached, on the session's thread, every few milliseconds while the session runs.
  virtual void session_tick() {}
  /// Attached, on the session's thread: take the probes out (RequestRevert); a summary line.
  virtual std::string end_session() { return ""; }
  /// Attached: the mode cannot go on (checked after each tick); end_session says why.
  virtual bool session_failed() const { return false; }
  /// Whether a session in `mode` can run on this profiler (its class is chosen by the class id).
  virtual bool accepts_mode(Mode mode) const { return mode == config_.mode; }
  /// Before a later session on a profiler left loaded: forget the earlier session's methods.
  virtual void reset_session_state() {}
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

  /// <output>/cil-instrument.<file id>.<suffix>
  std::string output_file(std::string_view suffix) const;
  /// The process id, then the session's tag when attached: the files of two sessions in one
  /// process never share a name.
  const std::string& file_id() const { return file_id_; }
  bool attached() const { return attached_; }
  /// Probes go in and out through ReJIT (attached, or `run --window`), not at first JIT.
  bool rejit_mode() const { return attached_ || config_.window_set; }
  /// In Shutdown (the process ends), not at the end of an attach session.
  bool shutting_down() const { return shut_down_; }

  ICorProfilerInfo5* info() const { return info_.get(); }

  /// The module's methods are never instrumented: it is the framework's (framework_modules.h)
  /// and the framework is not selected (CIL_INSTRUMENT_FRAMEWORK; its precompiled code stays), or
  /// its file is not chosen by CIL_INSTRUMENT_ASSEMBLIES / CIL_INSTRUMENT_SKIP_ASSEMBLIES.
  bool module_left_out(const ModuleEntry& entry) const;

  Config config_;
  std::string runtime_dir_;  ///< libcoreclr.so's directory
  int pid_ = 0;
  std::unique_ptr<ModuleTable> modules_;
  Diagnostics diagnostics_;
  RewriteStats stats_;

 private:
  /// Initialize's work, shared with InitializeForAttach.
  HRESULT start_profiler(IUnknown* unknown);
  /// The attach session's thread.
  void run_session();
  /// `run --window`'s thread: begin_session at the start, end_session at the end, the window's
  /// record; the files are written at shutdown as usual.
  void run_window();
  /// The session record's window lines.
  static std::string window_lines(uint64_t start, uint64_t full, uint64_t end, uint64_t closed, uint64_t written);
  /// Appends the rewrite statistics to CIL_INSTRUMENT_STATS's file, when it names one.
  void write_stats();
  /// Writes the session's record, cil-instrument.<file id>.session.
  void write_record(std::string_view text);
  /// Writes the session's record (once per session).
  void mark_done(std::string_view summary);
  /// Settings of a session from the client data; "" or why they are refused.
  std::string take_attach_data(std::string_view data);
  /// The event mask of an attached session.
  HRESULT set_attached_mask();
  /// After a session that used ReJIT (the runtime refuses such a profiler's detach): no probe and
  /// no callback any more; the next attach comes through listen_for_attach.
  void go_dormant();
  /// A later attach to the process, from the listener's thread: "" or why not.
  std::string re_arm(std::string_view data);

  ComPtr<ICorProfilerInfo5> info_;
  std::mutex write_mutex_;
  bool attached_ = false;
  AttachSettings attach_;
  std::string file_id_;
  std::atomic<bool> shut_down_{false};
  std::atomic<bool> marked_done_{false};
  std::atomic<bool> session_running_{false};
  /// `run --window`: the record's lines up to the window's start while it is open (under
  /// write_mutex_), for Shutdown when the process ends inside it.
  std::string window_open_;
};

}  // namespace cil::profiler
