// Which modules are the framework's (see framework_modules.h).
#include "profiler/framework_modules.h"

#include <fstream>

namespace cil::profiler {

std::string runtime_directory() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  constexpr std::string_view library = "/libcoreclr.so";
  while (std::getline(maps, line)) {
    size_t at = line.find(library);
    if (at == std::string::npos || at + library.size() != line.size()) continue;
    size_t start = line.find('/');
    if (start == std::string::npos || start > at) continue;
    return line.substr(start, at - start);
  }
  return "";
}

bool framework_module(std::string_view path, std::string_view runtime_dir) {
  if (path.empty() || runtime_dir.empty()) return false;
  // .../shared/Microsoft.NETCore.App/10.0.12: every shared framework under .../shared/.
  constexpr std::string_view shared = "/shared/";
  size_t at = runtime_dir.rfind(shared);
  if (at != std::string_view::npos) {
    std::string_view root = runtime_dir.substr(0, at + shared.size());
    return path.substr(0, root.size()) == root;
  }
  // Self-contained: the runtime's folder is the app's; only framework names count there.
  if (path.size() <= runtime_dir.size() || path.substr(0, runtime_dir.size()) != runtime_dir || path[runtime_dir.size()] != '/')
    return false;
  std::string_view file = path.substr(runtime_dir.size() + 1);
  if (file.find('/') != std::string_view::npos) return false;
  for (std::string_view prefix : {"System.", "Microsoft.", "mscorlib.", "netstandard.", "WindowsBase."})
    if (file.substr(0, prefix.size()) == prefix) return true;
  return false;
}

}  // namespace cil::profiler
