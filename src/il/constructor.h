// Where a constructor's object becomes usable: just after its call to the base or this-type
// constructor (III.1.8.1.4: `this` is uninitialized until then).
#pragma once

#include <optional>

#include "il/body_model.h"
#include "metadata/module.h"

namespace cil::il {

/// For an instance constructor of a reference type, the index just past the base/this
/// constructor call; 0 for any other method (value-type constructors, statics, methods).
/// nullopt when a reference-type constructor has no such call that can be found.
std::optional<size_t> constructed_index(const md::Module& module, md::MethodDefId method, const BodyModel& body);

}  // namespace cil::il
