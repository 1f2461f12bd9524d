// Initialize and Shutdown, shared by the three modes.
#include "profiler/profiler_base.h"

#include "profiler/framework_modules.h"

#include <cstdio>

#include <unistd.h>

#include <fmt/format.h>

#include "metadata/text_encoding.h"
#include "profiler/signal_writer.h"

namespace cil::profiler {

HRESULT decline(std::string_view reason) {
  std::string line = fmt::format("cil-instrument: profiler not loaded: {}\n", md::printable(reason, 4000));
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return CORPROF_E_PROFILER_CANCEL_ACTIVATION;
}

ProfilerBase::ProfilerBase(Config config)
    : config_(std::move(config)),
      pid_(static_cast<int>(::getpid())),
      diagnostics_(fmt::format("{}/cil-instrument.{}.log", config_.output_dir, pid_)) {}

bool ProfilerBase::framework_left_out(const ModuleEntry& entry) const {
  return !config_.framework_selected && framework_module(entry.path, runtime_dir_);
}

std::string ProfilerBase::output_file(std::string_view suffix) const {
  return fmt::format("{}/cil-instrument.{}.{}", config_.output_dir, pid_, suffix);
}

void ProfilerBase::failed(const char* callback, const char* what) noexcept {
  try {
    diagnostics_.warn(fmt::format("{}: {}", callback, what));
  } catch (...) {
  }
}

HRESULT ProfilerBase::Initialize(IUnknown* unknown) {
  try {
    if (!unknown || FAILED(unknown->QueryInterface(IID_ICorProfilerInfo5, info_.out_void())))
      return decline("the runtime does not offer ICorProfilerInfo5 (.NET Core 2.0 or later is needed)");
    if (Status dir = check_output_dir(config_.output_dir); !dir) return decline(dir.error().message);
    modules_ = std::make_unique<ModuleTable>(info_.get());
    runtime_dir_ = runtime_directory();
    auto [low, high] = event_mask();
    if (HRESULT hr = info_->SetEventMask2(low, high); FAILED(hr))
      return decline(fmt::format("the runtime refused the event mask 0x{:08X}/0x{:08X} (HRESULT 0x{:08X})", low, high,
                                 static_cast<uint32_t>(hr)));
    if (Status started = start(); !started) return decline(started.error().message);
    // After start(): the mode's files exist. A failure costs the signal endings only.
    if (Status writer = SignalWriter::start([this](int signal) { write_files(signal); }, config_.flush_seconds); !writer)
      diagnostics_.warn(fmt::format("files are not written on SIGTERM, SIGINT or SIGQUIT: {}", writer.error().message));
    return S_OK;
  } catch (const std::exception& e) {
    return decline(e.what());
  } catch (...) {
    return decline("unknown exception");
  }
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
    {
      std::lock_guard lock(write_mutex_);
      finish();
    }
    if (!config_.stats_path.empty()) {
      std::string line = stats_.json_line(pid_, mode_name(config_.mode));
      if (!append_line(config_.stats_path, line))
        diagnostics_.warn(fmt::format("cannot append the rewrite statistics to '{}'", config_.stats_path));
    }
    diagnostics_.flush();
  });
}

}  // namespace cil::profiler
