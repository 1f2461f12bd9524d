// The profiler's configuration, read from environment variables (see instrument/runtime_contract.h) and checked
// before the profiler agrees to load.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/name_pattern.h"
#include "support/error.h"

namespace cil::profiler {

enum class Mode {
  Count,   ///< entry probes with native counters; <Assembly>.<pid>.counts.json at shutdown
  Events,  ///< an indented log of the runtime's life
  Args,    ///< one line per call of a selected method, with its argument values
  /// offline coverage mode's probes (lines, branches, method entries) in modules with a matching
  /// portable PDB, native counters; <Assembly>.<pid>.hits.json at shutdown
  Coverage,
  /// the user's hooks called from the selected methods, as offline trace mode does; no file
  Trace,
};

const char* mode_name(Mode mode);

struct Config {
  Mode mode = Mode::Count;
  md::MethodFilter filter;
  /// CIL_INSTRUMENT_ASSEMBLIES / CIL_INSTRUMENT_SKIP_ASSEMBLIES: the modules whose methods may be
  /// selected, by their file (modules without a file match as their runtime name).
  md::AssemblyFilter assemblies;
  /// CIL_INSTRUMENT_SOURCE_ROOT, without its trailing '/': coverage mode covers only modules whose
  /// PDB names a document under it; empty: every module with a PDB.
  std::string source_root;
  /// CIL_INSTRUMENT_HIT_COUNTS=1: coverage probes count exactly instead of storing 1.
  bool hit_counts = false;
  std::string output_dir;  ///< where every file goes; never empty
  std::string stats_path;  ///< empty: no rewrite statistics
  /// CIL_INSTRUMENT_FLUSH_SECONDS as offline count mode reads it: a positive decimal integer
  /// (capped at contract::kMaxFlushSeconds) is the period of the files' periodic write; anything
  /// else, or unset, is 0: no periodic write.
  unsigned flush_seconds = 0;
  /// Trace mode: CIL_INSTRUMENT_HOOKS, the hooks assembly, and CIL_INSTRUMENT_HOOK_TYPE (empty:
  /// the one public type with hooks).
  std::string hooks_path, hook_type;
  /// CIL_INSTRUMENT_FRAMEWORK=1 (`run --include-framework`): methods of the framework's modules
  /// may be selected, and then precompiled code and inlining are off for the whole process
  /// (their precompiled code would run instead of instrumented IL). Otherwise the framework's
  /// modules are left out whatever the patterns say, and keep their precompiled code.
  bool framework_selected = false;
  /// CIL_INSTRUMENT_WINDOW: collect from window_start_ms to window_end_ms after the profiler
  /// loads (0: until the end); window_set false: from the start, at first JIT compilation.
  bool window_set = false;
  uint64_t window_start_ms = 0;
  uint64_t window_end_ms = 0;
};

/// Returns the value of an environment variable, or nullptr when it is not set.
using EnvLookup = std::function<const char*(const char*)>;

/// Reads the configuration. `working_dir` is the default output directory. Errors are Usage
/// errors whose message is the one line the profiler prints when it declines to load.
Expected<Config> read_config(const EnvLookup& lookup, std::string_view working_dir);

/// The flush period a CIL_INSTRUMENT_FLUSH_SECONDS value gives (see Config::flush_seconds);
/// `text` may be null (unset).
unsigned flush_period(const char* text);

/// Checks that `dir` is an existing directory this process may create files in.
Status check_output_dir(const std::string& dir);

/// A decimal number of at most 12 digits, nothing else (no sign, no blank); false otherwise.
bool parse_decimal(std::string_view text, uint64_t& out);

/// Splits a list of patterns at ';', dropping empty items and surrounding blanks.
std::vector<std::string> split_patterns(std::string_view text);

}  // namespace cil::profiler
