// Maximum evaluation-stack depth of a body, by simulating every path (III.1.7.5), including
// exception handler and filter entries.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "il/body_model.h"
#include "metadata/metadata_sink.h"
#include "support/error.h"

namespace cil::il {

/// Stack effect of a call-like instruction, which depends on the callee's signature.
struct CallEffect {
  int pops = 0;
  int pushes = 0;
};

/// Computes call effects from signatures read through a MetadataSink, with a cache.
class CallEffects {
 public:
  explicit CallEffects(md::MetadataSink& sink) : sink_(sink) {}
  /// For call, callvirt, newobj, calli and jmp.
  Expected<CallEffect> effect(Op op, md::Token token);

 private:
  struct Shape {
    int params = 0;
    bool has_this = false;
    bool returns_value = false;
  };
  md::MetadataSink& sink_;
  std::unordered_map<md::Token, Shape> cache_;
};

/// The deepest stack any path reaches. `returns_value` says whether `ret` pops a value. Fails on
/// underflow, on a branch to nowhere, or on depths that grow without bound.
Expected<uint16_t> compute_max_stack(const BodyModel& body, bool returns_value, CallEffects& effects);

}  // namespace cil::il
