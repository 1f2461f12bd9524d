// What trace mode's code for one method needs: shared by the rewrite and the hook-call emitters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "instrument/trace_mode.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// The encoded form of `t` (II.23.2.12), as locals and TypeSpecs take it.
inline std::vector<uint8_t> encoded_type(const md::TypeSig& t) {
  std::vector<uint8_t> out;
  encode_type(out, t);
  return out;
}

struct TraceMode::Context {
  md::MethodDefId method;
  std::string name;
  md::Token token;
  md::MethodSig sig;
  bool is_static = false;
  Box self;                      ///< how `this` is passed (a value type's `this` is boxed from a copy)
  std::optional<uint32_t> state, exception, result;  ///< locals
  std::optional<uint32_t> tail_flag;  ///< local: set when the method leaves by a tail call
  // Interception locals: OnEnter's verdict (skip the body) and result, OnLeave's replaceable
  // result, the entry timestamp, OnException's verdict.
  std::optional<uint32_t> skip, enter_result, leave_result, start_ticks, replacement, handled;
  std::optional<uint32_t> default_result;  ///< a local of the return type, for its default
  md::Token result_type;               ///< the return type's token (unbox.any, initobj)
  Box result_box;
  BodyModel* body = nullptr;
  /// The clauses of the guards around hook calls: they sit inside the new handlers, so they go
  /// before the wrap's clauses.
  std::vector<EhRegion> guard_clauses;
  // What the wrap holds: a filter (OnException, or OnLeave's exception), a finally (OnLeave).
  bool catch_clause = false, finally_clause = false, returns_value = false;
  /// OnEnter may skip the body (it returns bool and the result can be supplied).
  bool can_skip = false;
};

}  // namespace cil::instrument
