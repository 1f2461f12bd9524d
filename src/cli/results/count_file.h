// The count files that instrumented programs write (one per process), their validation, and
// their merge per assembly build for `report`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "metadata/ids.h"
#include "support/error.h"

namespace cil::cli {

/// Calls of one method.
struct MethodCount {
  md::Token token;     ///< a MethodDef token, 0x06xxxxxx
  std::string name;    ///< Ns.Type::Method
  uint64_t count = 0;
};

/// One count file: `{"assembly": "App", "mvid": "...", "methods": [{"token": "0x06000001",
/// "name": "Ns.Type::Method", "count": 12}, ...]}`. Members it does not know are ignored.
struct CountFile {
  std::string assembly;
  std::string mvid;  ///< lower-case 8-4-4-4-12 hexadecimal
  std::vector<MethodCount> methods;
  std::string kind;  ///< empty for a counts file, contract::kHitsKind for coverage's hits file
};

/// Largest count file accepted (documented in cil-instrument(1), LIMITS).
inline constexpr uint64_t kMaxCountFileSize = uint64_t{64} << 20;

/// Parses and checks a count file. Errors have structure "JSON" for syntax (with line and
/// column) or "count file" for the shape, naming the member at fault (`methods[3].count`).
Expected<CountFile> parse_count_file(std::string_view text);
/// Reads `path` (at most kMaxCountFileSize bytes) and parses it; a live file (live_file.h) is read
/// as the counts or hits file it stands for. Errors do not name the file.
Expected<CountFile> read_count_file(const std::string& path);

/// The merged counts of one assembly build (assembly name and mvid).
struct AssemblyCounts {
  std::string assembly;
  std::string mvid;
  size_t files = 0;                  ///< files merged
  std::vector<MethodCount> methods;  ///< by count descending, then name, then token
  size_t called = 0;                 ///< methods with a count above 0
  uint64_t total_calls = 0;          ///< sum of the counts (saturates at 2^64-1)
};

/// Sums the counts of many files per (assembly, mvid, token).
class CountMerger {
 public:
  /// Adds one file. Returns the warnings it causes (the same assembly name with another mvid, a
  /// token named differently than in an earlier file); fails when a sum exceeds 2^64-1.
  Expected<std::vector<std::string>> add(const std::string& file, const CountFile& counts);
  /// The merged builds, by assembly name then mvid.
  std::vector<AssemblyCounts> result() const;

 private:
  struct Build {
    size_t files = 0;
    size_t first_file = 0;  ///< index in files_
    std::vector<MethodCount> methods;
    std::vector<size_t> named_by;  ///< per method, the index in files_ of the file that named it
    std::unordered_map<md::Token, size_t> by_token;
  };
  std::map<std::pair<std::string, std::string>, Build> builds_;
  std::vector<std::string> files_;
};

}  // namespace cil::cli
