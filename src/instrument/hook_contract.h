// The trace-mode hook contract, read from the user's hooks assembly with our own reader: which of
// OnEnter, OnLeave and OnException exist, and which parameters each declares (by name and type).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "metadata/module.h"
#include "support/error.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// What a hook parameter receives, by its name.
enum class HookParam {
  Method,     ///< string method: "Ns.Type::Method"
  Token,      ///< int token
  Instance,   ///< object instance: `this`, or null for static methods
  Args,       ///< object[] args: every argument boxed
  State,      ///< object state: what OnEnter returned
  Result,     ///< object result: the return value boxed (OnLeave: `ref object result` replaces
              ///< it; OnEnter returning bool: `out object result` supplies it when skipping)
  Exception,  ///< Exception exception
  Elapsed,    ///< long elapsed: Stopwatch ticks since the method's entry (OnLeave)
};

/// What a hook returns, which says what it may do (interception is opted into by the signature).
enum class HookReturn {
  Void,
  Object,     ///< OnEnter: its result becomes `state`
  Bool,       ///< OnEnter: false skips the body; OnException: true suppresses (void methods)
  Exception,  ///< OnException: a non-null result is thrown instead
};

struct HookMethod {
  bool present = false;
  std::string name;
  std::vector<HookParam> params;  ///< in declaration order
  bool returns_object = false;    ///< OnEnter only: its result becomes `state`
  HookReturn returns = HookReturn::Void;
  bool result_by_ref = false;     ///< `result` is `ref object` (OnLeave) or `out object` (OnEnter)
  bool wants(HookParam p) const;
};

struct HookContract {
  // The hooks assembly, as the instrumented module will reference it.
  std::string assembly;
  uint16_t version[4] = {0, 0, 0, 0};
  std::vector<uint8_t> public_key_token;
  std::string culture;
  // The hook type.
  std::string type_namespace, type_name;
  HookMethod on_enter, on_leave, on_exception;

  bool wants(HookParam p) const { return on_enter.wants(p) || on_leave.wants(p) || on_exception.wants(p); }
};

/// Reads and checks the contract. `hook_type` ("Ns.Type") picks the type; without it, the one
/// public type that declares a hook is used. Errors name the hook and the parameter.
Expected<HookContract> read_hook_contract(const md::Module& hooks, const std::optional<std::string>& hook_type);

}  // namespace cil::instrument
