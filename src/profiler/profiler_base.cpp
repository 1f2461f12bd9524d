// Initialize and Shutdown, shared by the three modes.
#include "profiler/profiler_base.h"

#include "profiler/framework_modules.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include <dlfcn.h>
#include <time.h>
#include <unistd.h>

#include <fmt/format.h>

#include "instrument/runtime_contract.h"
#include "metadata/text_encoding.h"
#include "support/file_io.h"
#include "profiler/signal_writer.h"

namespace cil::profiler {

namespace {

/// Between the revert and the reading of the counts.
constexpr int kSettleMs = 200;

uint64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace

HRESULT decline(std::string_view reason) {
  std::string line = fmt::format("cil-instrument: profiler not loaded: {}\n", md::printable(reason, 4000));
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return CORPROF_E_PROFILER_CANCEL_ACTIVATION;
}

ProfilerBase::ProfilerBase(Config config)
    : config_(std::move(config)),
      pid_(static_cast<int>(::getpid())),
      diagnostics_(fmt::format("{}/cil-instrument.{}.log", config_.output_dir, pid_)),
      file_id_(std::to_string(pid_)) {}

bool ProfilerBase::module_left_out(const ModuleEntry& entry) const {
  if (!config_.framework_selected && framework_module(entry.path, runtime_dir_)) return true;
  return !config_.assemblies.empty() && !config_.assemblies.selects(entry.path.empty() ? entry.name : entry.path);
}

std::string ProfilerBase::output_file(std::string_view suffix) const {
  return fmt::format("{}/cil-instrument.{}.{}", config_.output_dir, file_id_, suffix);
}

void ProfilerBase::failed(const char* callback, const char* what) noexcept {
  try {
    diagnostics_.warn(fmt::format("{}: {}", callback, what));
  } catch (...) {
  }
}

HRESULT ProfilerBase::Initialize(IUnknown* unknown) {
  try {
    return start_profiler(unknown);
  } catch (const std::exception& e) {
    return decline(e.what());
  } catch (...) {
    return decline("unknown exception");
  }
}

HRESULT ProfilerBase::InitializeForAttach(IUnknown* unknown, void* data, UINT size) {
  try {
    std::string_view text(static_cast<const char*>(data), data ? size : 0);
    if (std::string refusal = take_attach_data(text); !refusal.empty()) return decline(refusal);
    // The runtime unloads the library after the detach; instrumented code still running on
    // another thread may count into its memory then, and the signal writer's thread stays: the
    // library stays mapped for the life of the process (a later attach reuses it).
    Dl_info self{};
    if (::dladdr(reinterpret_cast<void*>(&decline), &self) && self.dli_fname)
      ::dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return start_profiler(unknown);
  } catch (const std::exception& e) {
    return decline(e.what());
  } catch (...) {
    return decline("unknown exception");
  }
}

HRESULT ProfilerBase::start_profiler(IUnknown* unknown) {
  if (!unknown || FAILED(unknown->QueryInterface(IID_ICorProfilerInfo5, info_.out_void())))
    return decline("the runtime does not offer ICorProfilerInfo5 (.NET Core 2.0 or later is needed)");
  if (Status dir = check_output_dir(config_.output_dir); !dir) return decline(dir.error().message);
  modules_ = std::make_unique<ModuleTable>(info_.get());
  runtime_dir_ = runtime_directory();
  auto [low, high] = event_mask();
  if (config_.window_set && uses_rejit()) low |= COR_PRF_ENABLE_REJIT;
  HRESULT hr = attached_ ? set_attached_mask() : info_->SetEventMask2(low, high);
  if (FAILED(hr))
    return decline(fmt::format("the runtime refused the event mask 0x{:08X}/0x{:08X} (HRESULT 0x{:08X})", low, high,
                               static_cast<uint32_t>(hr)));
  if (Status started = start(); !started) return decline(started.error().message);
  if (config_.window_set && !attached_) {
    AddRef();  // released when the window's thread ends
    try {
      std::thread([this] { run_window(); }).detach();
    } catch (...) {
      Release();
      return decline("cannot start the window's thread");
    }
  }
  // After start(): the mode's files exist. A failure costs the signal endings only.
  if (Status writer = SignalWriter::start([this](int signal) { write_files(signal); }, config_.flush_seconds); !writer)
    diagnostics_.warn(fmt::format("files are not written on SIGTERM, SIGINT or SIGQUIT: {}", writer.error().message));
  return S_OK;
}

std::string ProfilerBase::take_attach_data(std::string_view data) {
  auto settings = read_attach_data(data);
  if (!settings) return settings.error().message;
  if (!accepts_mode(settings->first.mode))
    return fmt::format("this profiler, loaded for {} mode, cannot run a session in {} mode", mode_name(config_.mode),
                       mode_name(settings->first.mode));
  if (Status dir = check_output_dir(settings->first.output_dir); !dir) return dir.error().message;
  config_ = std::move(settings->first);
  attach_ = std::move(settings->second);
  attached_ = true;
  file_id_ = fmt::format("{}.{}", pid_, attach_.tag);
  diagnostics_.set_path(output_file("log"));
  marked_done_ = false;
  return "";
}

HRESULT ProfilerBase::set_attached_mask() {
  auto [low, high] = event_mask();
  // What the runtime refuses after attach is left out; ReJIT stands in for JIT-time rewriting.
  low &= COR_PRF_ALLOWABLE_AFTER_ATTACH;
  high &= COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH;
  if (uses_rejit()) low |= COR_PRF_ENABLE_REJIT;
  return info_->SetEventMask2(low, high);
}

void ProfilerBase::go_dormant() {
  // ReJIT stays enabled (the next session needs it); no callback comes.
  if (HRESULT hr = info_->SetEventMask2(COR_PRF_ENABLE_REJIT, 0); FAILED(hr))
    diagnostics_.warn(fmt::format("cannot quiet the profiler's callbacks (HRESULT 0x{:08X})", static_cast<uint32_t>(hr)));
  Status listening = listen_for_attach([this](std::string_view data) { return re_arm(data); });
  if (!listening) diagnostics_.warn(fmt::format("a later attach to this process will fail: {}", listening.error().message));
  diagnostics_.flush();
}

std::string ProfilerBase::re_arm(std::string_view data) {
  if (shut_down_) return "the process is ending";
  if (session_running_.exchange(true)) return "a session runs already";
  std::string refusal;
  {
    std::lock_guard lock(write_mutex_);
    refusal = take_attach_data(data);
    if (refusal.empty()) {
      reset_session_state();
      if (HRESULT hr = set_attached_mask(); FAILED(hr))
        refusal = fmt::format("the runtime refused the event mask (HRESULT 0x{:08X})", static_cast<uint32_t>(hr));
    }
  }
  if (refusal.empty()) {
    if (Status writer = SignalWriter::start([this](int signal) { write_files(signal); }, config_.flush_seconds); !writer)
      diagnostics_.warn(fmt::format("files are not written on SIGTERM, SIGINT or SIGQUIT: {}", writer.error().message));
    try {
      std::thread([this] { run_session(); }).detach();
    } catch (const std::exception& e) {
      refusal = fmt::format("cannot start the session: {}", e.what());
    }
  }
  if (!refusal.empty()) session_running_ = false;
  return refusal;
}

HRESULT ProfilerBase::ProfilerAttachComplete() {
  return guarded("ProfilerAttachComplete", [&] {
    // The thread holds a reference: the runtime releases the profiler after the detach, which
    // the thread asks for last.
    AddRef();
    session_running_ = true;
    try {
      std::thread([this] { run_session(); }).detach();
    } catch (...) {
      Release();
      throw;
    }
  });
}

void ProfilerBase::run_session() {
  info_->InitializeCurrentThread();
  std::string summary;
  uint64_t window_start = monotonic_ns();
  guarded("begin_session", [&] { summary = begin_session(); });
  uint64_t window_full = monotonic_ns();
  SessionWatch watch(attach_, output_file(contract::kAttachStopSuffix.substr(1)));
  SessionEnd end = SessionEnd::Running;
  while (!shut_down_ && (end = watch.poll()) == SessionEnd::Running) {
    guarded("session", [&] { session_tick(); });
    if (session_failed()) {
      end = SessionEnd::Failed;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (shut_down_) return;  // Shutdown wrote the files and the record; the process ends
  std::string ended;
  uint64_t window_end = monotonic_ns();
  guarded("end_session", [&] { ended = end_session(); });
  uint64_t window_closed = monotonic_ns();
  // The counts are read a moment after the revert: a probe that still ran would show there.
  if (uses_rejit()) std::this_thread::sleep_for(std::chrono::milliseconds(kSettleMs));
  // From here no signal or periodic write: the library's object goes with the detach.
  SignalWriter::stop();
  {
    std::lock_guard lock(write_mutex_);
    try {
      finish();
    } catch (const std::exception& e) {
      failed("writing the files", e.what());
    }
  }
  uint64_t written = monotonic_ns();
  write_stats();
  diagnostics_.flush();
  // The window's edges, CLOCK_MONOTONIC: probes were asked for from start (RequestReJIT) and
  // were all in at full; the revert began at end and was done at closed; the files were read at
  // written.
  mark_done(fmt::format("end {}\nprofiler {}\n{}{}window-start-ns {}\nwindow-full-ns {}\nwindow-end-ns {}\nwindow-closed-ns {}\n"
                        "written-ns {}\n", session_end_name(end), uses_rejit() ? "left-loaded" : "detached", summary, ended, window_start, window_full, window_end,
                        window_closed, written));
  if (uses_rejit()) {
    // The runtime never detaches a profiler that enabled ReJIT (CORPROF_E_IRREVERSIBLE_
    // INSTRUMENTATION_PRESENT): it stays, holding its reference, for the next attach (taken only
    // once it is quiet).
    go_dormant();
    session_running_ = false;
    return;
  }
  session_running_ = false;
  // Done with the runtime: the detach completes once no callback runs, and the runtime then
  // releases the profiler.
  HRESULT hr = info_->RequestProfilerDetach(500);
  if (FAILED(hr)) {
    diagnostics_.warn(fmt::format("the runtime refused to detach the profiler (HRESULT 0x{:08X}); it stays loaded, inactive",
                                  static_cast<uint32_t>(hr)));
    diagnostics_.flush();
  }
  Release();
}

std::string ProfilerBase::window_lines(uint64_t start, uint64_t full, uint64_t end, uint64_t closed, uint64_t written) {
  return fmt::format("window-start-ns {}\nwindow-full-ns {}\nwindow-end-ns {}\nwindow-closed-ns {}\nwritten-ns {}\n", start, full,
                     end, closed, written);
}

void ProfilerBase::run_window() {
  using namespace std::chrono;
  auto loaded = steady_clock::now();
  auto wait_until = [&](steady_clock::time_point when) {
    while (!shut_down_ && steady_clock::now() < when) {
      guarded("window", [&] { session_tick(); });
      std::this_thread::sleep_for(milliseconds(10));
    }
    return !shut_down_;
  };
  if (!wait_until(loaded + milliseconds(config_.window_start_ms))) {
    Release();
    return;
  }
  info_->InitializeCurrentThread();
  uint64_t start = monotonic_ns();
  std::string summary;
  guarded("begin_session", [&] { summary = begin_session(); });
  uint64_t full = monotonic_ns();
  {
    std::lock_guard lock(write_mutex_);
    window_open_ = fmt::format("{}{}", summary, window_lines(start, full, 0, 0, 0));
  }
  bool ended = config_.window_end_ms ? wait_until(loaded + milliseconds(config_.window_end_ms))
                                     : wait_until(steady_clock::time_point::max());
  if (!ended) {
    // The process ends inside the window: Shutdown writes its record, with the files.
    Release();
    return;
  }
  uint64_t end = monotonic_ns();
  std::string reverted;
  guarded("end_session", [&] { reverted = end_session(); });
  uint64_t closed = monotonic_ns();
  {
    std::lock_guard lock(write_mutex_);
    window_open_.clear();
  }
  write_record(fmt::format("end window\n{}{}{}", summary, reverted, window_lines(start, full, end, closed, closed)));
  Release();
}

void ProfilerBase::write_stats() {
  if (config_.stats_path.empty()) return;
  std::string line = stats_.json_line(pid_, mode_name(config_.mode));
  if (!append_line(config_.stats_path, line))
    diagnostics_.warn(fmt::format("cannot append the rewrite statistics to '{}'", config_.stats_path));
}

void ProfilerBase::write_record(std::string_view text) {
  std::string path = output_file(contract::kAttachDoneSuffix.substr(1));
  Status written = write_file_atomic(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  if (!written) diagnostics_.warn(fmt::format("cannot write {}: {}", path, written.error().to_string()));
}

void ProfilerBase::mark_done(std::string_view summary) {
  if (!attached_ || marked_done_.exchange(true)) return;
  std::string path = output_file(contract::kAttachDoneSuffix.substr(1));
  std::string text = fmt::format("{}warnings {}\n", summary, diagnostics_.count());
  Status written = write_file_atomic(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  if (!written) diagnostics_.warn(fmt::format("cannot write {}: {}", path, written.error().to_string()));
}

void ProfilerBase::write_files(int signal) {
  try {
    std::lock_guard lock(write_mutex_);
    save(signal);
  } catch (const std::exception& e) {
    failed(signal ? SignalWriter::name(signal) : "periodic write", e.what());
  } catch (...) {
    failed(signal ? SignalWriter::name(signal) : "periodic write", "unknown exception");
  }
}

HRESULT ProfilerBase::Shutdown() {
  return guarded("Shutdown", [&] {
    // No signal or periodic write from here on: the runtime may release the profiler after this.
    SignalWriter::stop();
    shut_down_ = true;
    // A profiler left loaded after its attach session wrote its files then; writing them again
    // at exit would bring back files the user may have moved away since.
    bool dormant = attached_ && !session_running_;
    if (!dormant) {
      std::lock_guard lock(write_mutex_);
      finish();
    }
    // The process ends during an attach session: its files are written, the session is over.
    mark_done("end process-exit\n");
    // ... or inside a `run` window (--start-after): the probes were in to the end.
    std::string open_window;
    {
      std::lock_guard lock(write_mutex_);
      open_window.swap(window_open_);
    }
    if (!open_window.empty()) {
      uint64_t now = monotonic_ns();
      std::string lines = open_window.substr(0, open_window.find("window-end-ns"));
      write_record(fmt::format("end process-exit\n{}window-end-ns {}\nwindow-closed-ns {}\nwritten-ns {}\n", lines, now, now, now));
    }
    write_stats();
    diagnostics_.flush();
    remove_attach_socket();  // no attach after this
  });
}

}  // namespace cil::profiler
