// Probes shared by the offline instrumenter and the runtime profiler: the same entry probe,
// whichever memory holds the counter.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "il/body_model.h"
#include "il/max_stack.h"
#include "metadata/runtime_refs.h"
#include "metadata/schema.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// Where a call counter lives.
struct CounterRef {
  /// Offline: the int64 at `slot` * 8 bytes from the address held by the static `native int`
  /// field `field` (the helper's counters: native memory or a shared file mapping, see
  /// count_runtime.h); or, when `array_element` is set (the core library, whose helper cannot
  /// call code of its own before its counters exist), slot `slot` of the static `int64[]` field
  /// `field`, through ldelema `array_element` (the token of System.Int64).
  md::Token field;
  md::Token array_element;
  uint32_t slot = 0;
  /// Runtime: a fixed native address of an int64 owned by the profiler (field == 0).
  uint64_t address = 0;
};

/// What a probe does to its counter.
enum class ProbeKind : uint8_t {
  /// Interlocked.Increment(ref counter): exact counts, from any number of threads. Count mode,
  /// and coverage with --hit-counts.
  Count,
  /// counter = 1, a plain store: hit or not hit, all that coverage's default report needs. No
  /// locked instruction and no call: on testdata's CpuBound, 0.35 ns a probe against Count's
  /// 5.8 ns. Racing threads all store the same value, so nothing is lost.
  Hit,
};

/// The entry probe: Interlocked.Increment(ref counter), the result dropped, or with
/// ProbeKind::Hit the store of 1. `increment` is the token of `int64
/// System.Threading.Interlocked::Increment(int64&)` (unused by Hit). The probe leaves the stack
/// as it found it and uses no argument, so it can run first in any method, constructors
/// included. Both address forms pass the counter's address as `native int` where a byref is
/// expected: unverifiable but valid (III.1.1.5.2), and the runtime's own instrumentation does the same.
std::vector<Instr> counter_probe(BodyModel& body, const CounterRef& counter, md::Token increment,
                                 ProbeKind kind = ProbeKind::Count);
/// The same into `probe`, which is cleared first (a loop over many bodies reuses its storage).
void counter_probe(BodyModel& body, const CounterRef& counter, md::Token increment, std::vector<Instr>& probe,
                   ProbeKind kind = ProbeKind::Count);
/// Points `probe`, an offline counter's probe that counter_probe made, at slot `slot`: only the
/// constant that names the slot differs from slot to slot (a loop over many bodies builds the
/// probe once).
void set_counter_slot(std::vector<Instr>& probe, const CounterRef& counter, uint32_t slot);

/// The probe's own stack depth, found by simulating it (`effects` reads Increment's signature).
/// It runs at entry on an empty stack and leaves it empty, so a probed body needs max(its own
/// max stack, this): offline count mode and the profiler both pass it as
/// BodyEdit::entry_max_stack.
Expected<uint16_t> probe_max_stack(const CounterRef& counter, md::Token increment, CallEffects& effects,
                                   ProbeKind kind = ProbeKind::Count);

/// The probe's callee's type, System.Threading.Interlocked.
inline constexpr std::string_view kIncrementNamespace = "System.Threading";
inline constexpr std::string_view kIncrementType = "Interlocked";

/// The probe's callee, resolved through `refs` (a MemberRef, or the core library's own MethodDef)
/// in two steps, its type and then the method, because offline count mode resolves another type
/// in between and its outputs keep that order of references.
Expected<md::Token> increment_type(md::RuntimeRefs& refs);
Expected<md::Token> increment_method(md::RuntimeRefs& refs, md::Token interlocked);
/// Both steps: the token of int64 System.Threading.Interlocked::Increment(int64&).
Expected<md::Token> resolve_increment(md::RuntimeRefs& refs);

}  // namespace cil::instrument
