// Count mode: a helper type `<CilInstrument>` with one 64-bit counter per instrumented method,
// an entry probe that increments its method's counter atomically, and an exit hook that writes
// `<Assembly>.<pid>.counts.json`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "il/body_model.h"
#include "instrument/count_runtime.h"
#include "instrument/probes.h"
#include "instrument/skeleton_pack.h"
#include "il/max_stack.h"
#include "metadata/module_editor.h"
#include "metadata/runtime_refs.h"
#include "metadata/text_encoding.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

inline constexpr std::string_view kHelperTypeName = "<CilInstrument>";

/// Which file the helper writes: call counts per method, or coverage mode's hits per probe
/// (runtime_contract.h), with the same writer.
enum class CounterFile { Counts, Hits };

class CountMode {
 public:
  /// Adds the helper type, its counter field and its method rows to the module being edited.
  /// `kind`: what each probe does to its counter (coverage's default is ProbeKind::Hit).
  static Expected<CountMode> begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, CounterFile file = CounterFile::Counts,
                                   ProbeKind kind = ProbeKind::Count);

  /// The entry probe for the next counter slot (BodyEdit::entry_code), valid until the next
  /// call: built once, then only its slot changes. It uses no argument and leaves the stack as it
  /// found it, so it goes first even in constructors. Call commit() once the body is kept.
  std::span<const Instr> next_probe();
  /// The probe of the slot `ahead` places after the next one, with ids of `model` (coverage mode
  /// places several probes in a body, then commits one slot per probe in order).
  void probe_ahead(BodyModel& model, uint32_t ahead, std::vector<Instr>& probe) const;
  /// Assigns the slot of the last probe to `rid`. A full chunk of the method table goes into the
  /// new section at once (which can fail).
  Status commit(md::MethodDefId method, std::string_view name);
  /// The probe's own stack depth, found by simulating it once. The probe runs at entry on an
  /// empty stack and leaves it empty, so a probed body needs max(its own max stack, this).
  uint16_t probe_max_stack() const { return probe_max_stack_; }
  /// Simulates the probe (needs the call effects of Interlocked.Increment).
  Status measure_probe(CallEffects& effects);

  /// Writes the helper's bodies (count_runtime.h): the class constructor, the setup of the
  /// signals, the flush timer and the per-load file name, and the one writer of the counts file.
  Status finish(std::string_view assembly, std::string_view mvid, CallEffects& effects);

 private:
  md::ModuleEditor* editor_ = nullptr;
  md::RuntimeRefs* refs_ = nullptr;
  uint32_t helper_type_ = 0;
  md::Token counts_field_;
  uint32_t slots_ = 0;
  CounterFile file_ = CounterFile::Counts;
  ProbeKind kind_ = ProbeKind::Count;
  bool live_ = false;  ///< the helper keeps its counters in a live file (runtime_contract.h)
  /// The helper can inflate a packed table: DeflateStream is in an assembly it may reference.
  bool packable_ = false;
  /// A table over kPackAbove bytes, deflated as it grows: full chunks go here, not to the
  /// section, and keep only their lengths, which are packed after the text at finish().
  std::optional<SkeletonPacker> packer_;
  uint16_t probe_max_stack_ = 8;
  /// The file's text per slot up to its count, and its length; in chunks of whole slots.
  /// Full chunks are placed in the section as soon as the next one starts: only the last one
  /// has bytes here.
  struct TableChunk {
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> lengths;  ///< each piece's length, int32 little-endian
    uint32_t size = 0;
    uint32_t pieces = 0;
    uint32_t rva = 0, lengths_rva = 0;  ///< once placed
  };
  std::vector<TableChunk> table_;
  std::string quoted_;  ///< commit()'s quoted name, reused
  std::vector<Instr> probe_;  ///< next_probe()'s, for the slot it last gave
  md::Token increment_;
  md::Token array_element_;  ///< System.Int64 when the counters are an int64[] (core library)
  CountRuntimeMembers runtime_;
};

}  // namespace cil::instrument
