// Building the editable model from decoded code, and the instruction constructors.
#include "il/body_model.h"

#include <algorithm>

#include "il/target_check.h"

namespace cil::il {

Expected<BodyModel> BodyModel::from(const MethodBody& body, const DecodedCode& code) {
  const auto& ins = code.instructions;
  BodyModel m;
  m.max_stack = body.max_stack;
  m.local_sig_token = body.local_sig_token;
  m.init_locals = body.init_locals();
  m.original.fat = body.fat;
  m.original.fat_flags = body.fat_flags;
  m.original.header_size = body.header_size;
  m.original.sections = body.sections;
  m.original.boundaries.reserve(ins.size() + 1);
  m.instrs.reserve(ins.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    const Instruction& in = ins[i];
    m.original.boundaries.push_back(in.offset);
    Instr x;
    x.id = static_cast<uint32_t>(i);
    x.op = in.op;
    Operand kind = in.info().operand;
    if (kind == Operand::Switch) x.targets.resize(in.count);
    else if (!is_branch_operand(kind)) x.value = in.value;
    m.instrs.push_back(std::move(x));
  }
  m.original.boundaries.push_back(body.code_size);
  m.next_id_ = static_cast<uint32_t>(ins.size());
  m.clauses.resize(body.clauses.size());
  for (size_t k = 0; k < body.clauses.size(); ++k) {
    m.clauses[k].kind = body.clauses[k].kind;
    m.clauses[k].class_token = body.clauses[k].class_token;
  }

  // Every target becomes the id of the instruction it names (ids are indexes here).
  CIL_TRY(resolve_targets(body, code, [&](const TargetSite& site, size_t index) {
    uint32_t label = index == ins.size() ? kEndLabel : static_cast<uint32_t>(index);
    switch (site.kind) {
      case TargetSite::Branch: m.instrs[site.owner].target = label; break;
      case TargetSite::Switch: m.instrs[site.owner].targets[site.slot] = label; break;
      case TargetSite::TryStart: m.clauses[site.owner].try_start = label; break;
      case TargetSite::TryEnd: m.clauses[site.owner].try_end = label; break;
      case TargetSite::HandlerStart: m.clauses[site.owner].handler_start = label; break;
      case TargetSite::HandlerEnd: m.clauses[site.owner].handler_end = label; break;
      case TargetSite::FilterStart: m.clauses[site.owner].filter_start = label; break;
    }
  }));
  return m;
}

Instr BodyModel::make(Op op, int64_t value) {
  Instr x;
  x.id = next_id_++;
  x.op = op;
  x.value = value;
  return x;
}

Instr BodyModel::make_branch(Op op, uint32_t target) {
  Instr x = make(op);
  x.target = target;
  return x;
}

void BodyModel::set_ldc_i4(Instr& x, int32_t value) {
  if (value >= -1 && value <= 8) {
    x.op = static_cast<Op>(static_cast<int>(Op::Ldc_I4_0) + value);
    x.value = 0;
  } else {
    x.op = value >= -128 && value <= 127 ? Op::Ldc_I4_S : Op::Ldc_I4;
    x.value = value;
  }
}

Instr BodyModel::ldc_i4(int32_t value) {
  Instr x = make(Op::Nop);
  set_ldc_i4(x, value);
  return x;
}

Instr BodyModel::ldloc(uint32_t index) {
  if (index <= 3) return make(static_cast<Op>(static_cast<int>(Op::Ldloc_0) + index));
  return make(index <= 255 ? Op::Ldloc_S : Op::Ldloc, index);
}

Instr BodyModel::stloc(uint32_t index) {
  if (index <= 3) return make(static_cast<Op>(static_cast<int>(Op::Stloc_0) + index));
  return make(index <= 255 ? Op::Stloc_S : Op::Stloc, index);
}

Instr BodyModel::ldloca(uint32_t index) { return make(index <= 255 ? Op::Ldloca_S : Op::Ldloca, index); }

Instr BodyModel::ldarg(uint32_t index) {
  if (index <= 3) return make(static_cast<Op>(static_cast<int>(Op::Ldarg_0) + index));
  return make(index <= 255 ? Op::Ldarg_S : Op::Ldarg, index);
}

Instr BodyModel::ldarga(uint32_t index) { return make(index <= 255 ? Op::Ldarga_S : Op::Ldarga, index); }

std::vector<uint32_t> BodyModel::positions() const {
  uint32_t max_id = 0;
  for (const auto& in : instrs) max_id = std::max(max_id, in.id);
  std::vector<uint32_t> out(instrs.empty() ? 0 : size_t{max_id} + 1, kNoLabel);
  for (size_t i = 0; i < instrs.size(); ++i) out[instrs[i].id] = static_cast<uint32_t>(i);
  return out;
}

size_t BodyModel::index_of(uint32_t id) const {
  if (id == kEndLabel) return instrs.size();
  for (size_t i = 0; i < instrs.size(); ++i)
    if (instrs[i].id == id) return i;
  return instrs.size();
}

}  // namespace cil::il
