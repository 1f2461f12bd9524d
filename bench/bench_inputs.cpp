// Search of the .NET install roots for the newest shared framework.
#include "bench_inputs.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace cil::bench {

std::string corelib_path() {
  if (const char* env = std::getenv("CIL_BENCH_CORELIB")) return env;
  std::vector<std::filesystem::path> roots;
  if (const char* root = std::getenv("DOTNET_ROOT")) roots.emplace_back(root);
  roots.emplace_back("/usr/share/dotnet");
  roots.emplace_back("/usr/lib/dotnet");
  for (const auto& root : roots) {
    std::filesystem::path fx = root / "shared" / "Microsoft.NETCore.App";
    std::error_code ec;
    if (!std::filesystem::is_directory(fx, ec)) continue;
    std::string best;
    for (const auto& entry : std::filesystem::directory_iterator(fx, ec)) {
      auto candidate = entry.path() / "System.Private.CoreLib.dll";
      if (std::filesystem::exists(candidate) && candidate.string() > best) best = candidate.string();
    }
    if (!best.empty()) return best;
  }
  return "";
}

}  // namespace cil::bench
