// The count probe at run time: a method body as the runtime hands it over (header, code, EH
// sections) in, the same body with the entry probe of offline count mode out, through the same
// function as offline count mode (il::rewrite_body) and the same max-stack rule.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "il/body_encoder.h"
#include "il/probes.h"
#include "metadata/schema.h"
#include "support/error.h"

namespace cil::profiler {

/// Rewrites `body` (which runs to at most the end of the span) with the probe of `counter`
/// first: at run time a native address (il::CounterRef::address), the int64 the profiler owns.
/// `probe_depth` is il::probe_max_stack of the same probe (once per module): the body gets
/// max(its own max stack, `probe_depth`), as in offline count mode. Returns the bytes and the
/// offset map. Fails on a body the engine cannot rewrite; the caller then leaves the method as
/// it was.
Expected<il::EncodedBody> add_entry_probe(std::span<const uint8_t> body, const il::CounterRef& counter,
                                          md::Token increment, uint16_t probe_depth);

/// The counter of a native address.
il::CounterRef native_counter(uint64_t address);

}  // namespace cil::profiler
