// Coverage from hits files (runtime_contract.h): the probes of each module build merged over
// runs, then folded into files, lines, branches and methods for the report's formats.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/results/count_file.h"
#include "cli/results/source_paths.h"
#include "support/error.h"

namespace cil::cli {

struct BranchHits {
  uint32_t line = 0;
  uint32_t offset = 0;  ///< IL offset of the branch instruction
  uint32_t path = 0;    ///< 0: fall-through; 1...: the target(s)
  uint64_t hits = 0;
};

struct FileCoverage {
  std::map<uint32_t, uint64_t> lines;
  std::map<uint32_t, std::vector<BranchHits>> branches;  ///< by line
};

struct MethodCoverage {
  std::string name;  ///< Ns.Type::Method (a state machine's under its kickoff method)
  std::string file;  ///< document of its first line, or empty
  uint64_t entries = 0;
  std::map<uint32_t, uint64_t> lines;  ///< line of `file` -> hits (sequence points' hits summed over their lines)
  std::vector<BranchHits> branches;    ///< those on lines of `file`
  /// Lines and branches in other documents, by document: a constructor of a partial class runs
  /// the field initializers of every file that declares the class, and each line belongs to its
  /// own file (line numbers of two files must not be summed).
  std::map<std::string, FileCoverage> elsewhere;
  bool has_lines() const { return !lines.empty() || !elsewhere.empty(); }
  bool covered() const;
};

struct Ratio {
  uint64_t covered = 0, total = 0;
  double percent() const { return total ? 100.0 * static_cast<double>(covered) / static_cast<double>(total) : 100.0; }
  Ratio& operator+=(const Ratio& o) {
    covered += o.covered;
    total += o.total;
    return *this;
  }
};

struct ModuleCoverage {
  std::string assembly;
  std::string mvid;
  /// Empty when the report holds one build of the assembly; else what tells this build from the
  /// others: the mvid's first 8 digits (the whole mvid when two builds share them).
  std::string build;
  /// The assembly's name in the table, Cobertura's package and LCOV's test name: "Name", or
  /// "Name [build]" when the report holds several builds of it.
  std::string label() const { return build.empty() ? assembly : assembly + " [" + build + "]"; }
  size_t files_merged = 0;
  std::map<std::string, FileCoverage> files;             ///< by document
  std::map<std::string, MethodCoverage> methods;         ///< by name
  std::vector<std::string> without_lines;                ///< methods with no sequence points
  Ratio line, branch, method;
};

/// Merges hits files: per assembly build (mvid), one probe list, summed slot by slot. Several
/// builds of one assembly (vstest.console and testhost load different builds of the test
/// platform) are never merged: each is reported apart.
class HitsMerger {
 public:
  /// Adds one hits file. Fails (ErrorKind::Unsupported) when its build was seen with other
  /// probes (instrumented with other options). Returns a warning when it is the first file of a
  /// second or later build of its assembly, empty otherwise.
  Expected<std::string> add(const std::string& file, CountFile hits);
  /// The modules, by assembly name and mvid, folded.
  Expected<std::vector<ModuleCoverage>> result() const;

 private:
  struct Build {
    std::string mvid;
    std::string first_file;
    size_t files = 0;
    CountFile probes;  ///< counts summed
  };
  std::map<std::pair<std::string, std::string>, Build> builds_;  ///< by assembly and mvid
};

/// Rewrites every document path (the files and each method's file) through `map`. Documents
/// that land on one path are merged, their hits summed, and the line and branch ratios redone.
void map_documents(std::vector<ModuleCoverage>& modules, const PathMap& map);

/// The totals over modules.
struct CoverageTotals {
  Ratio line, branch, method;
};
CoverageTotals totals(const std::vector<ModuleCoverage>& modules);

/// The report's formats.
/// With `source_root`, Cobertura's <source> is it and class file names under it are relative.
std::string cobertura_xml(const std::vector<ModuleCoverage>& modules, int64_t timestamp,
                          const std::optional<std::string>& source_root = std::nullopt);
std::string lcov_text(const std::vector<ModuleCoverage>& modules);
std::string coverage_json(const std::vector<ModuleCoverage>& modules);
std::string coverage_table(const std::vector<ModuleCoverage>& modules);

}  // namespace cil::cli
