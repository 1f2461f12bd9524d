// Trace mode's setup: the references to the hooks, the helper type with the re-entrancy guard,
// and the helper's methods (its class constructor, the guarded OnException the filters call).
#include <algorithm>

#include <fmt/format.h>

#include "instrument/helper_attributes.h"
#include "il/rewrite.h"
#include "instrument/trace_context.h"
#include "metadata/signature.h"

namespace cil::instrument {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

std::vector<uint8_t> method_sig(bool has_this, const TypeSig& ret, const std::vector<TypeSig>& params) {
  return md::method_signature(has_this, ret, params);
}

/// The hook's parameter types, as the contract declares them.
std::vector<TypeSig> hook_params(const HookMethod& h, Token exception) {
  std::vector<TypeSig> params;
  for (HookParam p : h.params) {
    switch (p) {
      case HookParam::Method: params.push_back(md::primitive(ElementType::String)); break;
      case HookParam::Token: params.push_back(md::primitive(ElementType::I4)); break;
      case HookParam::Args: params.push_back(md::wrap(ElementType::SzArray, md::primitive(ElementType::Object))); break;
      case HookParam::Exception: params.push_back(md::class_type(exception)); break;
      case HookParam::Elapsed: params.push_back(md::primitive(ElementType::I8)); break;
      case HookParam::Result:
        params.push_back(h.result_by_ref ? md::wrap(ElementType::ByRef, md::primitive(ElementType::Object))
                                         : md::primitive(ElementType::Object));
        break;
      default: params.push_back(md::primitive(ElementType::Object)); break;
    }
  }
  return params;
}

TypeSig hook_return(const HookMethod& h, Token exception) {
  switch (h.returns) {
    case HookReturn::Object: return md::primitive(ElementType::Object);
    case HookReturn::Bool: return md::primitive(ElementType::Boolean);
    case HookReturn::Exception: return md::class_type(exception);
    case HookReturn::Void: break;
  }
  return md::primitive(ElementType::Void);
}

/// ThreadLocal<bool>, the guard's type.
TypeSig thread_local_bool(Token thread_local_def) {
  TypeSig inst;
  inst.element = ElementType::GenericInst;
  inst.children.push_back(md::class_type(thread_local_def));
  inst.children.push_back(md::primitive(ElementType::Boolean));
  return inst;
}

}  // namespace

Expected<TraceMode> TraceMode::begin(md::ModuleEditor& editor, md::RuntimeRefs& refs, const HookContract& contract) {
  auto defs = std::make_unique<md::EditorDefinitions>(editor);
  TraceMode mode = CIL_TRY(begin(editor.module(), editor, *defs, refs, contract));
  mode.owned_defs_ = std::move(defs);
  return mode;
}

Expected<TraceMode> TraceMode::begin(const md::Module& file, md::MetadataSink& sink, md::DefinitionSink& defs,
                                     md::RuntimeRefs& refs, const HookContract& contract) {
  TraceMode mode;
  mode.file_ = &file;
  mode.sink_ = &sink;
  mode.defs_ = &defs;
  mode.refs_ = &refs;
  mode.contract_ = &contract;
  const md::Module& m = file;
  std::string_view own = m.tables().rows(TableId::Assembly) ? m.row<TableId::Assembly>(1).name() : std::string_view();
  if (own == contract.assembly)
    return make_error(ErrorKind::Usage, "trace", fmt::format("{} is the hooks assembly itself: its methods are never instrumented", own));

  mode.object_ = CIL_TRY(refs.type("System", "Object"));
  mode.exception_ = CIL_TRY(refs.type("System", "Exception"));
  CIL_TRY(mode.declare_hooks(contract));
  CIL_TRY(mode.add_helper_type());
  return mode;
}

Status TraceMode::declare_hooks(const HookContract& contract) {
  md::AssemblyRefSpec hooks;
  hooks.name = contract.assembly;
  std::copy(std::begin(contract.version), std::end(contract.version), hooks.version);
  hooks.public_key_token = contract.public_key_token;
  hooks.culture = contract.culture;
  Token hooks_ref = CIL_TRY(sink_->assembly_ref(hooks));
  Token hook_type = CIL_TRY(sink_->type_ref(hooks_ref, contract.type_namespace, contract.type_name));
  auto hook_ref = [&](const HookMethod& h) -> Expected<Token> {
    if (!h.present) return Token{0};
    return sink_->member_ref(hook_type, h.name, method_sig(false, hook_return(h, exception_), hook_params(h, exception_)));
  };
  on_enter_ = CIL_TRY(hook_ref(contract.on_enter));
  on_leave_ = CIL_TRY(hook_ref(contract.on_leave));
  on_exception_ = CIL_TRY(hook_ref(contract.on_exception));
  if (contract.on_leave.wants(HookParam::Elapsed)) {
    // System.Diagnostics.Stopwatch: in the core library on .NET and in netstandard, in System on
    // .NET Framework and Mono.
    md::RuntimeRefs& refs = *refs_;
    Token stopwatch = refs.kind() == md::CoreLibraryKind::Mscorlib && !refs.self()
                          ? CIL_TRY(refs.type_in(refs.process_assembly(), "System.Diagnostics", "Stopwatch"))
                          : CIL_TRY(refs.type("System.Diagnostics", "Stopwatch"));
    get_timestamp_ = CIL_TRY(refs.member(stopwatch, "GetTimestamp", method_sig(false, md::primitive(ElementType::I8), {})));
  }
  return ok();
}

Status TraceMode::add_helper_type() {
  md::MetadataSink& sink = *sink_;
  md::DefinitionSink& defs = *defs_;
  // The re-entrancy guard: a ThreadLocal<bool> (a [ThreadStatic] field would need a
  // CustomAttribute row, and that sorted table cannot grow without moving existing tokens).
  TypeSig inst = thread_local_bool(CIL_TRY(refs_->type("System.Threading", "ThreadLocal`1")));
  Token thread_local_type = CIL_TRY(sink.type_spec(encoded_type(inst)));
  TypeSig var0;
  var0.element = ElementType::Var;
  guard_ctor_ = CIL_TRY(sink.member_ref(thread_local_type, ".ctor", method_sig(true, md::primitive(ElementType::Void), {})));
  guard_get_ = CIL_TRY(sink.member_ref(thread_local_type, "get_Value", method_sig(true, var0, {})));
  guard_set_ = CIL_TRY(sink.member_ref(thread_local_type, "set_Value", method_sig(true, md::primitive(ElementType::Void), {var0})));

  helper_type_ = CIL_TRY(defs.define_type("", "<CilInstrument>", kStaticClass, object_));
  std::vector<uint8_t> field_sig{md::kSigField};
  md::encode_type(field_sig, inst);
  guard_field_ = CIL_TRY(defs.define_field(helper_type_, "inHook", kHelperField, field_sig));
  cctor_ = CIL_TRY(defs.define_method(helper_type_, ".cctor", kTypeInitializer, method_sig(false, md::primitive(ElementType::Void), {})));
  const HookMethod& on_exception = contract_->on_exception;
  if (on_exception.present) {
    guarded_on_exception_ = CIL_TRY(defs.define_method(
        helper_type_, "OnException", kHelperMethod,
        method_sig(false, hook_return(on_exception, exception_), hook_params(on_exception, exception_))));
  }
  return ok();
}

Status TraceMode::finish(CallEffects& effects) {
  BodyModel body;
  CodeBuilder c(body);
  c.newobj(guard_ctor_);
  c.stsfld(guard_field_);
  c.ret();
  body.instrs = CIL_TRY(c.finish()).instrs;
  body.max_stack = CIL_TRY(compute_max_stack(body, false, effects));
  EncodedBody encoded = CIL_TRY(rewrite_body(std::move(body), {}));
  CIL_TRY(defs_->set_new_method_body(cctor_, encoded.bytes));
  if (!guarded_on_exception_) return ok();
  return write_guarded_on_exception(effects);
}

/// OnException(<the hook's parameters>): skipped inside another hook; a throwing hook ignored.
/// An intercepting hook's result is returned: false or null when it was skipped or threw.
Status TraceMode::write_guarded_on_exception(CallEffects& effects) {
  BodyModel call;
  const HookMethod& hook = contract_->on_exception;
  bool returns = hook.returns != HookReturn::Void;
  std::optional<uint32_t> verdict;
  if (returns) {
    LocalsBuilder locals = CIL_TRY(LocalsBuilder::open(*sink_, md::Token()));
    verdict = locals.add(encoded_type(hook.returns == HookReturn::Bool ? md::primitive(ElementType::Boolean) : md::class_type(exception_)));
    call.local_sig_token = CIL_TRY(locals.commit(*sink_));
    call.init_locals = true;
  }
  CodeBuilder g(call);
  Label skip = g.new_label(), after = g.new_label();
  g.ldsfld(guard_field_);
  g.callvirt(guard_get_);
  g.brtrue(skip);
  g.ldsfld(guard_field_);
  g.ldc(1);
  g.callvirt(guard_set_);
  Region guard = g.begin_try();
  for (size_t i = 0; i < hook.params.size(); ++i) g.ldarg(static_cast<uint32_t>(i));
  g.call(on_exception_);
  if (verdict) g.stloc(*verdict);
  g.leave(after);
  g.begin_catch(guard, exception_);
  g.pop();
  g.leave(after);
  g.end_region(guard);
  g.mark(after);
  g.ldsfld(guard_field_);
  g.ldc(0);
  g.callvirt(guard_set_);
  g.mark(skip);
  if (verdict) g.ldloc(*verdict);
  g.ret();
  Code code = CIL_TRY(g.finish());
  call.instrs = std::move(code.instrs);
  call.clauses = std::move(code.clauses);
  call.max_stack = CIL_TRY(compute_max_stack(call, returns, effects));
  EncodedBody guarded = CIL_TRY(rewrite_body(std::move(call), {}));
  return defs_->set_new_method_body(guarded_on_exception_, guarded.bytes);
}

}  // namespace cil::instrument
