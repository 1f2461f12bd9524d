// The count probe at run time: a method body as the runtime hands it over (header, code, EH
// sections) in, the same body with the entry probe of offline count mode out, through the same
// function as offline count mode (il::rewrite_body) and the same max-stack rule.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "il/body_encoder.h"
#include "il/offset_map.h"
#include "instrument/probes.h"
#include "metadata/schema.h"
#include "profiler/abi/corprof.h"
#include "support/error.h"

namespace cil::profiler {

/// Rewrites `body` (which runs to at most the end of the span) with the probe of `counter`
/// first: at run time a native address (instrument::CounterRef::address), the int64 the profiler owns.
/// `probe_depth` is instrument::probe_max_stack of the same probe (once per module): the body gets
/// max(its own max stack, `probe_depth`), as in offline count mode. Returns the bytes and the
/// offset map. Fails on a body the engine cannot rewrite; the caller then leaves the method as
/// it was.
Expected<il::EncodedBody> add_entry_probe(std::span<const uint8_t> body, const instrument::CounterRef& counter,
                                          md::Token increment, uint16_t probe_depth);

/// The map ICorProfilerInfo::SetILInstrumentedCodeMap takes for a body rewritten with `map`: one
/// entry per original instruction start and the end boundary, {old, new, accurate}, ascending in
/// both offsets. The runtime rounds down in both directions and never interpolates (COR_IL_MAP's
/// remarks; DebuggerMethodInfo::TranslateToInstIL): a new offset maps to the old offset of the
/// last entry at or before it, so inserted code after an original instruction is attributed to it,
/// and new offsets before the first entry (the entry probe) map to PROLOG, no source line. Stack
/// traces translate the JIT's (new) IL offsets back through it, so they name the original lines.
std::vector<cilprof::COR_IL_MAP> instrumented_code_map(const il::OffsetMap& map);

/// The counter of a native address.
instrument::CounterRef native_counter(uint64_t address);

}  // namespace cil::profiler
