// The instrument layer is written in the engine's vocabulary: Instr, Op, BodyModel, OffsetMap,
// Label... are named without `il::` here. The names declared in this layer are its own
// (instrument::Mode, instrument::instrument_module...); callers above name them so.
#pragma once

namespace cil::il {}

namespace cil::instrument {
using namespace cil::il;
}  // namespace cil::instrument
