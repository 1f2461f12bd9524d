// The contract between the tool, the code it injects and the profiler library: the CLSID, the
// library's file name, the environment variables that configure a run, and the counts file.
// Every side includes this one header (it sits in instrument/, below both cli/ and profiler/); no other
// file spells these names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "metadata/token_text.h"

namespace cil::contract {

/// The profiler's COM class id, as CORECLR_PROFILER expects it.
inline constexpr std::string_view kClsidText = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6410}";
/// File name of the library, installed next to the cil-instrument executable.
inline constexpr std::string_view kLibraryName = "libcilprofiler.so";

// The runtime's own switches (read by CoreCLR, not by us).
inline constexpr const char* kEnvEnable = "CORECLR_ENABLE_PROFILING";
inline constexpr const char* kEnvClsid = "CORECLR_PROFILER";
inline constexpr const char* kEnvPath = "CORECLR_PROFILER_PATH";

// Ours.
inline constexpr const char* kEnvMode = "CIL_INSTRUMENT_MODE";        ///< count (default), events, args, coverage or trace
/// Trace mode: the hooks assembly (an absolute path) and, optionally, the hook type (Ns.Type).
inline constexpr const char* kEnvHooks = "CIL_INSTRUMENT_HOOKS";
inline constexpr const char* kEnvHookType = "CIL_INSTRUMENT_HOOK_TYPE";
inline constexpr const char* kEnvInclude = "CIL_INSTRUMENT_INCLUDE";  ///< glob patterns separated by ';'
inline constexpr const char* kEnvExclude = "CIL_INSTRUMENT_EXCLUDE";  ///< glob patterns separated by ';'
/// --assemblies / --skip-assemblies: globs on the module's file name (its full path for a glob
/// with a '/'), separated by ';': only the modules the first matches (when set) and the second
/// does not are instrumented. The framework's modules stay left out without CIL_INSTRUMENT_FRAMEWORK.
inline constexpr const char* kEnvAssemblies = "CIL_INSTRUMENT_ASSEMBLIES";
inline constexpr const char* kEnvSkipAssemblies = "CIL_INSTRUMENT_SKIP_ASSEMBLIES";
/// Coverage mode: a directory; only modules whose portable PDB names a document under it are
/// covered (the user's own code, not the test platform's, xunit's or a package's). `run` sets it
/// to its working directory for `dotnet test` when no --assemblies is given.
inline constexpr const char* kEnvSourceRoot = "CIL_INSTRUMENT_SOURCE_ROOT";
/// Coverage mode: "1" (`run --hit-counts`) makes each probe count its hits exactly
/// (Interlocked.Increment), as offline --hit-counts; otherwise a probe stores 1, hit or not.
inline constexpr const char* kEnvHitCounts = "CIL_INSTRUMENT_HIT_COUNTS";
/// Directory of the files the profiler writes (default: the working directory). Offline
/// count mode reads the same variable for its count files.
inline constexpr const char* kEnvOutput = "CIL_INSTRUMENT_OUTPUT";
/// Offline count mode: when a positive integer N, the counts file is also written every N
/// seconds (so a process killed with SIGKILL leaves the last complete file).
inline constexpr const char* kEnvFlushSeconds = "CIL_INSTRUMENT_FLUSH_SECONDS";
/// The largest period CIL_INSTRUMENT_FLUSH_SECONDS gives (a larger number means this one).
inline constexpr unsigned kMaxFlushSeconds = 2'000'000;
/// VSTest's own switch (read by `dotnet test`): how long the test host may take to end after the
/// test session before it is killed (default 100 ms). `run` and `exec` set it to
/// kTestHostShutdownMs unless it is set, so that counts written at exit are never cut off.
inline constexpr const char* kEnvTestHostShutdownTimeout = "VSTEST_TESTHOST_SHUTDOWN_TIMEOUT";
inline constexpr const char* kTestHostShutdownMs = "60000";
/// "1": the framework's modules may be instrumented (precompiled code and inlining then off for
/// the whole process); otherwise they are left out, whatever the patterns select.
inline constexpr const char* kEnvFramework = "CIL_INSTRUMENT_FRAMEWORK";
/// `run --start-after` / `--window`: "START:END" in milliseconds since the profiler loaded (END 0:
/// until the process ends). Count and coverage modes then put their probes in through ReJIT at
/// START and take them out at END, so only calls in the window count.
inline constexpr const char* kEnvWindow = "CIL_INSTRUMENT_WINDOW";
/// Set by `run` to an id of the run in the command's environment, which every process started
/// from it inherits: `run` finds those still running when the command ends.
inline constexpr const char* kEnvRun = "CIL_INSTRUMENT_RUN";
/// When set to a file path, the profiler appends one JSON line of rewrite timings to it.
inline constexpr const char* kEnvStats = "CIL_INSTRUMENT_STATS";

// `attach`: the profiler is loaded into a running process through the diagnostics IPC, with one
// class id per mode (the factory makes the mode's profiler before the settings arrive). The
// settings come as the client data of the attach request: lines `NAME=VALUE\n`, NAME being one
// of the variables above (mode, include, exclude, output) or one of the three below.
inline constexpr std::string_view kAttachClsidCount = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6411}";
inline constexpr std::string_view kAttachClsidEvents = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6412}";
inline constexpr std::string_view kAttachClsidCoverage = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6413}";
inline constexpr std::string_view kAttachClsidTrace = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6414}";
/// The session's tag: in the names of the files the session writes (`<Assembly>.<pid>.<tag>.counts.json`,
/// `cil-instrument.<pid>.<tag>.events.log`) and of its two marker files below.
inline constexpr const char* kAttachSession = "CIL_INSTRUMENT_ATTACH_SESSION";
/// The attaching process's id: the session ends when that process is gone.
inline constexpr const char* kAttachClient = "CIL_INSTRUMENT_ATTACH_CLIENT";
/// The session's length in milliseconds; 0: until the stop file appears or the client is gone.
inline constexpr const char* kAttachMilliseconds = "CIL_INSTRUMENT_ATTACH_MS";
/// `<output>/cil-instrument.<pid>.<tag>.stop`, made by the client: end the session now.
inline constexpr std::string_view kAttachStopSuffix = ".stop";
/// `<output>/cil-instrument.<pid>.<tag>.session`, written by the profiler once the session's files
/// are written: `key value` lines, the session's record (how it ended, the methods ReJIT-ed and
/// reverted, the window's edges in CLOCK_MONOTONIC nanoseconds). The client waits for it.
inline constexpr std::string_view kAttachDoneSuffix = ".session";
/// The runtime never lets a profiler that enabled ReJIT detach: after its session such a profiler
/// stays loaded, inactive (no probe, no callback), and takes the next attach to the process
/// itself, on its own socket `<TMPDIR>/cil-instrument-<pid>-socket`. Request: a uint32 length
/// (little-endian), then the client data; answer: a uint32 length, then "ok" or the reason why not.
inline constexpr std::string_view kAgentSocketPrefix = "cil-instrument-";
inline constexpr std::string_view kAgentSocketSuffix = "-socket";
/// That socket's path for process `pid` whose temporary directory is `temp_dir` (ending in '/').
inline std::string agent_socket_path(std::string_view temp_dir, int pid) {
  return std::string(temp_dir) + std::string(kAgentSocketPrefix) + std::to_string(pid) + std::string(kAgentSocketSuffix);
}

/// Separator of the patterns in CIL_INSTRUMENT_INCLUDE and CIL_INSTRUMENT_EXCLUDE (no method
/// name a C# or VB compiler emits contains it).
inline constexpr char kPatternSeparator = ';';

// The counts file, one per process and module: written by the code offline count mode injects
// (instrument/count_mode.cpp, as ldstr pieces) and by the profiler (profiler/count_profiler.cpp), read by
// `report` (cli/results/count_file.cpp). One line:
//   {"assembly": "App", "mvid": "0123...", "methods": [{"token": "0x0600002A", "name": "Ns.T::M",
//    "count": 12}, {...}]}
// Both writers assemble it from the pieces below; the reader knows it by its keys.
inline constexpr std::string_view kCountsKeyAssembly = "assembly";
inline constexpr std::string_view kCountsKeyMvid = "mvid";
inline constexpr std::string_view kCountsKeyMethods = "methods";
inline constexpr std::string_view kCountsKeyToken = "token";
inline constexpr std::string_view kCountsKeyName = "name";
inline constexpr std::string_view kCountsKeyCount = "count";

// A method's key is its token as md::token_text writes it (metadata/token_text.h).

/// The file's name: "<Assembly>." then the process id then the suffix. A second module with the
/// same assembly name in one process (the profiler), or a second load of the same assembly into
/// another AssemblyLoadContext (offline count mode), adds ".<n>" (from 2) before the suffix;
/// offline count mode in an AppDomain other than the default one puts ".domain<id>" before that.
inline constexpr std::string_view kCountsFileSuffix = ".counts.json";
/// A counts file is written to its name plus this suffix, then renamed over the name.
inline constexpr std::string_view kCountsTempSuffix = ".tmp";

/// The live file: while the program runs, its counters are a shared mapping of
/// "<Assembly>.<pid>[tag].counts.live" (".hits.live" in coverage mode) in the directory of the
/// counts file, so a process killed at any moment (SIGKILL, VSTest's kill of the test host)
/// leaves its exact counts on disk; the final write of the counts file deletes it. `report` reads
/// it as the counts file it stands for. Layout, little-endian:
///   0  "CILLIVE" then a state byte: kLiveWriting while the file is made, kLiveCounting once the
///      counters are there (the file is used only then)
///   8  uint32 version (kLiveVersion), 12 uint32 slots, 16 uint32 header text bytes,
///   20 uint32 method text bytes, 24 uint32 tail text bytes, 28 uint32 zero
///   32 slots x int64 counters, then the header text, the method text, slots x int32 lengths
///      of each slot's text (the counts file is: header, then per slot its text and its count
///      in decimal, then the tail), then the tail text.
inline constexpr std::string_view kCountsLiveSuffix = ".counts.live";
inline constexpr std::string_view kHitsLiveSuffix = ".hits.live";
inline constexpr std::string_view kLiveMagic = "CILLIVE";
inline constexpr char kLiveWriting = '0', kLiveCounting = '1';
inline constexpr uint32_t kLiveVersion = 1;
inline constexpr uint32_t kLiveHeaderSize = 32;
/// The offset of the state byte.
inline constexpr uint32_t kLiveStateOffset = 7;

/// The signals on which the counts file is written (PosixSignal member names), and the type
/// that offline count mode's helper looks up to register them (.NET 6 and later).
inline constexpr std::string_view kCountSignals[] = {"SIGTERM", "SIGINT", "SIGQUIT"};
inline constexpr std::string_view kPosixSignalRegistrationType =
    "System.Runtime.InteropServices.PosixSignalRegistration, System.Runtime.InteropServices";
inline std::string counts_file_prefix(std::string_view assembly) { return std::string(assembly) + "."; }

/// `"key": ` as the counts file spells a member's start.
inline std::string counts_key(std::string_view key) { return "\"" + std::string(key) + "\": "; }
/// The file up to its first method; `assembly` and `mvid` are JSON strings, quotes included.
inline std::string counts_header(std::string_view assembly, std::string_view mvid) {
  return "{" + counts_key(kCountsKeyAssembly) + std::string(assembly) + ", " + counts_key(kCountsKeyMvid) +
         std::string(mvid) + ", " + counts_key(kCountsKeyMethods) + "[";
}
/// A method: opening, token digits, name piece, the name as a JSON string, count piece, the
/// count, closing; methods are separated by kCountsSeparator.
inline std::string counts_method_open() { return "{" + counts_key(kCountsKeyToken) + "\"" + std::string(md::kTokenPrefix); }
inline std::string counts_method_name() { return "\", " + counts_key(kCountsKeyName); }
inline std::string counts_method_count() { return ", " + counts_key(kCountsKeyCount); }
inline constexpr std::string_view kCountsMethodClose = "}";
inline constexpr std::string_view kCountsSeparator = ", ";
/// After the last method.
inline constexpr std::string_view kCountsTail = "]}\n";

// The hits file of coverage mode: the counts file's shape and writer (offline: the same injected
// runtime), named "<Assembly>.<pid>.hits.json", with `"kind": "hits"` after the mvid and one
// entry per probe instead of per method, in probe order. An entry's "token" is its method's, its
// "count" the probe's hits, and its "name" describes the probe, fields separated by a tab (the
// last field takes the rest of the text):
//   "M\t<token>\t<method name>"                  method entry (one per method, first): the method
//      the probes are reported under (a state machine's kickoff method), token as "0x06..."
//   "L\t<start line>\t<end line>\t<document>"    a non-hidden sequence point
//   "B\t<line>\t<il offset>\t<path>\t<document>" one outcome of a conditional branch or switch
//      (path 0: the fall-through, 1...: the target, or the switch's targets in order)
// An empty document is the one of the method's previous L or B entry. One probe may describe
// several L and B entries (coverage_mode.h says when), one after another separated by a newline,
// all with the probe's count; the method entry is always the first of its probe's. An entry's
// document is empty when it is the one of the entry before, in that order.
inline constexpr char kHitsEntrySeparator = '\n';
inline constexpr std::string_view kHitsFileSuffix = ".hits.json";
inline constexpr std::string_view kCountsKeyKind = "kind";
inline constexpr std::string_view kHitsKind = "hits";
inline constexpr char kHitsSeparator = '\t';
inline constexpr char kHitsMethod = 'M', kHitsLine = 'L', kHitsBranch = 'B';
/// The hits file up to its first probe.
inline std::string hits_header(std::string_view assembly, std::string_view mvid) {
  return "{" + counts_key(kCountsKeyAssembly) + std::string(assembly) + ", " + counts_key(kCountsKeyMvid) +
         std::string(mvid) + ", " + counts_key(kCountsKeyKind) + "\"" + std::string(kHitsKind) + "\", " +
         counts_key(kCountsKeyMethods) + "[";
}

}  // namespace cil::contract
