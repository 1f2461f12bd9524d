// Coverage at run time: a module's portable PDB, found and checked as the offline tool finds
// it; each method's probes placed by instrument::CoveragePlan (the offline placement) with counters in
// the profiler's native memory; and what a method never compiled would have had, for the hits
// file, which has offline coverage mode's format.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "il/body_encoder.h"
#include "instrument/coverage_mode.h"
#include "instrument/probes.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "support/error.h"

namespace cil::profiler {

/// One probe of a method: what it describes (runtime_contract.h's hits entries) and its counter
/// (null for a method never compiled: no hits).
struct CoverageProbe {
  std::string description;
  const int64_t* counter = nullptr;
};

class ModuleCoverage {
 public:
  /// The coverage plan of `file` (the module's file, read by our reader; it must outlive the
  /// result), with its PDB: embedded, or beside `path` (NAME.pdb), checked against the
  /// assembly as `cil-instrument --mode coverage` checks it. Null when there is no PDB at all:
  /// the module is not covered. A PDB that is there but unusable (another build's, broken)
  /// gives method-level coverage, as offline, with the reason in `warning`.
  static std::unique_ptr<ModuleCoverage> open(const md::Module& file, const std::string& path, std::string& warning);

  bool excluded(md::MethodDefId method) { return plan_->excluded(method).has_value(); }
  /// The PDB names a document under `root` (an absolute directory without its trailing '/'):
  /// the module is built from sources there. False without a usable PDB.
  bool has_document_under(std::string_view root) const;
  /// The module is a test assembly: it references a test framework's attributes (xunit,
  /// NUnit, MSTest, TUnit). Coverage of `dotnet test` leaves it out by default, as coverlet does.
  bool is_test_assembly() const;
  /// The method a body's probes are reported under (see instrument::CoveragePlan::attributed).
  md::MethodDefId attributed(md::MethodDefId method) const { return plan_->attributed(method); }

  /// `bytes` (`method`'s body as the runtime has it) with its probes, each counted at the
  /// address `allocate` gives it; `source_name` names attributed(method). `probes` gets them in
  /// order. `increment`, `kind` and `probe_depth` are as instrument/probes.h makes and measures
  /// the probe.
  Expected<il::EncodedBody> rewrite(md::MethodDefId method, std::string_view source_name, std::span<const uint8_t> bytes,
                                    md::Token increment, instrument::ProbeKind kind, uint16_t probe_depth,
                                    const std::function<int64_t*()>& allocate,
                                    std::vector<CoverageProbe>& probes);
  /// The probes `method` would have had, from the file's body, without counters.
  Status describe(md::MethodDefId method, std::string_view source_name, std::vector<CoverageProbe>& probes);

 private:
  const md::Module* file_ = nullptr;
  std::unique_ptr<md::PortablePdb> pdb_;
  std::optional<instrument::CoveragePlan> plan_;
};

}  // namespace cil::profiler
