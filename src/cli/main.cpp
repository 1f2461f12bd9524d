// The cil-instrument command: dispatches to subcommands.
#include <cstring>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands/commands.h"
#include "cli/common.h"

namespace {

constexpr std::string_view kUsage = R"(Usage:
  cil-instrument [instrument] IN -o OUT [--mode count|coverage|trace|wrap|noop]
                 [--exclude-by-file GLOB]... [--exclude-by-attribute NAME]... [--hit-counts]
                 [--hooks HOOKS.dll] [--hook-type TYPE] [--deps FILE|none]
                 [--include PATTERN]... [--exclude PATTERN]... [--method-rva RVA]...
                 [--pdb PATH|none] [--key FILE.snk] [--delay-sign] [--no-verify] [--json]
  cil-instrument [instrument] IN... -o OUTDIR [--assemblies GLOB]... [--skip-assemblies GLOB]...
                 [-j N] [--fail-fast] [instrument options]
  cil-instrument exec [instrument options] [-o DIR] [--cobertura FILE] [--lcov FILE]
                 [--threshold N] [--threshold-type line|branch|method]...
                 DIR... -- COMMAND [ARGS...]
  cil-instrument restore [--force] DIR...
  cil-instrument info IN [--json]
  cil-instrument dump IN [--method PATTERN]... [--pdb PATH|none] [--json]
  cil-instrument diff OLD NEW [--method PATTERN]... [--json]
  cil-instrument report {FILE|DIR}... [--top N] [--json] [--cobertura FILE] [--lcov FILE]
                 [--threshold N] [--threshold-type line|branch|method]...
                 [--path-map FROM=TO]... [--source-root DIR]
  cil-instrument run [--mode count|coverage|events|args|trace] [--hooks HOOKS.dll [--hook-type TYPE]]
                 [--include PATTERN]... [--exclude PATTERN]... [--assemblies GLOB]...
                 [--skip-assemblies GLOB]... [--include-framework] [--hit-counts]
                 [--start-after TIME | --window START:END] [-o DIR] [--stats FILE] [-q]
                 -- COMMAND [ARGS...]
  cil-instrument attach PID [--mode count|events|coverage|trace] [--hooks HOOKS.dll [--hook-type TYPE]]
                 [--include PATTERN]... [--exclude PATTERN]... [--assemblies GLOB]... [--skip-assemblies GLOB]...
                 [--hit-counts] [--duration TIME] [-o DIR] [--stats FILE] [-q]
  cil-instrument --help | --version

Commands:
  instrument  rewrite the methods of IN and write OUT: count calls (default), call
          your own hooks (trace), or exercise the engine (wrap, noop); the word
          'instrument' may be left out; several inputs or a directory (every
          managed assembly in it) go to OUTDIR, with the other files copied
  exec    instrument the assemblies of folders in place, run COMMAND, put the
          originals back (also after a failure, Ctrl-C, or on the next run after
          a crash) and print the report (with --mode coverage the coverage
          table, and the files report writes); exits with the command's
          status, or 6 under a --threshold
  restore put back what an interrupted exec left in folders
  info    show PE and CLI headers, flags, ReadyToRun, strong name, debug directory,
          metadata streams, table row counts and the number of method bodies
  dump    list every method body (ildasm-like); PATTERN is a glob on
          Namespace.Type::Method, nested types written Outer/Inner
  diff    unified diffs of the IL listings of the methods that differ between
          two assemblies (exit 1 when they differ)
  report  merge the count files of instrumented runs and list the methods of
          each assembly by number of calls; of hits files (coverage), the line,
          branch and method coverage, Cobertura or LCOV, and a threshold
  run     run a .NET command with the runtime profiler attached: call counts
          (count), line and branch hits (coverage), a log of runtime events
          (events) or of calls with their arguments (args), from the start or in
          a window of time; exits with the command's status
  attach  load the profiler into a running .NET process, collect (count through
          ReJIT, events or coverage) for a time or until Ctrl-C, then take the
          probes out and detach; the process runs on

Run 'cil-instrument COMMAND --help' for a command's options; see cil-instrument(1).
)";

/// Descriptors 0, 1 and 2 made valid (/dev/null) where the caller closed them, before anything
/// opens a file: otherwise the first file opened becomes "standard output" and the tool's lines
/// land in it (an output assembly, a count file). Nothing can be said if this fails, so the tool
/// stops at once with the usage status rather than write into the wrong file.
bool standard_descriptors_valid() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1) continue;
    // The lowest free descriptor is fd, as the lower ones are open by now.
    int null = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null != fd) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cil::cli;
  if (!standard_descriptors_valid()) return kExitUsage;
  if (argc < 2) {
    print_usage_error("no command given");
    return kExitUsage;
  }
  std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    return write_stdout(kUsage) ? kExitOk : kExitOutput;
  }
  if (command == "--version") {
    return write_stdout(fmt::format("cil-instrument {}\n", CIL_INSTRUMENT_VERSION)) ? kExitOk : kExitOutput;
  }
  if (command == "info") return run_info(argc - 1, argv + 1);
  if (command == "dump") return run_dump(argc - 1, argv + 1);
  if (command == "instrument") return run_instrument(argc - 1, argv + 1);
  if (command == "diff") return run_diff(argc - 1, argv + 1);
  if (command == "report") return run_report(argc - 1, argv + 1);
  if (command == "run") return run_profiled(argc - 1, argv + 1);
  if (command == "exec") return run_exec(argc - 1, argv + 1);
  if (command == "attach") return run_attach(argc - 1, argv + 1);
  if (command == "restore") return run_restore(argc - 1, argv + 1);
  // No command word: `cil-instrument IN -o OUT ...` instruments.
  if (!command.empty() && command[0] != '-') return run_instrument(argc, argv);
  print_usage_error(fmt::format("unknown option '{}'", command));
  return kExitUsage;
}
