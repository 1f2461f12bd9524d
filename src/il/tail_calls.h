// `tail.` calls in a wrapped body: a tail call cannot be made from inside a protected region
// (III.2.4), and dropping the prefix turns constant-stack recursion into a stack overflow. So
// each `tail. call|callvirt|calli` in the region has its stack operands stored to new locals,
// leaves the region (the wrapper's finally runs: OnLeave before the call), and is made again,
// with its prefix, from a stub after the protected regions.
#pragma once

#include <cstdint>
#include <vector>

#include "il/body_model.h"
#include "il/rewriter.h"
#include "metadata/module.h"
#include "support/error.h"

namespace cil::il {

/// Finds every `tail.`-prefixed call at or after `from` and gives each of its stack operands a
/// local of its type (the callee's signature, with the generic arguments of a MemberRef's
/// instantiated parent and of a MethodSpec substituted). Fails (Unsupported, with the reason)
/// for a call whose operands cannot be stored: a vararg call, an instance `call` into another
/// module's type (a TypeRef does not say whether `this` is a reference or a managed pointer),
/// an instance calli, a `constrained.` call, a call not followed by `ret`.
Expected<std::vector<TailSite>> plan_tail_sites(const md::Module& m, const BodyModel& body, size_t from, LocalsBuilder& locals);

}  // namespace cil::il
