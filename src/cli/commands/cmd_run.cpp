// `cil-instrument run [--mode M] [--include P]... [--exclude P]... [--assemblies G]...
// [--skip-assemblies G]... [--include-framework]
// [--start-after T | --window S:E] [--output DIR] [--stats FILE]
// [--quiet] -- COMMAND [ARGS...]`: runs COMMAND with the runtime profiler attached and returns
// its exit status.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cxxopts.hpp>

#include "cli/commands/commands.h"
#include "cli/commands/pattern_options.h"
#include "cli/common.h"
#include "cli/results/run_files.h"
#include "instrument/hook_contract.h"
#include "instrument/runtime_contract.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

/// Exit statuses of `run` itself, as timeout(1) and env(1) use them: the command's own status
/// otherwise.
constexpr int kExitRunFailed = 125;   ///< run could not start the command
constexpr int kExitCannotExec = 126;  ///< the command exists but cannot be executed
constexpr int kExitNotFound = 127;    ///< no such command

void print_run_error(std::string_view message) {
  std::string line = diagnostic_line("run", "", message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

/// The command's process while it runs, for forward_signal (0 before it starts).
volatile sig_atomic_t g_child = 0;

/// SIGTERM and SIGHUP sent to `run` (a CI timeout, a service manager, a closed terminal) are
/// for the command, which then writes its profile as it ends; `run` waits for it. Async-signal-safe.
void forward_signal(int signal) {
  if (g_child > 0) kill(static_cast<pid_t>(g_child), signal);
}

/// `dotnet test` or `dotnet vstest`: the command whose default coverage is the user's own code.
bool dotnet_test(int argc, char** argv, int start) {
  if (start + 1 >= argc) return false;
  std::string_view program = argv[start];
  size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos) program.remove_prefix(slash + 1);
  std::string_view verb = argv[start + 1];
  return program == "dotnet" && (verb == "test" || verb == "vstest");
}

/// Splits argv at "--" or, without one, at the first argument that is neither an option nor
/// an option's value. Returns the index where the command starts (argc when there is none).
int command_start(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--") return i;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.empty() || a[0] != '-') return i;
    bool takes_value = a == "--mode" || a == "--include" || a == "--exclude" || a == "--assemblies" ||
                       a == "--skip-assemblies" || a == "--output" || a == "-o" || a == "--stats" || a == "--start-after" ||
                       a == "--window" || a == "--hooks" || a == "--hook-type";
    if (takes_value) ++i;
  }
  return argc;
}

/// `run`'s options and their help.
void add_run_options(cxxopts::Options& options) {
  options.add_options()
      ("mode", "count, events, args, coverage or trace", cxxopts::value<std::string>()->default_value("count"), "MODE")
      ("hooks", "trace mode: the assembly with the hook type, loaded at run time (no file changes)", cxxopts::value<std::string>(), "HOOKS.dll")
      ("hook-type", "trace mode: the hook type, Namespace.Type (default: the one public type with hooks)", cxxopts::value<std::string>(), "TYPE")
      ("include", "profile only methods whose Ns.Type::Method matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("exclude", "do not profile methods that match (repeatable)", cxxopts::value<std::vector<std::string>>(), "PATTERN")
      ("assemblies", "count, args, coverage: only modules whose file name matches (repeatable; default: all but the framework's, "
                     "and under dotnet test in coverage mode those built from sources under the current directory)",
       cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("skip-assemblies", "count, args, coverage: leave the modules whose file name matches (repeatable)", cxxopts::value<std::vector<std::string>>(), "GLOB")
      ("o,output", "directory of the files written (default: the current directory; created if missing)", cxxopts::value<std::string>(), "DIR")
      ("include-framework", "let the patterns select methods of the framework's modules (precompiled code and inlining off for the whole process)")
      ("start-after", "count only from this long after the start (500ms, 5s, 1m): probes go in through ReJIT then", cxxopts::value<std::string>(), "TIME")
      ("window", "count (or trace) only from START to END after the start (5s:20s): probes in through ReJIT at START, out at END", cxxopts::value<std::string>(), "START:END")
      ("hit-counts", "coverage: count each line's and branch's hits exactly (default: hit or not, 1 or 0, with a cheaper probe)")
      ("stats", "append the profiler's rewrite timings to FILE (one JSON line per process)", cxxopts::value<std::string>(), "FILE")
      ("q,quiet", "do not list the files written")
      ("h,help", "show this help");
  options.custom_help("[--mode MODE] [--hooks HOOKS.dll [--hook-type TYPE]] [--include PATTERN]... [--exclude PATTERN]... [--assemblies GLOB]... [--skip-assemblies GLOB]... [--include-framework] [--hit-counts] [--start-after TIME | --window START:END] [-o DIR] [--stats FILE] [-q] -- COMMAND [ARGS...]");
}

/// What the command's process is told through its environment, and where its files go.
struct RunSetup {
  std::string mode;
  std::string hooks, hook_type;
  std::vector<std::string> include, exclude, assemblies, skip_assemblies;
  std::string window;
  std::string library;
  fs::path output;
  std::string stats;
  std::string source_root;
  std::string run_id;
};

/// The trace mode's hooks: an exit status when they are missing or bad.
std::optional<int> check_hooks(const cxxopts::ParseResult& args, RunSetup& setup) {
  const std::string& mode = setup.mode;
  std::string &hooks = setup.hooks, &hook_type = setup.hook_type;
  // Trace mode: the hooks are checked here, as `instrument` checks them, so a bad hooks assembly
  // is one line before the program starts. The profiler loads them by this absolute path.
  if ((mode == "trace") != static_cast<bool>(args.count("hooks"))) {
    print_usage_error(mode == "trace" ? "run: --mode trace needs --hooks HOOKS.dll" : "run: --hooks goes with --mode trace");
    return kExitUsage;
  }
  if (args.count("hook-type") && mode != "trace") {
    print_usage_error("run: --hook-type goes with --mode trace");
    return kExitUsage;
  }
  if (mode == "trace") {
    std::error_code hooks_ec;
    hooks = fs::absolute(args["hooks"].as<std::string>(), hooks_ec).lexically_normal().string();
    if (args.count("hook-type")) hook_type = args["hook-type"].as<std::string>();
    auto loaded = load_module(hooks);
    if (!loaded) return fail(loaded.error());
    auto contract = instrument::read_hook_contract(**loaded, hook_type.empty() ? std::nullopt : std::optional<std::string>(hook_type));
    if (!contract) return fail(in_file(contract.error(), hooks));
  }
  return std::nullopt;
}

/// --start-after or --window as the profiler's window: an exit status when it is not one.
std::optional<int> parse_window(const cxxopts::ParseResult& args, RunSetup& setup) {
  const std::string& mode = setup.mode;
  // A window: "START:END" in milliseconds for the profiler (END 0: to the end).
  std::string& window = setup.window;
  if (args.count("start-after") && args.count("window")) {
    print_usage_error("run: --start-after and --window exclude each other");
    return kExitUsage;
  }
  if (args.count("start-after") || args.count("window")) {
    if (mode != "count" && mode != "coverage" && mode != "trace") {
      print_usage_error(fmt::format("run: --start-after and --window are for count, coverage and trace modes, not {}", mode));
      return kExitUsage;
    }
    // The window in milliseconds; END 0 (--start-after) means no end.
    uint64_t start_ms = 0, end_ms = 0;
    bool valid = false;
    if (args.count("start-after")) {
      if (auto start = parse_duration_ms(args["start-after"].as<std::string>())) {
        start_ms = *start;
        valid = true;
      }
    } else {
      std::string text = args["window"].as<std::string>();
      size_t colon = text.find(':');
      if (colon != std::string::npos) {
        auto start = text.substr(0, colon) == "0" ? std::optional<uint64_t>(0) : parse_duration_ms(text.substr(0, colon));
        auto end = parse_duration_ms(text.substr(colon + 1));
        if (start && end && *end > *start) {
          start_ms = *start;
          end_ms = *end;
          valid = true;
        }
      }
    }
    if (!valid) {
      print_usage_error(args.count("window") ? fmt::format("run: '{}' is not START:END with END after START (5s:20s)", args["window"].as<std::string>())
                                             : fmt::format("run: '{}' is not a duration (500ms, 5s, 1m)", args["start-after"].as<std::string>()));
      return kExitUsage;
    }
    window = fmt::format("{}:{}", start_ms, end_ms);
  }
  return std::nullopt;
}

/// The options after their checks, in `setup`: an exit status when one fails.
std::optional<int> read_run_options(const cxxopts::ParseResult& args, RunSetup& setup) {
  setup.mode = args["mode"].as<std::string>();
  const std::string& mode = setup.mode;
  if (mode != "count" && mode != "events" && mode != "args" && mode != "coverage" && mode != "trace") {
    print_usage_error(fmt::format("run: unknown mode '{}' (count, events, args, coverage or trace)", mode));
    return kExitUsage;
  }
  if (args.count("hit-counts") && mode != "coverage") {
    print_usage_error("run: --hit-counts goes with --mode coverage");
    return kExitUsage;
  }
  if (auto done = check_hooks(args, setup)) return done;
  std::vector<std::string>&include = setup.include, &exclude = setup.exclude, &assemblies = setup.assemblies,
                           &skip_assemblies = setup.skip_assemblies;
  if (!take_patterns("run", args, "include", include) || !take_patterns("run", args, "exclude", exclude) ||
      !take_patterns("run", args, "assemblies", assemblies) || !take_patterns("run", args, "skip-assemblies", skip_assemblies))
    return kExitUsage;
  if ((!assemblies.empty() || !skip_assemblies.empty()) && mode == "events") {
    print_usage_error("run: --assemblies and --skip-assemblies are for count, args, coverage and trace modes, not events");
    return kExitUsage;
  }
  return parse_window(args, setup);
}

/// The profiler library, the output directory, the stats file and the source root, in `setup`:
/// an exit status when one cannot be had.
std::optional<int> prepare_run(const cxxopts::ParseResult& args, int argc, char** argv, int start, RunSetup& setup) {
  const std::string& mode = setup.mode;
  const std::vector<std::string>& assemblies = setup.assemblies;
  std::string& library = setup.library;
  library = profiler_library();
  if (library.empty()) {
    print_run_error(fmt::format("cannot find {} next to the cil-instrument executable", contract::kLibraryName));
    return kExitRunFailed;
  }
  std::error_code ec;
  fs::path& output = setup.output;
  output = args.count("output") ? fs::path(args["output"].as<std::string>()) : fs::current_path(ec);
  if (!output.empty()) fs::create_directories(output, ec);
  output = fs::absolute(output, ec);
  if (ec || !fs::is_directory(output, ec)) {
    print_run_error(fmt::format("cannot create the output directory '{}'", output.string()));
    return kExitRunFailed;
  }
  std::string& stats = setup.stats;
  if (args.count("stats")) stats = fs::absolute(args["stats"].as<std::string>(), ec).string();
  // Coverage of `dotnet test` without --assemblies: the modules built from sources under the
  // folder `run` started in, not the test platform, xunit and the packages (issue 39).
  std::string& source_root = setup.source_root;
  if (mode == "coverage" && assemblies.empty() && dotnet_test(argc, argv, start)) source_root = fs::current_path(ec).string();
  return std::nullopt;
}

/// In the command's process, before exec: the profiler's environment.
void set_profiler_environment(const cxxopts::ParseResult& args, const RunSetup& setup) {
  const std::string &mode = setup.mode, &library = setup.library, &run_id = setup.run_id, &window = setup.window;
  const std::string &hooks = setup.hooks, &hook_type = setup.hook_type, &stats = setup.stats, &source_root = setup.source_root;
  const std::vector<std::string>&include = setup.include, &exclude = setup.exclude, &assemblies = setup.assemblies,
                                 &skip_assemblies = setup.skip_assemblies;
  const fs::path& output = setup.output;
  setenv(contract::kEnvEnable, "1", 1);
  setenv(contract::kEnvClsid, std::string(contract::kClsidText).c_str(), 1);
  setenv(contract::kEnvPath, library.c_str(), 1);
  setenv(contract::kEnvMode, mode.c_str(), 1);
  setenv(contract::kEnvOutput, output.c_str(), 1);
  setenv(contract::kEnvRun, run_id.c_str(), 1);
  if (window.empty()) unsetenv(contract::kEnvWindow);
  else setenv(contract::kEnvWindow, window.c_str(), 1);
  if (args.count("include-framework")) setenv(contract::kEnvFramework, "1", 1);
  else unsetenv(contract::kEnvFramework);
  if (include.empty()) unsetenv(contract::kEnvInclude);
  else setenv(contract::kEnvInclude, join_patterns(include).c_str(), 1);
  if (exclude.empty()) unsetenv(contract::kEnvExclude);
  else setenv(contract::kEnvExclude, join_patterns(exclude).c_str(), 1);
  if (assemblies.empty()) unsetenv(contract::kEnvAssemblies);
  else setenv(contract::kEnvAssemblies, join_patterns(assemblies).c_str(), 1);
  if (skip_assemblies.empty()) unsetenv(contract::kEnvSkipAssemblies);
  else setenv(contract::kEnvSkipAssemblies, join_patterns(skip_assemblies).c_str(), 1);
  if (source_root.empty()) unsetenv(contract::kEnvSourceRoot);
  else setenv(contract::kEnvSourceRoot, source_root.c_str(), 1);
  if (args.count("hit-counts")) setenv(contract::kEnvHitCounts, "1", 1);
  else unsetenv(contract::kEnvHitCounts);
  // VSTest kills the test host 100 ms after the session ends unless told otherwise: the
  // profile written at shutdown would race that kill (issue 20). A value already set wins.
  setenv(contract::kEnvTestHostShutdownTimeout, contract::kTestHostShutdownMs, 0);
  if (hooks.empty()) unsetenv(contract::kEnvHooks);
  else setenv(contract::kEnvHooks, hooks.c_str(), 1);
  if (hook_type.empty()) unsetenv(contract::kEnvHookType);
  else setenv(contract::kEnvHookType, hook_type.c_str(), 1);
  if (stats.empty()) unsetenv(contract::kEnvStats);
  else setenv(contract::kEnvStats, stats.c_str(), 1);
}

/// Runs argv[start...] with the profiler's environment and waits for it: false (with the exit
/// status of `run` in `code`) when it could not start; else its pid and status.
bool run_command_profiled(const cxxopts::ParseResult& args, char** argv, int start, const RunSetup& setup, pid_t& pid,
                          int& code) {
  // While the command runs, ^C and ^\ are for it: its status says what they did.
  struct sigaction ignore {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  std::fflush(nullptr);
  // A pipe that closes on exec: the child writes errno to it when exec fails.
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    print_run_error(fmt::format("cannot start '{}': {}", argv[start], std::strerror(errno)));
    code = kExitRunFailed;
    return false;
  }
  pid = fork();
  if (pid < 0) {
    print_run_error(fmt::format("cannot start '{}': {}", argv[start], std::strerror(errno)));
    code = kExitRunFailed;
    return false;
  }
  if (pid == 0) {
    close(exec_pipe[0]);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    set_profiler_environment(args, setup);
    execvp(argv[start], argv + start);
    int error = errno;
    ssize_t written = write(exec_pipe[1], &error, sizeof error);
    (void)written;
    _exit(kExitCannotExec);
  }
  close(exec_pipe[1]);
  g_child = pid;
  struct sigaction forward {}, old_term {}, old_hup {};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  forward.sa_flags = SA_RESTART;
  // A signal ignored when `run` started (nohup) stays ignored, as the command inherits it.
  sigaction(SIGTERM, nullptr, &old_term);
  sigaction(SIGHUP, nullptr, &old_hup);
  if (old_term.sa_handler != SIG_IGN) sigaction(SIGTERM, &forward, nullptr);
  if (old_hup.sa_handler != SIG_IGN) sigaction(SIGHUP, &forward, nullptr);
  int exec_error = 0;
  ssize_t got;
  while ((got = read(exec_pipe[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  close(exec_pipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  g_child = 0;
  if (got == sizeof exec_error) {
    print_run_error(fmt::format("cannot run '{}': {}", argv[start], std::strerror(exec_error)));
    code = exec_error == ENOENT ? kExitNotFound : kExitCannotExec;
    return false;
  }
  code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : kExitRunFailed;
  return true;
}

/// The lines naming the files the run wrote, or saying that there are none, in `lines`: true
/// when the profile is lost.
bool list_run_files(const cxxopts::ParseResult& args, const RunSetup& setup, fs::file_time_type started, pid_t pid,
                    std::string& lines) {
  const std::string &mode = setup.mode, &source_root = setup.source_root;
  const fs::path& output = setup.output;
  // The command's files and those of every process it started (test hosts, build nodes).
  std::vector<std::string> files = profiler_files_since(output.string(), started);
  // The profiler creates its log only when it has something to say, and prints nothing: an empty
  // log, or nothing at all on a full file system, is the only sign that its files were lost.
  bool lost = false;
  for (const auto& file : files) {
    std::error_code size_ec;
    if (is_warnings_file(file) && fs::file_size(file, size_ec) == 0 && !size_ec) {
      lines += diagnostic_line("error", file, "empty: the profiler's warnings could not be written (a full file system?), and its "
                                              "other files may be missing or incomplete");
      lost = true;
    } else if (!args.count("quiet")) {
      lines += diagnostic_line("run", "", fmt::format("{} {}", is_warnings_file(file) ? "warnings in" : "wrote", file));
    }
  }
  if (files.empty()) {
    struct statvfs space {};
    if (::statvfs(output.c_str(), &space) == 0 && space.f_bavail == 0) {
      lines += diagnostic_line("error", output.string(), "the file system is full: the profiler could write no file");
      lost = true;
    } else if (!args.count("quiet") && mode != "trace") {
      lines += diagnostic_line("run", "", fmt::format("no files written by process {} or the processes it started (no selected "
                                                      "method ran, or the profiler did not load)", pid));
      // The default of `dotnet test` found none of the user's code: say where it looked.
      if (!source_root.empty())
        lines += diagnostic_line("run", "", fmt::format("under dotnet test only modules built from sources under {} are covered "
                                                        "(run it where the sources are, or name the modules with --assemblies)",
                                                        source_root));
    }
  }
  return lost;
}

/// The line naming the processes started from the command that still run, or none.
std::string still_running_line(const RunSetup& setup) {
  const std::string& run_id = setup.run_id;
  const fs::path& output = setup.output;
  std::string lines;
  // Processes started from the command that outlive it (MSBuild nodes, a compiler server, a
  // background job) write their files when they end.
  // Two looks 50 ms apart: a process in the middle of its exec has no environment to read.
  std::vector<pid_t> running = processes_with_environment(contract::kEnvRun, run_id);
  usleep(50'000);
  for (pid_t p : processes_with_environment(contract::kEnvRun, run_id))
    if (std::find(running.begin(), running.end(), p) == running.end()) running.push_back(p);
  std::sort(running.begin(), running.end());
  if (!running.empty()) {
    std::vector<std::string> pids;
    for (pid_t p : running) pids.push_back(std::to_string(p));
    lines += diagnostic_line("run", "", fmt::format("{} process{} started from the command still run{} ({}): {} files will appear in {} "
                                                    "when {}", running.size(), running.size() == 1 ? "" : "es",
                                                    running.size() == 1 ? "s" : "", fmt::join(pids, ", "),
                                                    running.size() == 1 ? "its" : "their", output.string(),
                                                    running.size() == 1 ? "it ends" : "they end"));
  }
  return lines;
}

}  // namespace

int run_profiled(int argc, char** argv) {
  cxxopts::Options options("cil-instrument run",
                           "Run a .NET command with the cil-instrument profiler attached; exit with its status.");
  add_run_options(options);
  int start = command_start(argc, argv);
  int option_count = start;
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, option_count, argv, args)) return *done;
  if (start < argc && std::string_view(argv[start]) == "--") ++start;
  if (start >= argc) {
    print_usage_error("run: missing the command to run (cil-instrument run [OPTIONS] -- COMMAND [ARGS...])");
    return kExitUsage;
  }
  RunSetup setup;
  if (auto done = read_run_options(args, setup)) return *done;
  if (auto done = prepare_run(args, argc, argv, start, setup)) return *done;

  // Every file the run's processes write is at least this new (less a margin: file times come
  // from a coarser clock), and every process started from it inherits the run's id.
  auto started = fs::file_time_type::clock::now() - std::chrono::milliseconds(100);
  setup.run_id = fmt::format("{}.{}", getpid(), std::chrono::steady_clock::now().time_since_epoch().count());
  pid_t pid = 0;
  int code = kExitOk;
  if (!run_command_profiled(args, argv, start, setup, pid, code)) return code;

  std::string lines;
  bool lost = list_run_files(args, setup, started, pid, lines);
  // The command's status, unless it succeeded and the profile is lost.
  if (lost && code == kExitOk) code = kExitOutput;
  lines += still_running_line(setup);
  std::fwrite(lines.data(), 1, lines.size(), stderr);
  return code;
}

}  // namespace cil::cli
