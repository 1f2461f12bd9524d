// Trace mode: the guarded call to one hook and the values it is passed, written with CodeBuilder.
#include "instrument/trace_context.h"
#include "metadata/text_encoding.h"

namespace cil::instrument {

namespace {

using md::ElementType;
using md::Token;
using md::TypeSig;

}  // namespace

Status TraceMode::emit_value(const TypeSig& type, CodeBuilder& c) {
  Box b = CIL_TRY(boxing(type));
  switch (b.kind) {
    case Boxing::Unboxable:
      c.pop();
      c.ldnull();
      break;
    case Boxing::Reference:
      break;
    case Boxing::Value:
      c.box(b.token);
      break;
  }
  return ok();
}

Status TraceMode::emit_hook(Context& cx, const HookMethod& hook, Token target, CodeBuilder& c) {
  // Guard: skip the hook when this thread is already inside one.
  Label skip = c.new_label(), after = c.new_label();
  c.ldsfld(guard_field_);
  c.callvirt(guard_get_);
  c.brtrue(skip);
  c.ldsfld(guard_field_);
  c.ldc(1);
  c.callvirt(guard_set_);
  Region guard = c.begin_try();
  CIL_TRY(emit_hook_args(cx, hook, c));
  c.call(target);
  bool intercepts = &hook == &contract_->on_enter && hook.returns == HookReturn::Bool;
  if (&hook == &contract_->on_enter && hook.returns_object) {
    if (cx.state) c.stloc(*cx.state);
    else c.pop();
  } else if (intercepts) {
    // false: skip the body.
    if (cx.skip) {
      c.ldc(0);
      c.emit(Op::Ceq);
      c.stloc(*cx.skip);
    } else {
      c.pop();
    }
  }
  c.leave(after);
  if (intercepts) {
    // An intercepting OnEnter may reject the call with its own exception (a validator): it
    // propagates from the call site, before the method's own code; the guard is reset on the way.
    c.begin_finally(guard);
    c.ldsfld(guard_field_);
    c.ldc(0);
    c.callvirt(guard_set_);
    c.emit(Op::Endfinally);
    c.end_region(guard);
    c.mark(after);
    c.emit(Op::Nop);
  } else {
    c.begin_catch(guard, exception_);
    c.pop();  // a throwing hook must not change what the program does
    c.leave(after);
    c.end_region(guard);
    c.mark(after);
    c.ldsfld(guard_field_);
    c.ldc(0);
    c.callvirt(guard_set_);
  }
  c.mark(skip);
  c.emit(Op::Nop);
  return ok();
}

Status TraceMode::emit_hook_args(Context& cx, const HookMethod& hook, CodeBuilder& c) {
  for (HookParam p : hook.params) CIL_TRY(emit_hook_arg(cx, hook, p, c));
  return ok();
}

Status TraceMode::emit_hook_arg(Context& cx, const HookMethod& hook, HookParam param, CodeBuilder& c) {
  switch (param) {
    case HookParam::Method:
      c.ldstr(CIL_TRY(sink_->user_string(md::utf8_to_utf16(cx.name))));
      break;
    case HookParam::Token:
      c.ldc(static_cast<int32_t>(cx.token.value()));
      break;
    case HookParam::Instance:
      if (cx.is_static) {
        c.ldnull();
        break;
      }
      c.ldarg(0);
      if (cx.self.kind == Boxing::Value) {
        c.emit(Op::Ldobj, cx.self.token);
        c.box(cx.self.token);
      }
      break;
    case HookParam::Args:
      CIL_TRY(emit_args_array(cx, c));
      break;
    case HookParam::State:
      if (cx.state) c.ldloc(*cx.state);
      else c.ldnull();
      break;
    case HookParam::Result:
      // OnEnter's `out object result`, OnLeave's `ref object result` (filled just before).
      if (hook.result_by_ref) c.ldloca(&hook == &contract_->on_enter ? *cx.enter_result : *cx.leave_result);
      else emit_result_or_null(cx, c);
      break;
    case HookParam::Exception:
      if (cx.exception) c.ldloc(*cx.exception);
      else c.ldnull();
      break;
    case HookParam::Elapsed:
      c.call(get_timestamp_);
      c.ldloc(*cx.start_ticks);
      c.emit(Op::Sub);
      break;
  }
  return ok();
}

Status TraceMode::emit_args_array(Context& cx, CodeBuilder& c) {
  uint32_t this_offset = cx.sig.has_this() ? 1 : 0;
  c.ldc(static_cast<int32_t>(cx.sig.params.size()));
  c.emit(Op::Newarr, object_);
  for (size_t k = 0; k < cx.sig.params.size(); ++k) {
    const TypeSig& t = cx.sig.params[k];
    c.dup();
    c.ldc(static_cast<int32_t>(k));
    if (t.element == ElementType::ByRef) {
      // ref, out, in and ref readonly: null. The reference may be null or point at memory
      // the method never reads (Unsafe.NullRef, an unmapped address, an out parameter not
      // yet written); the hooks must not read what the original does not.
      c.ldnull();
    } else {
      c.ldarg(static_cast<uint32_t>(k) + this_offset);
      CIL_TRY(emit_value(t, c));
    }
    c.emit(Op::Stelem_Ref);
  }
  return ok();
}

void TraceMode::emit_result_or_null(Context& cx, CodeBuilder& c) {
  if (!cx.result || cx.result_box.kind == Boxing::Unboxable) {
    c.ldnull();
    return;
  }
  // null when an exception escapes: there is no result then.
  Label none = c.new_label(), done = c.new_label();
  if (cx.exception) {
    c.ldloc(*cx.exception);
    c.brtrue(none);
  }
  // null too when the method leaves by a tail call: the callee's result is not known yet.
  if (cx.tail_flag) {
    c.ldloc(*cx.tail_flag);
    c.brtrue(none);
  }
  c.ldloc(*cx.result);
  if (cx.result_box.kind == Boxing::Value) c.box(cx.result_box.token);
  c.br(done);
  c.mark(none);
  c.ldnull();
  c.mark(done);
  c.emit(Op::Nop);
}

void TraceMode::emit_unbox_result(Context& cx, uint32_t object, CodeBuilder& c) {
  Label convert = c.new_label(), done = c.new_label();
  c.ldloc(object);
  c.brtrue(convert);
  c.ldloca(*cx.default_result);
  c.emit(Op::Initobj, cx.result_type);
  c.ldloc(*cx.default_result);
  c.br(done);
  c.mark(convert);
  c.ldloc(object);
  c.emit(Op::Unbox_Any, cx.result_type);
  c.mark(done);
  c.emit(Op::Nop);
}

}  // namespace cil::instrument
