// Trace mode: every chosen method calls the user's hooks — OnEnter at entry, OnException from a
// filter that never catches, OnLeave in a finally — passing only what each hook declares.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "il/body_model.h"
#include "il/code_builder.h"
#include "instrument/hook_contract.h"
#include "il/max_stack.h"
#include "il/rewriter.h"
#include "metadata/definition_sink.h"
#include "metadata/editor_definitions.h"
#include "metadata/metadata_sink.h"
#include "metadata/module_editor.h"
#include "metadata/runtime_refs.h"
#include "metadata/signature.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

class TraceMode {
 public:
  /// Adds the references to the hooks and the helper type holding the re-entrancy guard.
  static Expected<TraceMode> begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, const HookContract& contract);
  /// The same for a module whose rows are read from `file` (the module as it was loaded) while
  /// references go to `sink` and definitions to `defs` (at run time: the runtime's metadata).
  static Expected<TraceMode> begin(const md::Module& file, md::MetadataSink& sink, md::DefinitionSink& defs,
                                   md::RuntimeRefs& refs, const HookContract& contract);

  /// Rewrites `body`, the body of `method` named `name` (Ns.Type::Method).
  Status instrument(md::MethodDefId method, const std::string& name, BodyModel& body);

  /// Writes the helper's class constructor.
  Status finish(CallEffects& effects);

 private:
  enum class Boxing { Reference, Value, Unboxable };
  struct Box {
    Boxing kind = Boxing::Reference;
    md::Token token;  ///< the type token for ldobj/box of a value
  };
  struct Context;

  // Setup (trace_setup.cpp).
  Status declare_hooks(const HookContract& contract);
  Status add_helper_type();
  Status write_guarded_on_exception(CallEffects& effects);

  // Which values can be boxed (trace_boxing.cpp).
  Expected<Box> boxing(const md::TypeSig& type);
  /// How `this` of a method of TypeDef `owner` is passed: a value type's `this` is boxed from a copy.
  Expected<Box> self_boxing(md::TypeDefId owner);
  bool is_byref_like(md::Token type);
  bool generic_allows_byref_like(md::Token owner, uint32_t number);
  struct GenericParamFlags {
    uint32_t number = 0;
    bool allows_byref_like = false;
  };
  /// The GenericParam rows of TypeDef or MethodDef `owner` (null: none), indexed on first use.
  const std::vector<GenericParamFlags>* generic_params_of(md::Token owner);

  // The per-method rewrite (trace_mode.cpp).
  Status open_context(md::MethodDefId method, const std::string& name, BodyModel& body, Context& cx);
  Status add_locals(Context& cx, LocalsBuilder& locals);
  Expected<size_t> emit_prologue(Context& cx, size_t start, CodeBuilder& c);
  Status emit_filter(Context& cx, WrapSpec& spec);
  Status emit_finally(Context& cx, WrapSpec& spec);

  // Hook calls (trace_hooks_emit.cpp).
  Status emit_hook(Context& cx, const HookMethod& hook, md::Token target, CodeBuilder& c);
  Status emit_hook_args(Context& cx, const HookMethod& hook, CodeBuilder& c);
  Status emit_hook_arg(Context& cx, const HookMethod& hook, HookParam param, CodeBuilder& c);
  Status emit_args_array(Context& cx, CodeBuilder& c);
  void emit_result_or_null(Context& cx, CodeBuilder& c);
  Status emit_value(const md::TypeSig& type, CodeBuilder& c);
  /// The object in local `object` as the method's return type: null gives the type's default,
  /// another type an InvalidCastException (unbox.any).
  void emit_unbox_result(Context& cx, uint32_t object, CodeBuilder& c);

  const md::Module* file_ = nullptr;    ///< the rows as they were read (never the added ones)
  md::MetadataSink* sink_ = nullptr;    ///< references
  md::DefinitionSink* defs_ = nullptr;  ///< the helper type
  std::unique_ptr<md::EditorDefinitions> owned_defs_;  ///< offline: defs_ over the editor
  md::RuntimeRefs* refs_ = nullptr;
  const HookContract* contract_ = nullptr;
  md::Token on_enter_, on_leave_, on_exception_;
  md::Token exception_, object_;
  md::Token guard_field_, guard_get_, guard_set_, guard_ctor_, cctor_;
  /// <CilInstrument>::OnException: the guarded call to the OnException hook, which the filters
  /// call (a filter block may not hold the try/catch that ignores a throwing hook).
  md::Token guarded_on_exception_;
  md::Token get_timestamp_;  ///< Stopwatch.GetTimestamp, for OnLeave's `elapsed`
  md::Token helper_type_;
  std::unordered_set<uint32_t> byref_like_defs_;  ///< TypeDef rids marked IsByRefLike
  bool byref_like_scanned_ = false;
  std::unordered_map<uint32_t, std::vector<GenericParamFlags>> generic_params_;  ///< by owner token
  bool generic_params_indexed_ = false;
  md::Token generic_owner_type_, generic_owner_method_;  ///< of the method being rewritten
};

}  // namespace cil::instrument
