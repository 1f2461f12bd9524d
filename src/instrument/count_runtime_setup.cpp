// The start of count mode's helper at run time (count_runtime_code.h): the class constructor,
// Setup (the load's tag, the flush timer, the signal handlers) and the handlers that forward to
// the writer.
#include "instrument/count_runtime_code.h"

#include <algorithm>

namespace cil::instrument::count_helper {

/// .cctor: the counters (zeroed native memory, until MapLive moves them into the live file), the
/// write lock, the default tag, the exit hooks (on .NET an unhandled exception ends the process
/// without ProcessExit), then Setup.
Status write_cctor(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, uint32_t slots,
                   CallEffects& effects) {
  Token empty = CIL_TRY(str_token(editor, ""));
  BodyModel body;
  CodeBuilder c(body);
  if (m.counts_array) {
    c.ldc(static_cast<int32_t>(slots));
    c.newarr(x.int64);
    c.stsfld(m.counts);
  } else {
    auto bytes = static_cast<int32_t>(slots * 8);
    c.ldc(std::max(bytes, 8));
    c.call(x.alloc_hglobal);
    c.stsfld(m.counts);
    c.ldsfld(m.counts);
    c.ldc(0);
    c.ldc(bytes);
    c.emit(Op::Initblk);
  }
  c.newobj(x.object_ctor);
  c.stsfld(m.gate);
  c.ldstr(empty);
  c.stsfld(m.tag);
  c.call(x.get_current_domain);
  c.dup();
  c.ldnull();
  c.ldftn(m.on_exit);
  c.newobj(x.event_handler_ctor);
  c.callvirt(x.add_process_exit);
  c.ldnull();
  c.ldftn(m.on_unhandled);
  c.newobj(x.unhandled_handler_ctor);
  c.callvirt(x.add_unhandled);
  c.call(m.setup);
  c.ret();
  return set_body(editor, m.cctor, body, c, effects, false);
}

namespace {

/// Setup's body in parts that share its builder, references and locals.
struct SetupCode {
  enum : uint32_t { kDomain, kLoad, kData, kLock, kSeconds, kRegistration, kCreate, kParams, kHandler, kSignal, kArgs };
  CodeBuilder& c;
  const Refs& x;
  const CountRuntimeMembers& m;

  /// The load's number: lock (string.Intern(key)) { n = (int?)domain.GetData(key) + 1; SetData }.
  /// The interned key is one object for every load of this build in the domain, and no user
  /// code locks it.
  void load_number(Token key, Label set, Label after_lock) {
    c.call(x.get_current_domain);
    c.stloc(kDomain);
    c.ldstr(key);
    c.call(x.intern);
    c.stloc(kLock);
    c.ldloc(kLock);
    c.call(x.monitor_enter);
    Region lock = c.begin_try();
    c.ldloc(kDomain);
    c.ldstr(key);
    c.callvirt(x.get_data);
    c.stloc(kData);
    c.ldc(1);
    c.stloc(kLoad);
    c.ldloc(kData);
    c.brfalse(set);
    c.ldloc(kData);
    c.unbox_any(x.int32);
    c.ldc(1);
    c.emit(Op::Add);
    c.stloc(kLoad);
    c.mark(set);
    c.ldloc(kDomain);
    c.ldstr(key);
    c.ldloc(kLoad);
    c.box(x.int32);
    c.callvirt(x.set_data);
    c.leave(after_lock);
    c.begin_finally(lock);
    c.ldloc(kLock);
    c.call(x.monitor_exit);
    c.endfinally();
    c.end_region(lock);
    c.mark(after_lock);
  }

  /// tag = n > 1 ? "." + n : ""; a domain other than the default (.NET Framework, Mono) puts
  /// ".domain<id>" before it.
  void tag(Token dot, Token domain_prefix, Label default_domain, Label timer) {
    c.ldloc(kLoad);
    c.ldc(1);
    c.branch(Op::Ble_S, default_domain);
    c.ldstr(dot);
    c.ldloca(kLoad);
    c.call(x.int32_to_string);
    c.call(x.concat2);
    c.stsfld(m.tag);
    c.mark(default_domain);
    c.ldloc(kDomain);
    c.callvirt(x.is_default_domain);
    c.brtrue(timer);
    c.ldloc(kDomain);
    c.callvirt(x.domain_id);
    c.stloc(kLoad);
    c.ldstr(domain_prefix);
    c.ldloca(kLoad);
    c.call(x.int32_to_string);
    c.ldsfld(m.tag);
    c.call(x.concat3);
    c.stsfld(m.tag);
  }

  /// A periodic flush when CIL_INSTRUMENT_FLUSH_SECONDS is a positive integer. Timer callbacks
  /// run on the thread pool, whose threads never keep the process alive.
  void flush_timer(Token flush_variable, Label scale, Label signals) {
    c.ldstr(flush_variable);
    c.call(x.get_env);
    c.ldloca(kSeconds);
    c.call(x.int32_try_parse);
    c.brfalse(signals);
    c.ldloc(kSeconds);
    c.ldc(0);
    c.branch(Op::Ble_S, signals);
    c.ldloc(kSeconds);
    c.ldc(kMaxFlushSeconds);
    c.branch(Op::Ble_S, scale);
    c.ldc(kMaxFlushSeconds);
    c.stloc(kSeconds);
    c.mark(scale);
    c.ldloc(kSeconds);
    c.ldc(1000);
    c.emit(Op::Mul);
    c.stloc(kSeconds);
    c.ldsfld(m.keep);
    c.ldc(0);
    c.ldnull();
    c.ldftn(m.on_timer);
    c.newobj(x.timer_callback_ctor);
    c.ldnull();
    c.ldloc(kSeconds);
    c.ldloc(kSeconds);
    c.newobj(x.timer_ctor);
    c.emit(Op::Stelem_Ref);
  }

  /// Signals, where the runtime has PosixSignalRegistration (.NET 6 and later):
  ///   create = type.GetMethod("Create"); p = create.GetParameters();
  ///   handler = Delegate.CreateDelegate(p[1].ParameterType, OnSignal)  (Action<PosixSignalContext>
  ///   bound to OnSignal(object), by contravariance);
  ///   keep[k] = create.Invoke(null, {Enum.Parse(p[0].ParameterType, "SIGTERM"), handler}) ...
  /// The handler never sets Cancel, so the runtime's default outcome follows it.
  Status signal_handlers(md::ModuleEditor& editor, Token registration, Token create, Token on_signal, Label done) {
    c.ldstr(registration);
    c.ldc(0);
    c.call(x.type_get_type);
    c.stloc(kRegistration);
    c.ldloc(kRegistration);
    c.branch(Op::Brfalse, done);
    c.ldloc(kRegistration);
    c.ldstr(create);
    c.callvirt(x.type_get_method);
    c.stloc(kCreate);
    c.ldloc(kCreate);
    c.callvirt(x.get_parameters);
    c.stloc(kParams);
    c.ldloc(kParams);
    c.ldc(1);
    c.emit(Op::Ldelem_Ref);
    c.callvirt(x.parameter_type);
    c.ldtoken(md::make_token(md::TableId::TypeDef, m.helper_type));
    c.call(x.get_type_from_handle);
    c.ldstr(on_signal);
    c.ldc(kStaticNonPublic);
    c.callvirt(x.type_get_method_flags);
    c.call(x.create_delegate);
    c.stloc(kHandler);
    c.ldloc(kParams);
    c.ldc(0);
    c.emit(Op::Ldelem_Ref);
    c.callvirt(x.parameter_type);
    c.stloc(kSignal);
    int32_t slot = 1;
    for (std::string_view name : contract::kCountSignals) register_signal(CIL_TRY(str_token(editor, name)), slot++);
    return ok();
  }

  /// keep[slot] = create.Invoke(null, {Enum.Parse(signal type, name), handler}).
  void register_signal(Token name, int32_t slot) {
    c.ldc(2);
    c.newarr(x.object);
    c.stloc(kArgs);
    c.ldloc(kArgs);
    c.ldc(0);
    c.ldloc(kSignal);
    c.ldstr(name);
    c.call(x.enum_parse);
    c.emit(Op::Stelem_Ref);
    c.ldloc(kArgs);
    c.ldc(1);
    c.ldloc(kHandler);
    c.emit(Op::Stelem_Ref);
    c.ldsfld(m.keep);
    c.ldc(slot);
    c.ldloc(kCreate);
    c.ldnull();
    c.ldloc(kArgs);
    c.callvirt(x.method_invoke);
    c.emit(Op::Stelem_Ref);
  }
};

}  // namespace

/// Setup: the load's tag, the flush timer and the signal handlers. Nothing here may fail the
/// program: any exception leaves the helper with what it has (the exit hooks are in place).
Status write_setup(md::ModuleEditor& editor, const Refs& x, const CountRuntimeMembers& m, const CountRuntimeText& text,
                   CallEffects& effects) {
  TypeSig obj = prim(ElementType::Object), i4 = prim(ElementType::I4);
  BodyModel body;
  body.local_sig_token = CIL_TRY(locals_sig(
      editor, {md::class_type(x.app_domain), i4, obj, prim(ElementType::String), i4, md::class_type(x.type),
               md::class_type(x.method_info), md::wrap(ElementType::SzArray, md::class_type(x.parameter_info)),
               md::class_type(x.delegate), md::class_type(x.type), md::wrap(ElementType::SzArray, obj)}));
  body.init_locals = true;
  Token key = CIL_TRY(str_token(editor, text.load_key));
  Token dot = CIL_TRY(str_token(editor, "."));
  Token domain_prefix = CIL_TRY(str_token(editor, ".domain"));
  Token flush_variable = CIL_TRY(str_token(editor, contract::kEnvFlushSeconds));
  Token registration = CIL_TRY(str_token(editor, contract::kPosixSignalRegistrationType));
  Token create = CIL_TRY(str_token(editor, "Create"));
  Token on_signal = CIL_TRY(str_token(editor, kOnSignalName));

  CodeBuilder c(body);
  Label set = c.new_label(), after_lock = c.new_label(), default_domain = c.new_label(), timer = c.new_label(),
        scale = c.new_label(), signals = c.new_label(), done = c.new_label(), end = c.new_label();
  SetupCode setup{c, x, m};
  Region outer = c.begin_try();
  setup.load_number(key, set, after_lock);
  setup.tag(dot, domain_prefix, default_domain, timer);
  // keep = new object[6]: [0] the flush timer, [1..3] the signal registrations, [4..5] the
  // live file's mapping.
  c.mark(timer);
  c.ldc(6);
  c.newarr(x.object);
  c.stsfld(m.keep);
  if (m.map_live) c.call(m.map_live);
  setup.flush_timer(flush_variable, scale, signals);
  c.mark(signals);
  CIL_TRY(setup.signal_handlers(editor, registration, create, on_signal, done));
  c.mark(done);
  c.branch(Op::Leave, end);
  swallow_then_return(c, x, outer, end);
  return set_body(editor, m.setup, body, c, effects, false);
}

/// A handler with any parameters that calls WriteCounts(final).
Status write_forwarder(md::ModuleEditor& editor, const CountRuntimeMembers& m, Token method, bool final,
                       CallEffects& effects) {
  BodyModel body;
  CodeBuilder c(body);
  c.ldc(final ? 1 : 0);
  c.call(m.write);
  c.ret();
  return set_body(editor, method, body, c, effects, false);
}

}  // namespace cil::instrument::count_helper
