// The library's modes behind the one mode interface, and open_mode, the one place that opens them.
#include "instrument/instrument_mode.h"

#include <algorithm>

#include "il/constructor.h"
#include "il/rewriter.h"
#include "il/tail_calls.h"
#include "instrument/count_mode.h"
#include "instrument/trace_mode.h"
#include "metadata/signature.h"

namespace cil::instrument {

namespace {

using md::TableId;

/// The name the helper's file is written under: the assembly's, else the module's.
std::string assembly_name(const md::Module& m) {
  const auto& t = m.tables();
  return std::string(t.rows(TableId::Assembly) ? m.row<TableId::Assembly>(1).name()
                     : t.rows(TableId::Module) ? m.row<TableId::Module>(1).name()
                                               : std::string_view());
}

struct MethodShape {
  bool returns_value = false;
  std::vector<uint8_t> return_type;  ///< encoded, for the result local
};

Expected<MethodShape> method_shape(const md::Module& m, md::MethodDefId method) {
  auto r = m.row(method).signature_reader("method signature");
  if (!r) return r.error();
  md::MethodSig sig = CIL_TRY(md::decode_method_sig(*r));
  MethodShape shape;
  shape.returns_value = sig.return_type.element != md::ElementType::Void;
  if (shape.returns_value) md::encode_type(shape.return_type, sig.return_type);
  return shape;
}

/// Max stack of an edited model: the edit's code may go deeper than the original's.
Status grow_max_stack(BodyModel& model, bool returns_value, CallEffects& effects) {
  model.max_stack = std::max(model.max_stack, CIL_TRY(compute_max_stack(model, returns_value, effects)));
  return ok();
}

/// The modes that add code reference the core library: they hold its references, made first.
class WithRefs : public InstrumentMode {
 public:
  const md::RuntimeRefs* refs() const override { return refs_.get(); }

 protected:
  explicit WithRefs(const ModeContext& context) : context_(context) {}
  Status create_refs() {
    refs_ = std::make_unique<md::RuntimeRefs>(CIL_TRY(md::RuntimeRefs::create(context_.editor)));
    return ok();
  }

  ModeContext context_;
  std::unique_ptr<md::RuntimeRefs> refs_;  ///< on the heap: the modes keep its address
};

/// Noop: every body decoded and encoded again, unchanged; nothing added to the module.
class NoopRun final : public InstrumentMode {
 public:
  const md::RuntimeRefs* refs() const override { return nullptr; }
  Status measure(CallEffects&) override { return ok(); }
  bool excludes(md::MethodDefId) override { return false; }
  Status edit(md::MethodDefId, const std::string&, CallEffects&, BodyEdit&) override { return ok(); }
  Status commit(md::MethodDefId, std::string_view) override { return ok(); }
  Status finish(CallEffects&) override { return ok(); }
};

/// Count: an entry probe per method, counted in the helper's array.
class CountRun final : public WithRefs {
 public:
  static Expected<std::unique_ptr<InstrumentMode>> open(const ModeContext& context) {
    std::unique_ptr<CountRun> run(new CountRun(context));
    CIL_TRY(run->create_refs());
    run->count_.emplace(CIL_TRY(CountMode::begin(context.editor, *run->refs_)));
    return std::unique_ptr<InstrumentMode>(std::move(run));
  }
  Status measure(CallEffects& effects) override { return count_->measure_probe(effects); }
  bool excludes(md::MethodDefId) override { return false; }
  Status edit(md::MethodDefId, const std::string&, CallEffects&, BodyEdit& edit) override {
    // Only a prologue, which the engine splices in without building the model. The probe is
    // stack-neutral and runs on an empty stack, so no path gets deeper than the original's
    // deepest or the probe's own: the bound needs no new simulation.
    edit.entry_code = count_->next_probe();
    edit.entry_max_stack = count_->probe_max_stack();
    return ok();
  }
  Status commit(md::MethodDefId method, std::string_view name) override { return count_->commit(method, name); }
  Status finish(CallEffects& effects) override {
    return count_->finish(assembly_name(context_.module), md::format_guid(context_.editor.mvid()), effects);
  }

 private:
  using WithRefs::WithRefs;
  std::optional<CountMode> count_;
};

/// Coverage: the plan's probes, counted in count mode's helper.
class CoverageRun final : public WithRefs {
 public:
  static Expected<std::unique_ptr<InstrumentMode>> open(const ModeContext& context) {
    std::unique_ptr<CoverageRun> run(new CoverageRun(context));
    CIL_TRY(run->create_refs());
    CoverageOptions none;
    run->coverage_.emplace(
        CIL_TRY(CoverageMode::begin(context.editor, *run->refs_, context.pdb, context.coverage ? *context.coverage : none)));
    return std::unique_ptr<InstrumentMode>(std::move(run));
  }
  Status measure(CallEffects& effects) override { return coverage_->measure_probe(effects); }
  bool excludes(md::MethodDefId method) override { return coverage_->excluded(method).has_value(); }
  Status edit(md::MethodDefId method, const std::string& name, CallEffects&, BodyEdit& edit) override {
    edit.edit = [this, method, &name](BodyModel& model) -> Status {
      md::MethodDefId source = coverage_->attributed(method);
      return coverage_->instrument(method, source, source == method ? name : context_.printer.method_name(source), model);
    };
    return ok();
  }
  Status commit(md::MethodDefId method, std::string_view) override { return coverage_->commit(method); }
  Status finish(CallEffects& effects) override {
    return coverage_->finish(assembly_name(context_.module), md::format_guid(context_.editor.mvid()), effects);
  }

 private:
  using WithRefs::WithRefs;
  std::optional<CoverageMode> coverage_;
};

/// Trace: the user's hooks called from every method.
class TraceRun final : public WithRefs {
 public:
  static Expected<std::unique_ptr<InstrumentMode>> open(const ModeContext& context) {
    std::unique_ptr<TraceRun> run(new TraceRun(context));
    CIL_TRY(run->create_refs());
    if (!context.hooks) return make_error(ErrorKind::Usage, "", "trace mode needs a hooks assembly (--hooks)");
    run->trace_.emplace(CIL_TRY(TraceMode::begin(context.editor, *run->refs_, *context.hooks)));
    return std::unique_ptr<InstrumentMode>(std::move(run));
  }
  Status measure(CallEffects&) override { return ok(); }
  bool excludes(md::MethodDefId) override { return false; }
  Status edit(md::MethodDefId method, const std::string& name, CallEffects& effects, BodyEdit& edit) override {
    edit.edit = [this, method, &name, &effects](BodyModel& model) -> Status {
      MethodShape shape = CIL_TRY(method_shape(context_.module, method));
      CIL_TRY(trace_->instrument(method, name, model));
      return grow_max_stack(model, shape.returns_value, effects);
    };
    return ok();
  }
  Status commit(md::MethodDefId, std::string_view) override { return ok(); }
  Status finish(CallEffects& effects) override { return trace_->finish(effects); }

 private:
  using WithRefs::WithRefs;
  std::optional<TraceMode> trace_;
};

/// Wrap: every body in an empty try/filter/finally with one exit block (the engine's wrapping,
/// with nothing inside).
class WrapRun final : public WithRefs {
 public:
  static Expected<std::unique_ptr<InstrumentMode>> open(const ModeContext& context) {
    std::unique_ptr<WrapRun> run(new WrapRun(context));
    // Made although wrap calls nothing in it: the outputs have always carried its references.
    CIL_TRY(run->create_refs());
    return std::unique_ptr<InstrumentMode>(std::move(run));
  }
  Status measure(CallEffects&) override { return ok(); }
  bool excludes(md::MethodDefId) override { return false; }
  Status edit(md::MethodDefId method, const std::string&, CallEffects& effects, BodyEdit& edit) override {
    edit.edit = [this, method, &effects](BodyModel& model) -> Status {
      MethodShape shape = CIL_TRY(method_shape(context_.module, method));
      CIL_TRY(wrap_empty(method, model, shape));
      return grow_max_stack(model, shape.returns_value, effects);
    };
    return ok();
  }
  Status commit(md::MethodDefId, std::string_view) override { return ok(); }
  Status finish(CallEffects&) override { return ok(); }

 private:
  using WithRefs::WithRefs;

  Status wrap_empty(md::MethodDefId method, BodyModel& body, const MethodShape& shape) {
    const md::Module& m = context_.module;
    auto start = constructed_index(m, method, body);
    if (!start) return make_error(ErrorKind::Unsupported, "", "no base constructor call found");
    LocalsBuilder locals = CIL_TRY(LocalsBuilder::open(context_.editor, body.local_sig_token));
    WrapSpec spec;
    spec.try_start = *start;
    if (shape.returns_value) spec.result_local = locals.add(shape.return_type);
    spec.filter_clause = true;
    spec.filter_code.push_back(body.make(Op::Pop));
    spec.finally_clause = true;
    spec.finally_code.push_back(body.make(Op::Nop));
    spec.epilogue.push_back(body.make(Op::Nop));
    spec.tail_sites = CIL_TRY(plan_tail_sites(m, body, spec.try_start, locals));
    CIL_TRY(wrap_body(body, spec));
    body.local_sig_token = CIL_TRY(locals.commit(context_.editor));
    if (body.local_sig_token && !body.original.fat) body.init_locals = true;
    return ok();
  }
};

}  // namespace

Expected<std::unique_ptr<InstrumentMode>> open_mode(Mode mode, const ModeContext& context) {
  switch (mode) {
    case Mode::Count: return CountRun::open(context);
    case Mode::Noop: return std::unique_ptr<InstrumentMode>(std::make_unique<NoopRun>());
    case Mode::Wrap: return WrapRun::open(context);
    case Mode::Trace: return TraceRun::open(context);
    case Mode::Coverage: return CoverageRun::open(context);
  }
  return make_error(ErrorKind::Usage, "", "unknown mode");
}

}  // namespace cil::instrument
