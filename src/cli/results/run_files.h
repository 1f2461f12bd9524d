// What a profiled run left behind: the profiler's files written into the output directory while
// it ran, by the command and by every process that inherited its settings (test hosts, MSBuild
// nodes, compiler servers), and those processes that are still running when the command ends.
#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace cil::cli {

/// The profiler's files in `dir` (counts, hits, events and args logs, warnings) written at or
/// after `since`, sorted by name.
std::vector<std::string> profiler_files_since(const std::string& dir, std::filesystem::file_time_type since);

/// Patterns joined with contract::kPatternSeparator, as CIL_INSTRUMENT_INCLUDE and _EXCLUDE take them.
std::string join_patterns(const std::vector<std::string>& patterns);

/// The profiler library beside this executable; empty when it is not there.
std::string profiler_library();

/// True when `path` is a profiler's warnings file (cil-instrument.<pid>.log, or
/// cil-instrument.<pid>.<tag>.log for an attach session).
bool is_warnings_file(const std::string& path);

/// True when `path` is an attach session's record (cil-instrument.<pid>.<tag>.session).
bool is_session_record(const std::string& path);

/// The processes, other than this one, whose environment holds `variable`=`value` (readable
/// for this user in /proc), ascending.
std::vector<pid_t> processes_with_environment(const std::string& variable, const std::string& value);

}  // namespace cil::cli
