// Coverage mode: a hit probe at every non-hidden sequence point of the input's PDB, a probe on
// every outcome of each conditional branch and switch, and a method entry probe, all counted in
// count mode's helper, which writes `<Assembly>.<pid>.hits.json` (runtime_contract.h) at exit.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "il/body_model.h"
#include "instrument/count_mode.h"
#include "instrument/probe_blocks.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// What coverage leaves out, as coverlet's options of the same names.
struct CoverageOptions {
  /// Sources (the PDB's document names) whose methods are not instrumented: globs, `*` any run.
  std::vector<std::string> exclude_by_file;
  /// Attributes that exclude the method or type they mark (and the state machines and lambdas
  /// inside): simple names, with or without the `Attribute` suffix. ExcludeFromCodeCoverage is
  /// always one of them.
  std::vector<std::string> exclude_by_attribute;
  /// --hit-counts: each probe counts its hits exactly (Interlocked.Increment) instead of storing
  /// 1 (hit or not hit, the default, cheaper).
  bool hit_counts = false;
};

/// Where coverage probes go and what each describes, whichever memory counts them: offline,
/// count mode's array in the helper (CoverageMode); at run time, the profiler's native counters.
class CoveragePlan {
 public:
  /// `m` and `pdb` (the module's matching PDB, or null: then every method gets its entry probe
  /// only, method-level coverage) must outlive the plan.
  CoveragePlan(const md::Module& m, const md::PortablePdb* pdb, CoverageOptions options);

  /// Why `method` is left out ("[ExcludeFromCodeCoverage]", "--exclude-by-file ..."), or
  /// nullopt when it is instrumented.
  std::optional<std::string> excluded(md::MethodDefId method);

  /// The method a body's probes are reported under: a state machine's kickoff method (its
  /// MoveNext holds the kickoff method's lines), else `method`.
  md::MethodDefId attributed(md::MethodDefId method) const {
    auto k = kickoff_.find(method.value());
    return k != kickoff_.end() && module_->valid(md::MethodDefId(k->second)) ? md::MethodDefId(k->second) : method;
  }

  /// Makes one probe: `probe` gets the instructions that count the probe `description`
  /// describes (runtime_contract.h's hits entries), in the order they are made.
  using ProbeMaker = std::function<void(BodyModel& model, std::string_view description, std::vector<Instr>& probe)>;
  /// Places the probes in `model` (of `method`; `source` is attributed(method), and `name` its
  /// name). Described are the method entry, each non-hidden sequence point and each outcome of
  /// each conditional branch and switch; a probe describes one or more of them (entries
  /// separated by contract::kHitsEntrySeparator), all reached exactly as often as it is:
  /// - the method entry's probe goes first, and a point's probe at its instruction;
  /// - a point in the straight run after a probe (probe_blocks.h: one way in, and nothing between
  ///   that may branch or throw) is described by that probe;
  /// - an outcome whose target has no other way in is described by the probe at the target;
  ///   any other outcome gets a probe on its edge.
  /// So each line's hit or not, and with ProbeKind::Count its count, is exact. Max stack grows by
  /// `probe_max_stack`.
  Status place(md::MethodDefId method, md::MethodDefId source, std::string_view name, BodyModel& model, uint16_t probe_max_stack,
               const ProbeMaker& make_probe);

 private:
  const std::string& document(md::DocumentId document);
  /// The MethodDef whose source a compiler-generated method came from: a state machine's kickoff
  /// method (StateMachineMethod), a lambda's or local function's enclosing method (by the name
  /// the C# compiler gives it, `<Outer>b__0_0`, `<Outer>g__Local|0_0`); `method` itself otherwise.
  md::MethodDefId source_method(md::MethodDefId method) const;
  bool marked(md::MethodDefId method) const;
  /// A conditional branch at `i` (an original instruction of `method`) that only the
  /// compiler's code has: a state machine's dispatch, an await's completion test, a delegate cache.
  bool compiler_branch(md::MethodDefId method, const BodyModel& model, size_t i) const;
  /// The name of the field or method `token` names (Field, MethodDef, MemberRef, MethodSpec), or empty.
  std::string_view member_name(md::Token token) const;

  const md::Module* module_;
  const md::PortablePdb* pdb_;
  CoverageOptions options_;
  std::unordered_set<uint32_t> marked_methods_, marked_types_;
  std::unordered_map<uint32_t, uint32_t> kickoff_;  ///< MoveNext rid -> kickoff rid
  std::unordered_map<uint32_t, std::string> documents_;
  /// place()'s buffers, kept from method to method so that their memory is reused. Like
  /// documents_, they make place() one call at a time: the profiler calls it under its module's lock.
  /// A branch outcome that the probe at its target counts (branch: the branch's instruction).
  struct CarriedOutcome {
    uint32_t branch = kNoLabel;
    uint32_t path = 0;
  };
  struct Scratch {
    std::vector<md::SequencePoint> points;
    std::vector<const md::SequencePoint*> point_at, line_at, owner_of;
    std::vector<bool> generated, taken;
    std::vector<CarriedOutcome> carried;
    StraightRuns runs;
    std::vector<uint32_t> redirect;
    std::vector<Instr> probe, out;
    std::string description;
  } scratch_;
};

/// Offline coverage mode: the plan's probes counted in count mode's helper, which writes
/// `<Assembly>.<pid>.hits.json` at exit.
class CoverageMode {
 public:
  /// Adds count mode's helper (writing a hits file). `pdb` is the input's matching PDB, or null.
  static Expected<CoverageMode> begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, const md::PortablePdb* pdb,
                                      const CoverageOptions& options);

  std::optional<std::string> excluded(md::MethodDefId method) { return plan_->excluded(method); }
  md::MethodDefId attributed(md::MethodDefId method) const { return plan_->attributed(method); }
  /// Places the probes in `model` (see CoveragePlan::place). Nothing is counted until commit().
  Status instrument(md::MethodDefId method, md::MethodDefId source, std::string_view name, BodyModel& model);
  /// Assigns the slots of the probes that the last instrument() placed.
  Status commit(md::MethodDefId method);

  Status measure_probe(CallEffects& effects) { return counters_.measure_probe(effects); }
  Status finish(std::string_view assembly, std::string_view mvid, CallEffects& effects) {
    return counters_.finish(assembly, mvid, effects);
  }

 private:
  std::optional<CoveragePlan> plan_;
  CountMode counters_;
  std::string pending_text_;          ///< descriptions of the probes placed, in slot order, one after another
  std::vector<size_t> pending_ends_;  ///< where each ends in pending_text_
};

}  // namespace cil::instrument
