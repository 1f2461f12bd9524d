// Which modules are the framework's, by where they were loaded from, not by their names: the
// shared frameworks beside the runtime (libcoreclr.so's .../shared/<Framework>/<version>/), or,
// for a self-contained app whose runtime sits in its own folder, the framework's assembly names
// in that folder.
#pragma once

#include <string>
#include <string_view>

namespace cil::profiler {

/// The directory of the loaded libcoreclr.so (from /proc/self/maps), without the trailing
/// slash; empty when it cannot be found.
std::string runtime_directory();

/// True when the module file `path` belongs to the framework of the runtime in `runtime_dir`:
/// under `runtime_dir`'s shared folder (.../shared/) when the runtime is a shared framework's,
/// else in `runtime_dir` itself with a framework assembly's name (System.*, Microsoft.*,
/// mscorlib, netstandard, WindowsBase). Modules without a file (empty path) are not.
bool framework_module(std::string_view path, std::string_view runtime_dir);

}  // namespace cil::profiler
