// The entry probe of count mode and its callee, offline and at run time.
#include "instrument/probes.h"

#include "metadata/signature.h"

namespace cil::instrument {

namespace {

/// The constant that names an offline counter's slot, and its place in the probe.
constexpr size_t kSlotConstant = 1;
int32_t slot_constant(const CounterRef& counter, uint32_t slot) {
  // base + slot * 8 (int32 + native int is native int, III.1.5); no bounds check to pay.
  return static_cast<int32_t>(counter.array_element ? slot : slot * 8);
}

}  // namespace

void counter_probe(BodyModel& body, const CounterRef& counter, md::Token increment, std::vector<Instr>& probe,
                   ProbeKind kind) {
  probe.clear();
  bool hit = kind == ProbeKind::Hit;
  if (counter.array_element) {
    probe.push_back(body.make(Op::Ldsfld, counter.field));
    probe.push_back(body.ldc_i4(slot_constant(counter, counter.slot)));
    if (hit) {  // stelem.i8 checks the index, as ldelema would
      probe.push_back(body.make(Op::Ldc_I4_1));
      probe.push_back(body.make(Op::Conv_I8));
      probe.push_back(body.make(Op::Stelem_I8));
      return;
    }
    probe.push_back(body.make(Op::Ldelema, counter.array_element));
  } else if (counter.field) {
    probe.push_back(body.make(Op::Ldsfld, counter.field));
    probe.push_back(body.ldc_i4(slot_constant(counter, counter.slot)));
    probe.push_back(body.make(Op::Add));
  } else {
    probe.push_back(body.make(Op::Ldc_I8, static_cast<int64_t>(counter.address)));
    probe.push_back(body.make(Op::Conv_U));
  }
  if (hit) {  // the counter stays an int64: the files and their readers are the same either way
    probe.push_back(body.make(Op::Ldc_I4_1));
    probe.push_back(body.make(Op::Conv_I8));
    probe.push_back(body.make(Op::Stind_I8));
    return;
  }
  probe.push_back(body.make(Op::Call, increment));
  probe.push_back(body.make(Op::Pop));
}

void set_counter_slot(std::vector<Instr>& probe, const CounterRef& counter, uint32_t slot) {
  BodyModel::set_ldc_i4(probe.at(kSlotConstant), slot_constant(counter, slot));
}

std::vector<Instr> counter_probe(BodyModel& body, const CounterRef& counter, md::Token increment, ProbeKind kind) {
  std::vector<Instr> probe;
  probe.reserve(6);
  counter_probe(body, counter, increment, probe, kind);
  return probe;
}

Expected<uint16_t> probe_max_stack(const CounterRef& counter, md::Token increment, CallEffects& effects, ProbeKind kind) {
  BodyModel body;
  body.instrs = counter_probe(body, counter, increment, kind);
  body.instrs.push_back(body.make(Op::Ret));
  return compute_max_stack(body, false, effects);
}

Expected<md::Token> increment_type(md::RuntimeRefs& refs) { return refs.type(kIncrementNamespace, kIncrementType); }

Expected<md::Token> increment_method(md::RuntimeRefs& refs, md::Token interlocked) {
  md::TypeSig i8 = md::primitive(md::ElementType::I8);
  return refs.member(interlocked, "Increment", md::method_signature(false, i8, {md::wrap(md::ElementType::ByRef, i8)}));
}

Expected<md::Token> resolve_increment(md::RuntimeRefs& refs) {
  md::Token interlocked = CIL_TRY(increment_type(refs));
  return increment_method(refs, interlocked);
}

}  // namespace cil::instrument
