// `cil-instrument attach PID [--mode count|events|coverage|trace] [--hooks H [--hook-type T]]
// [--include P]... [--exclude P]... [--assemblies G]... [--skip-assemblies G]... [--hit-counts]
// [--duration D] [-o DIR] [-q]`: loads the profiler into a running .NET process through the
// diagnostics IPC, lets it collect for the duration (or until ^C), and waits for its files.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/commands/pattern_options.h"
#include "cli/common.h"
#include "cli/jobs/diagnostics_ipc.h"
#include "cli/results/run_files.h"
#include "instrument/hook_contract.h"
#include "instrument/runtime_contract.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

/// How long the runtime may take to load and initialize the profiler.
constexpr uint32_t kAttachTimeoutMs = 10'000;
/// After the session's end: how long the profiler may take to revert and write its files.
constexpr auto kFinishWait = std::chrono::seconds(60);

volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

void print_attach_error(std::string_view message) {
  std::string line = diagnostic_line("error", "", fmt::format("attach: {}", message));
  std::fwrite(line.data(), 1, line.size(), stderr);
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

/// The `key value` lines of the done marker.
std::string marker_value(const std::string& text, std::string_view key) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
      return std::string(line.substr(key.size() + 1));
    at = end + 1;
  }
  return "";
}

/// Trace mode: the hooks are read and checked here, as `run` checks them, so that bad hooks are
/// one line before anything touches the process; their absolute path and type (may be empty)
/// for the client data. An exit status when they are refused.
std::optional<int> trace_hooks(const cxxopts::ParseResult& args, const std::string& mode, std::string& hooks, std::string& hook_type) {
  if ((mode == "trace") != static_cast<bool>(args.count("hooks"))) {
    print_usage_error(mode == "trace" ? "attach: --mode trace needs --hooks HOOKS.dll" : "attach: --hooks goes with --mode trace");
    return kExitUsage;
  }
  if (args.count("hook-type") && mode != "trace") {
    print_usage_error("attach: --hook-type goes with --mode trace");
    return kExitUsage;
  }
  if (mode != "trace") return std::nullopt;
  std::error_code ec;
  hooks = fs::absolute(args["hooks"].as<std::string>(), ec).lexically_normal().string();
  if (args.count("hook-type")) hook_type = args["hook-type"].as<std::string>();
  if (hooks.find('\n') != std::string::npos || hook_type.find('\n') != std::string::npos) {
    print_usage_error("attach: the hooks path or type contains a line break");
    return kExitUsage;
  }
  auto loaded = load_module(hooks);
  if (!loaded) return fail(loaded.error());
  auto contract = instrument::read_hook_contract(**loaded, hook_type.empty() ? std::nullopt : std::optional<std::string>(hook_type));
  if (!contract) return fail(in_file(contract.error(), hooks));
  return std::nullopt;
}

/// `attach`'s options and their help.
void add_attach_options(cxxopts::Options& options) {
  options.add_options()
      ("mode", "count, events, coverage or trace", cxxopts::value<std::string>()->default_value("count"), "MODE")
      ("hooks", "trace mode: the assembly with the hook type, loaded into the process by the first traced call", cxxopts::value<std::string>(), "HOOKS.dll")
      ("hook-type", "trace mode: the hook type, Namespace.Type (default: the one public type with hooks)", cxxopts::value<std::string>(), "TYPE")
      ("include", "profile only methods whose Ns.Type::Method matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("exclude", "do not profile methods that match (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("assemblies", "count, coverage, trace: only modules whose file name matches (repeatable; default: all but the framework's)",
       cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("skip-assemblies", "count, coverage, trace: leave the modules whose file name matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("hit-counts", "coverage: count each line's and branch's hits exactly (default: hit or not, 1 or 0, with a cheaper probe)")
      ("duration", "collect for this long (500ms, 30s, 2m); default: until Ctrl-C or SIGTERM", cxxopts::value<std::string>(), "TIME")
      ("o,output", "directory of the files written (default: the current directory; created if missing)", cxxopts::value<std::string>(), "DIR")
      ("stats", "append the profiler's rewrite timings to FILE (one JSON line per session)", cxxopts::value<std::string>(), "FILE")
      ("q,quiet", "do not list the files written")
      ("pid", "the process", cxxopts::value<std::string>())
      ("h,help", "show this help");
  options.parse_positional({"pid"});
  options.custom_help("PID [--mode MODE] [--hooks HOOKS.dll [--hook-type TYPE]] [--include PATTERN]... [--exclude PATTERN]... [--assemblies GLOB]... [--skip-assemblies GLOB]... [--hit-counts] [--duration TIME] [-o DIR] [--stats FILE] [-q]");
  options.positional_help("");
}

/// What the session is asked for.
struct AttachSetup {
  pid_t pid = 0;
  std::string mode;
  std::string_view clsid;
  uint64_t duration_ms = 0;
  std::vector<std::string> include, exclude, assemblies, skip_assemblies;
  std::string hooks, hook_type;  ///< trace mode: the hooks' absolute path and type (may be empty)
  fs::path output;
  std::string tag;
};

/// The process id, the mode, the duration and the patterns, in `setup`: an exit status when one
/// is wrong.
std::optional<int> read_attach_options(const cxxopts::ParseResult& args, AttachSetup& setup) {
  if (!args.count("pid")) {
    print_usage_error("attach: missing the process id (cil-instrument attach PID [OPTIONS])");
    return kExitUsage;
  }
  std::string pid_text = args["pid"].as<std::string>();
  char* end = nullptr;
  long pid_value = std::strtol(pid_text.c_str(), &end, 10);
  if (pid_text.empty() || *end || pid_value <= 0 || pid_value > 0x7FFFFFFF) {
    print_usage_error(fmt::format("attach: '{}' is not a process id", pid_text));
    return kExitUsage;
  }
  setup.pid = static_cast<pid_t>(pid_value);
  setup.mode = args["mode"].as<std::string>();
  const std::string& mode = setup.mode;
  std::string_view& clsid = setup.clsid;
  if (mode == "count") clsid = contract::kAttachClsidCount;
  else if (mode == "events") clsid = contract::kAttachClsidEvents;
  else if (mode == "coverage") clsid = contract::kAttachClsidCoverage;
  else if (mode == "trace") clsid = contract::kAttachClsidTrace;
  else if (mode == "args") {
    print_usage_error("attach: args mode needs the runtime's enter and leave hooks, which it offers only to a profiler loaded at "
                      "start-up: use 'cil-instrument run --mode args'");
    return kExitUsage;
  } else {
    print_usage_error(fmt::format("attach: unknown mode '{}' (count, events, coverage or trace)", mode));
    return kExitUsage;
  }
  if (auto refused = trace_hooks(args, mode, setup.hooks, setup.hook_type)) return *refused;
  uint64_t& duration_ms = setup.duration_ms;
  if (args.count("duration")) {
    auto parsed = parse_duration_ms(args["duration"].as<std::string>());
    if (!parsed) {
      print_usage_error(fmt::format("attach: '{}' is not a duration (500ms, 30s, 2m)", args["duration"].as<std::string>()));
      return kExitUsage;
    }
    duration_ms = *parsed;
  }
  std::vector<std::string>&include = setup.include, &exclude = setup.exclude, &assemblies = setup.assemblies,
                           &skip_assemblies = setup.skip_assemblies;
  if (!take_patterns("attach", args, "include", include) || !take_patterns("attach", args, "exclude", exclude) ||
      !take_patterns("attach", args, "assemblies", assemblies) || !take_patterns("attach", args, "skip-assemblies", skip_assemblies))
    return kExitUsage;
  if (args.count("hit-counts") && mode != "coverage") {
    print_usage_error("attach: --hit-counts goes with --mode coverage");
    return kExitUsage;
  }
  if ((!assemblies.empty() || !skip_assemblies.empty()) && mode == "events") {
    print_usage_error("attach: --assemblies and --skip-assemblies are for count, coverage and trace modes, not events");
    return kExitUsage;
  }
  return std::nullopt;
}

/// The request that loads the profiler into the process (or gives the loaded one a session):
/// an exit status when the library, the output directory or the process's socket is missing.
std::optional<int> make_request(const cxxopts::ParseResult& args, AttachSetup& setup, AttachRequest& request,
                                std::string& socket_path) {
  const pid_t pid = setup.pid;
  const std::string& mode = setup.mode;
  const std::string_view clsid = setup.clsid;
  const uint64_t duration_ms = setup.duration_ms;
  const std::vector<std::string>&include = setup.include, &exclude = setup.exclude, &assemblies = setup.assemblies,
                                 &skip_assemblies = setup.skip_assemblies;
  std::string library = profiler_library();
  if (library.empty()) {
    print_attach_error(fmt::format("cannot find {} next to the cil-instrument executable", contract::kLibraryName));
    return kExitAttach;
  }
  std::error_code ec;
  fs::path& output = setup.output;
  output = args.count("output") ? fs::path(args["output"].as<std::string>()) : fs::current_path(ec);
  if (!output.empty()) fs::create_directories(output, ec);
  output = fs::absolute(output, ec);
  if (ec || !fs::is_directory(output, ec) || output.string().find('\n') != std::string::npos) {
    print_attach_error(fmt::format("cannot create the output directory '{}'", output.string()));
    return kExitAttach;
  }
  auto socket = diagnostics_socket(pid);
  if (!socket) {
    print_attach_error(socket.error().message);
    return kExitAttach;
  }
  socket_path = *socket;
  std::string& tag = setup.tag;
  tag = fmt::format("attach-{}", ::getpid());
  request.timeout_ms = kAttachTimeoutMs;
  request.clsid = std::string(clsid);
  request.library = library;
  request.client_data = fmt::format("{}={}\n{}={}\n{}={}\n{}={}\n{}={}\n", contract::kEnvMode, mode, contract::kEnvOutput,
                                    output.string(), contract::kAttachSession, tag, contract::kAttachClient, ::getpid(),
                                    contract::kAttachMilliseconds, duration_ms);
  if (!setup.hooks.empty()) request.client_data += fmt::format("{}={}\n", contract::kEnvHooks, setup.hooks);
  if (!setup.hook_type.empty()) request.client_data += fmt::format("{}={}\n", contract::kEnvHookType, setup.hook_type);
  if (args.count("hit-counts")) request.client_data += fmt::format("{}=1\n", contract::kEnvHitCounts);
  if (!include.empty()) request.client_data += fmt::format("{}={}\n", contract::kEnvInclude, join_patterns(include));
  if (!exclude.empty()) request.client_data += fmt::format("{}={}\n", contract::kEnvExclude, join_patterns(exclude));
  if (!assemblies.empty()) request.client_data += fmt::format("{}={}\n", contract::kEnvAssemblies, join_patterns(assemblies));
  if (!skip_assemblies.empty())
    request.client_data += fmt::format("{}={}\n", contract::kEnvSkipAssemblies, join_patterns(skip_assemblies));
  if (args.count("stats")) {
    std::string stats = fs::absolute(args["stats"].as<std::string>(), ec).string();
    if (stats.find('\n') != std::string::npos) {
      print_usage_error("attach: the --stats path contains a line break");
      return kExitUsage;
    }
    request.client_data += fmt::format("{}={}\n", contract::kEnvStats, stats);
  }
  return std::nullopt;
}

/// Loads the profiler into the process, or hands the session to the one an earlier attach left
/// loaded (`reused`): an exit status when neither takes it.
std::optional<int> start_session(const AttachSetup& setup, const std::string& socket_path, const AttachRequest& request,
                                 bool& reused, const std::function<void()>& restore) {
  const pid_t pid = setup.pid;
  // A profiler an earlier attach left loaded takes the session itself; otherwise the runtime
  // loads one.
  if (std::string agent = agent_socket(pid); !agent.empty()) {
    auto refusal = attach_agent(agent, request.client_data);
    if (!refusal || !refusal->empty()) {
      restore();
      print_attach_error(fmt::format("process {}: the profiler an earlier attach left loaded {}", pid,
                                     refusal ? "refuses: " + *refusal : "cannot be reached: " + refusal.error().message));
      return kExitAttach;
    }
    reused = true;
  } else {
    auto answer = attach_profiler(socket_path, request);
    if (!answer) {
      restore();
      print_attach_error(fmt::format("process {}: {}", pid, answer.error().message));
      return kExitAttach;
    }
    if (*answer != 0) {
      restore();
      print_attach_error(fmt::format("process {}: {} (HRESULT 0x{:08X})", pid, attach_result_text(*answer), *answer));
      return kExitAttach;
    }
  }
  return std::nullopt;
}

/// Waits for the done marker: until the profiler writes it, the process ends or the time is up.
/// True when the process ended before the profiler wrote the marker.
bool wait_for_session(const AttachSetup& setup, const std::string& stop_file, const std::string& done_file) {
  const pid_t pid = setup.pid;
  const uint64_t duration_ms = setup.duration_ms;
  // The profiler ends the session itself when the time is up, on the stop file, or when this
  // process is gone; it writes the done marker once the files are written.
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> finish_by;
  if (duration_ms) finish_by = Clock::now() + std::chrono::milliseconds(duration_ms) + kFinishWait;
  bool stop_sent = false;
  bool gone = false;
  while (!exists(done_file)) {
    if (g_stop && !stop_sent) {
      std::ofstream(stop_file).put('\n');
      stop_sent = true;
      finish_by = Clock::now() + kFinishWait;
    }
    if (process_gone(pid)) {
      gone = !exists(done_file);
      break;
    }
    if (finish_by && Clock::now() > *finish_by) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return gone;
}

/// What the session wrote, and how it ended, on stderr: the exit status of `attach`.
int report_session(const cxxopts::ParseResult& args, const AttachSetup& setup, fs::file_time_type started, bool gone,
                   const std::string& done) {
  const pid_t pid = setup.pid;
  const std::string& tag = setup.tag;
  const fs::path& output = setup.output;
  // The session's files, each as one line.
  std::string mine = fmt::format(".{}.{}.", pid, tag);
  auto file_lines = [&](bool* any_data) {
    std::string listed;
    for (const auto& file : profiler_files_since(output.string(), started)) {
      if (fs::path(file).filename().string().find(mine) == std::string::npos) continue;
      bool warnings = is_warnings_file(file), record = is_session_record(file);
      if (any_data && !warnings && !record) *any_data = true;
      listed += diagnostic_line("attach", "", fmt::format("{} {}", warnings ? "warnings in" : record ? "session record" : "wrote", file));
    }
    return listed;
  };
  if (done.empty()) {
    // A process ended by SIGTERM, SIGINT or SIGQUIT during the session gets no Shutdown, so no
    // done marker: the profiler's signal writer wrote the files before the signal ended it.
    bool written = false;
    std::string listed = gone ? file_lines(&written) : std::string();
    if (written) {
      if (!args.count("quiet"))
        listed.insert(0, diagnostic_line("attach", "", fmt::format("process {}: session ended with the process (by a signal); "
                                                                    "the profiler wrote its files as it ended", pid)));
      else listed.clear();
      std::fwrite(listed.data(), 1, listed.size(), stderr);
      return kExitOk;
    }
    print_attach_error(gone ? fmt::format("process {} ended before the profiler wrote its files", pid)
                            : fmt::format("process {}: the profiler did not finish in time; its files may be missing", pid));
    return kExitAttach;
  }
  // Trace mode: the hooks could not be loaded in the process; everything was reverted.
  if (std::string failed = marker_value(done, "failed"); !failed.empty()) {
    print_attach_error(fmt::format("process {}: {}", pid, failed));
    return kExitAttach;
  }
  std::string lines;
  if (!args.count("quiet")) {
    std::string rejit = marker_value(done, "rejit-total");
    if (rejit.empty()) rejit = marker_value(done, "rejit");
    std::string reverted = marker_value(done, "reverted");
    std::string how = marker_value(done, "end");
    std::string summary = fmt::format("process {}: session {}", pid, how == "process-exit" ? "ended with the process" : "ended (" + how + ")");
    if (!rejit.empty()) summary += fmt::format("; {} methods instrumented through ReJIT, {} reverted", rejit, reverted.empty() ? "0" : reverted);
    std::string profiler = marker_value(done, "profiler");
    if (profiler == "detached") summary += "; profiler detached";
    else if (profiler == "left-loaded")
      summary += "; probes reverted, profiler left loaded and inactive (the runtime never detaches a profiler that used ReJIT; "
                 "the next attach reuses it)";
    lines += diagnostic_line("attach", "", summary);
    lines += file_lines(nullptr);
  }
  std::fwrite(lines.data(), 1, lines.size(), stderr);
  return kExitOk;
}

}  // namespace

int run_attach(int argc, char** argv) {
  cxxopts::Options options("cil-instrument attach",
                           "Load the profiler into a running .NET process, collect, then take it out again.");
  add_attach_options(options);
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  AttachSetup setup;
  if (auto done = read_attach_options(args, setup)) return *done;
  AttachRequest request;
  std::string socket_path;
  if (auto done = make_request(args, setup, request, socket_path)) return *done;
  const pid_t pid = setup.pid;
  const std::string& tag = setup.tag;
  const fs::path& output = setup.output;
  std::error_code ec;

  std::string base = (output / fmt::format("cil-instrument.{}.{}", pid, tag)).string();
  std::string stop_file = base + std::string(contract::kAttachStopSuffix);
  std::string done_file = base + std::string(contract::kAttachDoneSuffix);
  fs::remove(stop_file, ec);
  fs::remove(done_file, ec);
  // ^C or SIGTERM ends the session, not this command: it then waits for the files.
  struct sigaction stop {}, old_int {}, old_term {};
  stop.sa_handler = on_stop;
  sigemptyset(&stop.sa_mask);
  sigaction(SIGINT, &stop, &old_int);
  sigaction(SIGTERM, &stop, &old_term);
  auto restore = [&] {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
  };

  auto started = fs::file_time_type::clock::now() - std::chrono::milliseconds(100);
  bool reused = false;
  if (auto done = start_session(setup, socket_path, request, reused, restore)) return *done;
  if (!args.count("quiet")) {
    std::string line = diagnostic_line("attach", "", fmt::format("{} process {}; collecting {}", reused ? "reusing the profiler loaded in" : "attached to", pid,
                                                               setup.duration_ms ? fmt::format("for {} ms", setup.duration_ms) : std::string("until Ctrl-C")));
    std::fwrite(line.data(), 1, line.size(), stderr);
  }

  bool gone = wait_for_session(setup, stop_file, done_file);
  restore();
  fs::remove(stop_file, ec);
  std::string done;
  {
    std::ifstream in(done_file);
    done.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return report_session(args, setup, started, gone, done);
}

}  // namespace cil::cli
