// The contract between the tool, the code it injects and the profiler library: the CLSID, the
// library's file name and the environment variables that configure a run. Every side includes
// this one header (it sits in il/, below both cli/ and profiler/).
#pragma once

#include <string_view>

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
inline constexpr const char* kEnvMode = "CIL_INSTRUMENT_MODE";        ///< count (default), events or args
inline constexpr const char* kEnvInclude = "CIL_INSTRUMENT_INCLUDE";  ///< glob patterns separated by ';'
inline constexpr const char* kEnvExclude = "CIL_INSTRUMENT_EXCLUDE";  ///< glob patterns separated by ';'
/// Directory of the files the profiler writes (default: the working directory). Offline
/// count mode reads the same variable for its count files.
inline constexpr const char* kEnvOutput = "CIL_INSTRUMENT_OUTPUT";
/// When set to a file path, the profiler appends one JSON line of rewrite timings to it.
inline constexpr const char* kEnvStats = "CIL_INSTRUMENT_STATS";

/// Separator of the patterns in CIL_INSTRUMENT_INCLUDE and CIL_INSTRUMENT_EXCLUDE (no method
/// name a C# or VB compiler emits contains it).
inline constexpr char kPatternSeparator = ';';

}  // namespace cil::contract
