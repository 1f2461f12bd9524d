// Locating benchmark inputs on this machine: the newest installed System.Private.CoreLib.
#pragma once

#include <string>

namespace cil::bench {

/// Path of System.Private.CoreLib.dll from $CIL_BENCH_CORELIB, or the newest one under the
/// usual .NET install roots; empty when none is found.
std::string corelib_path();

}  // namespace cil::bench
