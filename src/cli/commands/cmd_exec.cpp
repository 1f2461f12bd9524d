// `cil-instrument exec [OPTIONS] DIR... -- COMMAND [ARGS...]`: instruments the assemblies of the
// folders in place, runs COMMAND, puts every original back (on failure, on Ctrl-C or SIGTERM, and
// on the next run after a crash), then prints the report of what the run wrote.
// `cil-instrument restore DIR...`: puts back what an interrupted exec left.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cxxopts.hpp>

#include "cli/jobs/batch_instrument.h"
#include "cli/commands/commands.h"
#include "cli/common.h"
#include "cli/jobs/exec_folder.h"
#include "cli/commands/instrument_options.h"
#include "cli/results/live_file.h"
#include "instrument/pdb_files.h"
#include "instrument/runtime_contract.h"

namespace cil::cli {

namespace {

namespace fs = std::filesystem;

constexpr int kExecSignals[] = {SIGINT, SIGTERM, SIGHUP};

volatile sig_atomic_t g_signal = 0;  ///< the first SIGINT/SIGTERM/SIGHUP received
volatile sig_atomic_t g_exec_child = 0;   ///< the command's process while it runs

extern "C" void on_exec_signal(int sig, siginfo_t* info, void*) {
  if (!g_signal) g_signal = sig;
  // A signal sent to exec itself is for the command too; one from the terminal (SI_KERNEL)
  // reached the command already, through the process group.
  if (g_exec_child > 0 && info && info->si_code != SI_KERNEL) ::kill(static_cast<pid_t>(g_exec_child), sig);
}

void install_signal_handlers() {
  for (int sig : kExecSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_sigaction = on_exec_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    ::sigaction(sig, &action, nullptr);
  }
}

/// Signals held while files are being replaced (a handful of renames): the folder is then
/// never left between two states by our own handler; a pending signal arrives just after.
class BlockedSignals {
 public:
  BlockedSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kExecSignals) sigaddset(&set, sig);
    ::sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockedSignals() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

void print_line(std::string_view kind, std::string_view file, std::string_view message) {
  std::string line = diagnostic_line(kind, file, message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

/// Prints what a recovery did in `folder`: one line per file it kept, then the count.
void report_recovery(const std::string& folder, const RestoreResult& result, std::string_view what) {
  for (const auto& [file, note] : result.notes) print_line("restore", file, note);
  print_line("restore", folder, fmt::format("put back {} of {}", plural(result.put_back, "file", "files"), what));
}

/// Recovers `folder` if an earlier run left it instrumented; prints what it did. False on failure.
bool recover(ExecFolder& folder, bool force, bool say_nothing_to_do) {
  if (!folder.interrupted()) {
    if (Status cleared = folder.clear_leftovers(); !cleared) {
      print_error(cleared.error());
      return false;
    }
    if (say_nothing_to_do) print_line("restore", folder.dir(), "nothing to restore");
    return true;
  }
  auto restored = folder.restore(force);
  if (!restored) {
    print_error(restored.error());
    return false;
  }
  report_recovery(folder.dir(), *restored, "an interrupted run");
  return true;
}

/// Locks each folder (with its ancestors: no exec on a folder around it or inside it may run at
/// the same time) and undoes what an earlier, interrupted run left there or in a folder inside it.
/// An interrupted run on a folder around it is refused with the hint to restore that one first.
int lock_and_recover(const std::vector<std::string>& dirs, std::vector<ExecFolder>& folders, bool force, bool say_nothing_to_do) {
  for (const auto& dir : dirs) {
    auto folder = ExecFolder::lock(dir);
    if (!folder) {
      print_error(folder.error());
      return kExitOutput;  // the folder is what exec and restore write
    }
    folders.push_back(std::move(*folder));
  }
  for (auto& folder : folders) {
    if (std::string outer = interrupted_ancestor(folder.dir()); !outer.empty()) {
      print_line("error", folder.dir(),
                 fmt::format("an interrupted exec on {} may have left files here instrumented; run 'cil-instrument restore {}' first", outer, outer));
      return kExitOutput;
    }
    // Our exclusive lock on the folder keeps every exec on a folder inside it out, so what a state
    // directory there holds is an interrupted run's.
    for (const auto& inner_dir : state_dirs_inside(folder.dir())) {
      auto inner = ExecFolder::lock_inner(inner_dir);
      if (!inner) {
        print_error(inner.error());
        return kExitOutput;
      }
      if (!recover(*inner, force, false)) return kExitOutput;
    }
    if (!recover(folder, force, say_nothing_to_do)) return kExitOutput;
  }
  return kExitOk;
}

/// The usage error when one of `dirs` is another, or lies inside another (through symlinks too):
/// their files would be instrumented and kept aside twice.
std::string overlapping_folders(const std::vector<std::string>& dirs, std::string_view command) {
  std::vector<fs::path> real;
  for (const auto& dir : dirs) {
    std::error_code ec;
    real.push_back(fs::canonical(dir, ec));
    if (ec) return fmt::format("{}: {}: {}", command, dir, ec.message());
  }
  auto inside = [](const fs::path& inner, const fs::path& outer) {
    return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
  };
  for (size_t i = 0; i < dirs.size(); ++i)
    for (size_t j = 0; j < dirs.size(); ++j) {
      if (i == j) continue;
      if (real[i] == real[j] && i > j) return fmt::format("{}: {} is given twice", command, dirs[i]);
      if (real[i] != real[j] && inside(real[i], real[j])) return fmt::format("{}: {} is inside {}, given too", command, dirs[i], dirs[j]);
    }
  return {};
}

/// Puts every folder back; reports each failure and returns false if one failed.
bool restore_all(std::vector<ExecFolder>& folders, size_t* kept = nullptr) {
  bool all = true;
  for (auto& folder : folders) {
    auto restored = folder.restore();
    if (!restored) {
      print_error(restored.error());
      print_line("error", folder.dir(), "not restored; run 'cil-instrument restore' on it");
      all = false;
      continue;
    }
    // A file the command rebuilt stays: the run says so, once per file.
    for (const auto& [file, note] : restored->notes) print_line("restore", file, note);
    if (kept) *kept += restored->notes.size();
  }
  return all;
}

/// Runs the command with the output directory in its environment; returns its status in the
/// shell's form (128 + signal when a signal ended it) or 126/127 when it could not run.
int run_command(char** command, const std::string& output_dir) {
  std::fflush(nullptr);
  int exec_pipe[2];
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    print_line("exec", "", fmt::format("cannot start '{}': {}", command[0], std::strerror(errno)));
    return 125;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    print_line("exec", "", fmt::format("cannot start '{}': {}", command[0], std::strerror(errno)));
    return 125;
  }
  if (pid == 0) {
    ::close(exec_pipe[0]);
    ::setenv(contract::kEnvOutput, output_dir.c_str(), 1);
    // VSTest kills the test host 100 ms after the session ends unless told otherwise: counts
    // written at exit would race that kill (issue 20). A value already set wins.
    ::setenv(contract::kEnvTestHostShutdownTimeout, contract::kTestHostShutdownMs, 0);
    ::execvp(command[0], command);
    int error = errno;
    ssize_t written = ::write(exec_pipe[1], &error, sizeof error);
    (void)written;
    ::_exit(126);
  }
  ::close(exec_pipe[1]);
  g_exec_child = pid;
  int exec_error = 0;
  ssize_t got;
  while ((got = ::read(exec_pipe[0], &exec_error, sizeof exec_error)) < 0 && errno == EINTR) {
  }
  ::close(exec_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_exec_child = 0;
  if (got == sizeof exec_error) {
    print_line("exec", "", fmt::format("cannot run '{}': {}", command[0], std::strerror(exec_error)));
    return exec_error == ENOENT ? 127 : 126;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 125;
}

/// Count files (or, for coverage, hits files) in `dir` written since `since` (the run's own),
/// sorted; the live file of a process killed before its final write stands for its final file.
std::vector<std::string> new_count_files(const std::string& dir, const struct timespec& since, bool hits) {
  std::string_view final_suffix = hits ? contract::kHitsFileSuffix : contract::kCountsFileSuffix;
  std::string_view live_suffix = hits ? contract::kHitsLiveSuffix : contract::kCountsLiveSuffix;
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (!name.ends_with(final_suffix) && !name.ends_with(live_suffix)) continue;
    struct stat st {};
    if (::stat(entry.path().c_str(), &st) != 0) continue;
    bool newer = st.st_mtim.tv_sec > since.tv_sec || (st.st_mtim.tv_sec == since.tv_sec && st.st_mtim.tv_nsec >= since.tv_nsec);
    if (newer) found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  return without_superseded(found);
}

/// `exec`'s options and their help, beside the instrument options.
void add_exec_options(cxxopts::Options& options) {
  add_instrument_options(options);
  options.add_options()("o,output", "directory of the files the run writes (default: cil-instrument-output; created if missing)",
                        cxxopts::value<std::string>(), "DIR")(
      "cobertura", "--mode coverage: write the run's Cobertura XML to FILE", cxxopts::value<std::string>(), "FILE")(
      "lcov", "--mode coverage: write the run's LCOV to FILE", cxxopts::value<std::string>(), "FILE")(
      "threshold", "--mode coverage: exit with status 6 when the total coverage is under N percent", cxxopts::value<std::string>(),
      "N")("threshold-type", "line, branch or method (repeatable; default: all three)",
           cxxopts::value<std::vector<std::string>>(), "TYPE")("h,help", "show this help")(
      "dirs", "folders", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"dirs"});
  options.positional_help("DIR... -- COMMAND [ARGS...]");
}

/// The coverage report's options, passed on to `report` after the command, in `report_options`:
/// an exit status when one is wrong.
std::optional<int> read_report_options(const cxxopts::ParseResult& args, const InstrumentParse& parsed,
                                       std::vector<std::string>& report_options) {
  for (const char* option : {"cobertura", "lcov", "threshold"})
    if (args.count(option)) report_options.insert(report_options.end(), {fmt::format("--{}", option), args[option].as<std::string>()});
  if (args.count("threshold-type"))
    for (const auto& type : args["threshold-type"].as<std::vector<std::string>>()) report_options.insert(report_options.end(), {"--threshold-type", type});
  if (!report_options.empty() && parsed.batch.instrument.options.mode != instrument::Mode::Coverage) {
    print_usage_error("exec: --cobertura, --lcov and --threshold go with --mode coverage");
    return kExitUsage;
  }
  // `report` checks these values again, but only after the command: a usage error then would
  // come after a whole test run.
  if (args.count("threshold")) {
    std::string text = args["threshold"].as<std::string>();
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || !(value >= 0 && value <= 100)) {
      print_usage_error(fmt::format("exec: --threshold needs a percentage from 0 to 100, not '{}'", text));
      return kExitUsage;
    }
  }
  if (args.count("threshold-type"))
    for (const auto& type : args["threshold-type"].as<std::vector<std::string>>())
      if (type != "line" && type != "branch" && type != "method") {
        print_usage_error(fmt::format("exec: --threshold-type is line, branch or method, not '{}'", type));
        return kExitUsage;
      }
  return std::nullopt;
}

/// The folders and the output directory, checked, in `dirs` and `output`: an exit status when
/// one is wrong.
std::optional<int> read_folders(const cxxopts::ParseResult& args, InstrumentParse& parsed, std::vector<std::string>& dirs,
                                fs::path& output) {
  // The folders' deps.json files stay as they are (the staged outputs have none beside them).
  parsed.batch.instrument.deps_arg = "none";
  dirs = args["dirs"].as<std::vector<std::string>>();
  std::error_code ec;
  for (size_t i = 0; i < dirs.size(); ++i)
    if (!fs::is_directory(dirs[i], ec)) {
      print_usage_error(fmt::format("exec: {} is not a directory", dirs[i]));
      return kExitUsage;
    }
  if (std::string overlap = overlapping_folders(dirs, "exec"); !overlap.empty()) {
    print_usage_error(overlap);
    return kExitUsage;
  }
  output = args.count("output") ? fs::path(args["output"].as<std::string>()) : fs::path("cil-instrument-output");
  // The state directory is removed after the run: counts written there would go with it.
  for (const auto& dir : dirs) {
    fs::path state = fs::weakly_canonical(fs::path(dir) / std::string(kExecStateDir), ec);
    fs::path out = fs::weakly_canonical(output, ec);
    if (std::mismatch(state.begin(), state.end(), out.begin(), out.end()).first == state.end()) {
      print_usage_error(fmt::format("exec: the output directory {} is inside {}, which exec removes", output.string(), state.string()));
      return kExitUsage;
    }
  }
  fs::create_directories(output, ec);
  output = fs::absolute(output, ec);
  if (ec || !fs::is_directory(output, ec)) {
    print_line("error", output.string(), "cannot create the output directory");
    return kExitOutput;
  }
  return std::nullopt;
}

/// The folders locked, what an earlier exec left put back, and each made ready for the run: an
/// exit status when one cannot be.
std::optional<int> open_folders(const std::vector<std::string>& dirs, std::vector<ExecFolder>& folders) {
  if (int status = lock_and_recover(dirs, folders, false, false); status != kExitOk) return status;
  for (auto& folder : folders)
    if (Status prepared = folder.prepare(); !prepared) {
      print_error(prepared.error());
      restore_all(folders);
      return kExitOutput;
    }
  return std::nullopt;
}

/// An assembly of one of the folders, and what became of it.
struct Planned {
  size_t folder;
  PlannedFile file;
};

/// Step 1: every assembly instrumented into its folder's staged/ directory, in `plan` and
/// `dones`; nothing of the user's is touched yet. An exit status when `exec` stops here.
std::optional<int> stage_all(std::vector<ExecFolder>& folders, BatchSetup& setup, std::vector<Planned>& plan,
                             std::vector<FileDone>& dones, size_t& instrumented, size_t& failed, OrderedRun& run) {
  for (size_t f = 0; f < folders.size(); ++f) {
    auto files = plan_inputs({folders[f].dir()});
    if (!files) {
      print_error(files.error());
      restore_all(folders);
      return kExitBadInput;
    }
    for (auto& file : *files) plan.push_back({f, std::move(file)});
  }
  if (setup.filter.assemblies.empty()) {
    // "My code": in a folder that holds the user's build, only that build, not the packages
    // and the test platform beside it.
    auto root = default_source_root();
    if (!root) {
      print_usage_error(root.error().message);
      restore_all(folders);
      return kExitUsage;
    }
    std::vector<PlannedFile> all;
    for (const Planned& p : plan) all.push_back(p.file);
    setup.filter.user_root = user_build_root(all, *root);
    if (!setup.filter.user_root.empty())
      print_line("exec", "", fmt::format("instrumenting the assemblies built from sources under {}, test assemblies left out (--assemblies chooses others)", *root));
  }
  dones.resize(plan.size());
  run = run_ordered(
      plan.size(), setup.threads, setup.fail_fast,
      [&](size_t i) {
        if (g_signal) return JobResult{{}, {}, 128 + g_signal};
        return process_file(plan[i].file, folders[plan[i].folder].staged_path(plan[i].file.relative), setup, dones[i]);
      },
      [&](size_t i, const JobResult& r) {
        if (dones[i].status == FileStatus::Instrumented) ++instrumented;
        if (dones[i].status == FileStatus::Failed) ++failed;
        std::string text = r.err + r.out;
        std::fwrite(text.data(), 1, text.size(), stderr);
      });
  if (g_signal || (setup.fail_fast && run.first_failure)) {
    int sig = g_signal;
    restore_all(folders);
    if (sig) print_line("exec", "", fmt::format("stopped by signal {} before the command ran; nothing was changed", sig));
    return sig ? 128 + sig : run.first_failure;
  }
  return std::nullopt;
}

/// Step 2: the journal, then the instrumented files in place; from here on a crash is undone by
/// the next run or `restore`. False (the originals put back, the error printed) when it fails.
bool replace_all(std::vector<ExecFolder>& folders, const std::vector<Planned>& plan, const std::vector<FileDone>& dones) {
  std::vector<std::vector<JournalEntry>> entries(folders.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    if (dones[i].status != FileStatus::Instrumented) continue;
    auto& list = entries[plan[i].folder];
    list.push_back({true, plan[i].file.relative});
    if (dones[i].wrote_pdb) {
      std::string pdb = instrument::pdb_beside(plan[i].file.relative);
      list.push_back({!plan[i].file.pdb.empty(), pdb});
    }
  }
  {
    BlockedSignals blocked;
    for (size_t f = 0; f < folders.size(); ++f) {
      Status done = folders[f].write_journal(entries[f]);
      if (done) done = folders[f].replace_all(entries[f]);
      if (!done) {
        print_error(done.error());
        restore_all(folders);
        return false;
      }
    }
  }
  return true;
}

/// Step 5: the report of what the run wrote: the call counts, or the coverage table and the
/// files asked for, exactly as `report` prints and writes them from the same files. Its status.
int report_run(const BatchSetup& setup, const fs::path& output, const struct timespec& started, size_t instrumented,
               const std::vector<std::string>& report_options) {
  int report_status = kExitOk;
  const instrument::Mode mode = setup.instrument.options.mode;
  if ((mode == instrument::Mode::Count || mode == instrument::Mode::Coverage) && !g_signal) {
    const bool hits = mode == instrument::Mode::Coverage;
    std::vector<std::string> files = new_count_files(output.string(), started, hits);
    if (files.empty() && instrumented) {
      print_line("warning", output.string(),
                 fmt::format("the command wrote no {} file (no instrumented code ran, or its process was killed)", hits ? "hits" : "counts"));
    } else if (!files.empty()) {
      std::vector<std::string> words = {"report"};
      words.insert(words.end(), files.begin(), files.end());
      words.insert(words.end(), report_options.begin(), report_options.end());
      std::vector<char*> report_argv;
      for (auto& w : words) report_argv.push_back(w.data());
      report_argv.push_back(nullptr);
      std::fflush(nullptr);
      report_status = run_report(static_cast<int>(words.size()), report_argv.data());
    }
  }
  return report_status;
}

}  // namespace

int run_exec(int argc, char** argv) {
  cxxopts::Options options("cil-instrument exec",
                           "Instrument the assemblies of folders in place, run a command, put the originals back, report.");
  add_exec_options(options);
  int split = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--") {
      split = i;
      break;
    }
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, split, argv, args)) return *done;
  if (split + 1 >= argc) {
    print_usage_error("exec: missing the command (cil-instrument exec [OPTIONS] DIR... -- COMMAND [ARGS...])");
    return kExitUsage;
  }
  if (!args.count("dirs")) {
    print_usage_error("exec: missing the folders to instrument");
    return kExitUsage;
  }
  InstrumentParse parsed;
  if (int status = parse_instrument_options("exec", args, parsed); status != kExitOk) return status;
  if (!parsed.batch.instrument.deps_arg.empty()) {
    // A deps.json changed here would outlive the run: exec puts back only what it instrumented.
    print_usage_error("exec: --deps is for instrument; exec leaves deps.json files as they are");
    return kExitUsage;
  }
  std::vector<std::string> report_options;
  if (auto done = read_report_options(args, parsed, report_options)) return *done;
  std::vector<std::string> dirs;
  fs::path output;
  if (auto done = read_folders(args, parsed, dirs, output)) return *done;
  if (int status = load_hooks(parsed); status != kExitOk) return status;
  struct timespec started {};
  ::clock_gettime(CLOCK_REALTIME, &started);
  started.tv_sec -= 1;  // file systems with coarse timestamps

  install_signal_handlers();
  std::vector<ExecFolder> folders;
  if (auto done = open_folders(dirs, folders)) return *done;

  // 1. Instrument into each folder's staged/ directory; nothing of the user's is touched yet.
  BatchSetup setup = parsed.batch;
  setup.copy_unchanged = false;
  setup.json = false;
  setup.instrument.interruptible = false;  // the state directory is removed whatever happens
  std::vector<Planned> plan;
  std::vector<FileDone> dones;
  size_t instrumented = 0, failed = 0;
  OrderedRun run;
  if (auto done = stage_all(folders, setup, plan, dones, instrumented, failed, run)) return *done;

  // 2. Journal, then replace: from here on a crash is undone by the next run or `restore`.
  if (!replace_all(folders, plan, dones)) return kExitOutput;
  print_line("exec", "", fmt::format("instrumented {} in place ({} mode){}; running {}", plural(instrumented, "assembly", "assemblies"),
                                     setup.instrument.mode_name, failed ? fmt::format(", {} failed", failed) : "", argv[split + 1]));

  // 3. The command, unless a signal came while the files were being replaced.
  int status = g_signal ? 128 + g_signal : run_command(argv + split + 1, output.string());

  // 4. The originals back, whatever happened.
  size_t kept = 0;
  bool restored = restore_all(folders, &kept);
  if (restored)
    print_line("exec", "",
               kept ? fmt::format("restored the originals, but for {} written since exec put it in place", plural(kept, "file", "files"))
                    : fmt::format("restored {}", plural(instrumented, "assembly", "assemblies")));

  // 5. The report of what the run wrote.
  int report_status = report_run(setup, output, started, instrumented, report_options);
  // A folder not put back outranks everything; then a failed threshold outranks the command's
  // status (the man page's order: a coverage gate reads 6 whether or not the tests passed, and a
  // failing command has said so in its own output); then the command's.
  if (!restored) return kExitOutput;
  if (report_status == kExitThreshold) return kExitThreshold;
  if (status != 0) return status;
  if (failed) return run.first_failure;
  return report_status;
}

int run_restore(int argc, char** argv) {
  cxxopts::Options options("cil-instrument restore", "Put back the originals that an interrupted exec left in folders.");
  options.add_options()("force",
                        "when a journal cannot be read, put back every original kept aside over the file in place, unchecked")(
      "h,help", "show this help")("dirs", "folders", cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"dirs"});
  options.positional_help("DIR...");
  cxxopts::ParseResult args;
  if (auto done = parse_options(options, argc, argv, args)) return *done;
  if (!args.count("dirs")) {
    print_usage_error("restore: missing the folders");
    return kExitUsage;
  }
  std::vector<std::string> dirs = args["dirs"].as<std::vector<std::string>>();
  std::error_code ec;
  for (const auto& dir : dirs)
    if (!fs::is_directory(dir, ec)) {
      print_usage_error(fmt::format("restore: {} is not a directory", dir));
      return kExitUsage;
    }
  if (std::string overlap = overlapping_folders(dirs, "restore"); !overlap.empty()) {
    print_usage_error(overlap);
    return kExitUsage;
  }
  std::vector<ExecFolder> folders;
  return lock_and_recover(dirs, folders, args.count("force") > 0, true);
}

}  // namespace cil::cli
