// Straight runs of a body's original code: which instruction is entered only from the one
// before it and is reached whenever that one is, so that a coverage probe placed earlier in the
// run tells exactly whether (and how often) it ran.
#pragma once

#include <cstdint>
#include <vector>

#include "il/body_model.h"

namespace cil::instrument {

/// False only for instructions that cannot throw (nor run code that can: no call, no field or
/// array access, no type load, no checked arithmetic): loads and stores of locals and arguments,
/// constants, unchecked arithmetic and comparisons, dup, pop, nop. A probe before a run of these
/// is reached exactly as often as the instruction after the run.
bool may_throw(Op op);

/// Control-flow facts about a body's original instructions (ids 0..n-1), for probe placement.
struct StraightRuns {
  /// Edges into each instruction, saturated at 2: the method's entry (instruction 0), the
  /// fall-through from the instruction before, each branch or switch target naming it (a switch
  /// naming it twice is two edges), and two for a handler's or filter's start (the runtime enters
  /// it): 1 means one way in.
  std::vector<uint8_t> entries;
  /// Instruction i continues the run of i - 1 (for i = 0: the method's entry): its one way in is
  /// the fall-through from i - 1, which neither branches nor may throw. Whatever reaches i - 1
  /// then reaches i, as often.
  std::vector<bool> continues;
};

/// Fills `runs` for `model` (its instrs are the original code, unedited).
void find_straight_runs(const BodyModel& model, StraightRuns& runs);

}  // namespace cil::instrument
