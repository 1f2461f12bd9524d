// Trace mode's rewrite of one method: locals, the entry code with OnEnter, and the try/filter/
// finally wrap with OnException and OnLeave.
#include "instrument/trace_mode.h"

#include <algorithm>

#include "il/constructor.h"
#include "il/tail_calls.h"
#include "instrument/trace_context.h"

namespace cil::instrument {

namespace {

using md::ElementType;
using md::TableId;
using md::Token;
using md::TypeSig;

Error trace_error(std::string message) { return make_error(ErrorKind::Unsupported, "trace", std::move(message)); }

bool is_byref_return(const TypeSig& t) { return t.element == ElementType::ByRef || t.element == ElementType::TypedByRef; }

}  // namespace

Status TraceMode::open_context(md::MethodDefId method, const std::string& name, BodyModel& body, Context& cx) {
  const md::Module& m = *file_;
  cx.method = method;
  cx.name = name;
  cx.token = method.token();
  cx.body = &body;
  auto r = m.row(method).signature_reader("method signature");
  if (!r) return r.error();
  // Of a vararg method the fixed parameters are reported; the variable part would need arglist.
  cx.sig = CIL_TRY(md::decode_method_sig(*r));
  cx.is_static = !cx.sig.has_this();
  md::TypeDefId owner = m.method_owner(method);
  generic_owner_method_ = cx.token;
  generic_owner_type_ = owner.token();
  if (!cx.is_static && !owner.is_nil()) cx.self = CIL_TRY(self_boxing(owner));
  // `this` of a ref struct cannot be boxed: pass null.
  if (cx.self.kind == Boxing::Unboxable && contract_->wants(HookParam::Instance)) cx.is_static = true;
  cx.catch_clause = contract_->on_exception.present || contract_->on_leave.wants(HookParam::Exception);
  cx.finally_clause = contract_->on_leave.present;
  cx.returns_value = cx.sig.return_type.element != ElementType::Void;
  return ok();
}

Status TraceMode::add_locals(Context& cx, LocalsBuilder& locals) {
  const BodyModel& body = *cx.body;
  const HookMethod& on_enter = contract_->on_enter;
  const HookMethod& on_leave = contract_->on_leave;
  auto local = [&](const TypeSig& type) { return locals.add(encoded_type(type)); };
  if (on_enter.returns_object && (on_leave.wants(HookParam::State) || contract_->on_exception.wants(HookParam::State)))
    cx.state = local(md::primitive(ElementType::Object));
  if (cx.catch_clause) cx.exception = local(md::class_type(exception_));
  bool tail_calls = std::any_of(body.instrs.begin(), body.instrs.end(), [](const Instr& in) { return in.op == Op::Tail; });
  if (tail_calls && cx.returns_value && cx.finally_clause && on_leave.wants(HookParam::Result))
    cx.tail_flag = local(md::primitive(ElementType::Boolean));
  TypeSig ret = cx.sig.return_type;
  if (cx.returns_value && (cx.catch_clause || cx.finally_clause)) {
    cx.result = local(ret);
    if (is_byref_return(ret)) cx.result_box.kind = Boxing::Unboxable;
    else cx.result_box = CIL_TRY(boxing(ret));
  }
  // Interception, as the hooks' signatures opt in. A result the hooks supply or replace needs a
  // return type an object can be unboxed to: not a byref, a pointer or a ref struct.
  bool convertible = false;
  if (cx.returns_value) {
    ret.modifiers.clear();
    Box box = is_byref_return(ret) ? Box{Boxing::Unboxable, md::Token()} : CIL_TRY(boxing(ret));
    convertible = box.kind != Boxing::Unboxable;
    bool needed = on_enter.returns == HookReturn::Bool || (cx.finally_clause && on_leave.result_by_ref);
    if (convertible && needed) {
      cx.default_result = local(ret);
      cx.result_type = CIL_TRY(sink_->type_spec(encoded_type(ret)));
    }
  }
  cx.can_skip = on_enter.returns == HookReturn::Bool && (!cx.returns_value || convertible);
  if (on_enter.returns == HookReturn::Bool) cx.skip = local(md::primitive(ElementType::Boolean));
  if (on_enter.result_by_ref) cx.enter_result = local(md::primitive(ElementType::Object));
  if (cx.finally_clause && on_leave.result_by_ref) cx.leave_result = local(md::primitive(ElementType::Object));
  if (cx.finally_clause && on_leave.wants(HookParam::Elapsed)) cx.start_ticks = local(md::primitive(ElementType::I8));
  HookReturn exception_returns = contract_->on_exception.present ? contract_->on_exception.returns : HookReturn::Void;
  if (exception_returns == HookReturn::Exception) cx.replacement = local(md::class_type(exception_));
  if (exception_returns == HookReturn::Bool) cx.handled = local(md::primitive(ElementType::Boolean));
  return ok();
}

/// The locals set at entry, OnEnter, and (when OnEnter may skip the body) the early return.
/// Returns where the early return starts: it is the only part inside the protected region.
Expected<size_t> TraceMode::emit_prologue(Context& cx, size_t start, CodeBuilder& c) {
  auto init_null = [&](std::optional<uint32_t> local) {
    if (!local) return;
    c.ldnull();
    c.stloc(*local);
  };
  auto init_false = [&](std::optional<uint32_t> local) {
    if (!local) return;
    c.ldc(0);
    c.stloc(*local);
  };
  init_null(cx.state);
  init_null(cx.exception);
  init_false(cx.tail_flag);
  init_false(cx.skip);
  init_null(cx.enter_result);
  if (cx.start_ticks) {
    c.call(get_timestamp_);
    c.stloc(*cx.start_ticks);
  }
  if (contract_->on_enter.present) CIL_TRY(emit_hook(cx, contract_->on_enter, on_enter_, c));
  size_t region_start = c.size();
  if (!cx.can_skip) return region_start;
  // OnEnter said skip: the method returns at once with the result OnEnter supplied (or the
  // type's default), and OnLeave still runs (the ret becomes a leave).
  c.ldloc(*cx.skip);
  c.branch(Op::Brfalse, Label::at(cx.body->instrs[start].id));
  if (cx.returns_value && cx.enter_result) {
    emit_unbox_result(cx, *cx.enter_result, c);
  } else if (cx.returns_value) {
    c.ldloca(*cx.default_result);
    c.emit(Op::Initobj, cx.result_type);
    c.ldloc(*cx.default_result);
  }
  c.ret();
  return region_start;
}

/// The filter sees the exception in the first pass and lets it go on (returns 0): nothing is
/// caught or rethrown, so the finally blocks up the stack, OnLeave's among them, run in the
/// second pass as they would without us.
Status TraceMode::emit_filter(Context& cx, WrapSpec& spec) {
  spec.filter_clause = true;
  CodeBuilder c(*cx.body);
  c.emit(Op::Isinst, exception_);
  c.stloc(*cx.exception);
  if (contract_->on_exception.present) {
    CIL_TRY(emit_hook_args(cx, contract_->on_exception, c));
    c.call(guarded_on_exception_);
    if (cx.replacement) {
      // A non-null result is caught here and thrown instead.
      c.stloc(*cx.replacement);
      c.ldloc(*cx.replacement);
      c.ldnull();
      c.emit(Op::Cgt_Un);
      spec.filter_decides = true;
      spec.handler_throw_local = cx.replacement;
    } else if (cx.handled) {
      // true suppresses the exception, in a void method (another has no result to return).
      c.stloc(*cx.handled);
      if (cx.returns_value) {
        c.ldc(0);
      } else {
        c.ldloc(*cx.handled);
        spec.handler_suppresses = true;
      }
      spec.filter_decides = true;
    }
  }
  Code code = CIL_TRY(c.finish());
  spec.filter_code = std::move(code.instrs);
  return ok();
}

Status TraceMode::emit_finally(Context& cx, WrapSpec& spec) {
  spec.finally_clause = true;
  CodeBuilder c(*cx.body);
  if (cx.leave_result) {
    // OnLeave's `ref object result`: the result boxed (null after an exception or a tail
    // call, or for a type that cannot be boxed), and written back after the hook.
    HookMethod boxed;
    boxed.present = true;
    boxed.params = {HookParam::Result};
    CIL_TRY(emit_hook_args(cx, boxed, c));
    c.stloc(*cx.leave_result);
  }
  CIL_TRY(emit_hook(cx, contract_->on_leave, on_leave_, c));
  if (cx.leave_result && cx.result && cx.default_result) {
    Label done = c.new_label();
    if (cx.exception) {
      c.ldloc(*cx.exception);
      c.branch(Op::Brtrue, done);
    }
    if (cx.tail_flag) {
      c.ldloc(*cx.tail_flag);
      c.branch(Op::Brtrue, done);
    }
    emit_unbox_result(cx, *cx.leave_result, c);
    c.stloc(*cx.result);
    c.mark(done);
    c.emit(Op::Nop);
  }
  Code code = CIL_TRY(c.finish());
  spec.finally_code = std::move(code.instrs);
  cx.guard_clauses.insert(cx.guard_clauses.end(), code.clauses.begin(), code.clauses.end());
  return ok();
}

Status TraceMode::instrument(md::MethodDefId method, const std::string& name, BodyModel& body) {
  Context cx;
  CIL_TRY(open_context(method, name, body, cx));
  // Where the new code starts: in a reference type's constructor, after the base/this call.
  auto start = constructed_index(*file_, method, body);
  if (!start) return trace_error("no base constructor call found");
  LocalsBuilder locals = CIL_TRY(LocalsBuilder::open(*sink_, body.local_sig_token));
  CIL_TRY(add_locals(cx, locals));

  CodeBuilder c(body);
  size_t region_start = CIL_TRY(emit_prologue(cx, *start, c));
  Code prologue = CIL_TRY(c.finish());
  cx.guard_clauses = std::move(prologue.clauses);
  insert_code(body, *start, std::move(prologue.instrs));

  if (cx.catch_clause || cx.finally_clause) {
    WrapSpec spec;
    spec.try_start = *start + region_start;
    if (cx.returns_value) spec.result_local = cx.result;
    if (cx.catch_clause) CIL_TRY(emit_filter(cx, spec));
    if (cx.finally_clause) CIL_TRY(emit_finally(cx, spec));
    spec.tail_sites = CIL_TRY(plan_tail_sites(*file_, body, spec.try_start, locals));
    if (!spec.tail_sites.empty()) spec.tail_flag = cx.tail_flag;
    // The guards' clauses sit inside the new handlers, so they go before the new clauses.
    body.clauses.insert(body.clauses.end(), cx.guard_clauses.begin(), cx.guard_clauses.end());
    CIL_TRY(wrap_body(body, spec));
  } else {
    body.clauses.insert(body.clauses.end(), cx.guard_clauses.begin(), cx.guard_clauses.end());
  }
  body.local_sig_token = CIL_TRY(locals.commit(*sink_));
  if (body.local_sig_token && !body.original.fat) body.init_locals = true;
  body.edited = true;
  return ok();
}

}  // namespace cil::instrument
