// The count probe at run time: a method body as the runtime hands it over (header, code, EH
// sections) in, the same body with the entry probe of offline count mode out, through the same
// engine (parse, decode, BodyModel, counter_probe, encode_body) and the same max-stack rule.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "il/max_stack.h"
#include "metadata/schema.h"
#include "support/error.h"

namespace cil::profiler {

/// The probe's own stack depth, found once per module by simulating it (`increment` is the
/// module's Interlocked.Increment token; `effects` reads its signature).
Expected<uint16_t> probe_max_stack(md::Token increment, il::CallEffects& effects);

/// Rewrites `body` (which runs to at most the end of the span) with the probe for the int64
/// at `counter` first. The probe runs on an empty stack and leaves it empty, so the body needs
/// max(its own max stack, `probe_depth`) (as in offline count mode). Fails on a body the engine
/// cannot model; the caller then leaves the method as it was.
Expected<std::vector<uint8_t>> add_entry_probe(std::span<const uint8_t> body, uint64_t counter, md::Token increment,
                                               uint16_t probe_depth);

}  // namespace cil::profiler
