// Building the editable model from decoded code, and the instruction constructors.
#include "il/body_model.h"

#include <algorithm>

#include <fmt/format.h>

#include "il/target_check.h"

namespace cil::il {

namespace {

Error model_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

}  // namespace

Expected<BodyModel> BodyModel::from(const MethodBody& body, const DecodedCode& code) {
  CIL_TRY(check_targets(body, code));
  BodyModel m;
  m.max_stack = body.max_stack;
  m.local_sig_token = body.local_sig_token;
  m.init_locals = body.init_locals();
  m.original.fat = body.fat;
  m.original.fat_flags = body.fat_flags;
  m.original.header_size = body.header_size;
  m.original.sections = body.sections;

  const auto& ins = code.instructions;
  m.original.boundaries.reserve(ins.size() + 1);
  for (const auto& in : ins) m.original.boundaries.push_back(in.offset);
  m.original.boundaries.push_back(body.code_size);
  auto label_at = [&](int64_t offset) -> Expected<uint32_t> {
    std::optional<size_t> index = instruction_at(code, body.code_size, offset);
    if (!index)  // check_targets let it through: a bug here, not in the file
      return model_error(fmt::format("offset {:#x} is not the start of an instruction", offset));
    return *index == ins.size() ? kEndLabel : static_cast<uint32_t>(*index);
  };

  m.instrs.reserve(ins.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    const Instruction& in = ins[i];
    Instr x;
    x.id = static_cast<uint32_t>(i);
    x.op = in.op;
    x.value = in.value;
    Operand kind = in.info().operand;
    if (is_branch_operand(kind)) {
      x.target = CIL_TRY(label_at(in.value));
      x.value = 0;
    } else if (kind == Operand::Switch) {
      x.value = 0;
      x.targets.reserve(in.count);
      for (int64_t target : code.targets_of(in)) x.targets.push_back(CIL_TRY(label_at(target)));
    }
    m.instrs.push_back(std::move(x));
  }
  m.next_id_ = static_cast<uint32_t>(ins.size());

  for (const auto& c : body.clauses) {
    EhRegion r;
    r.kind = c.kind;
    r.class_token = c.class_token;
    r.try_start = CIL_TRY(label_at(c.try_offset));
    r.try_end = CIL_TRY(label_at(int64_t{c.try_offset} + c.try_length));
    r.handler_start = CIL_TRY(label_at(c.handler_offset));
    r.handler_end = CIL_TRY(label_at(int64_t{c.handler_offset} + c.handler_length));
    if (c.kind == ClauseKind::Filter) r.filter_start = CIL_TRY(label_at(c.filter_offset));
    m.clauses.push_back(r);
  }
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

Instr BodyModel::ldc_i4(int32_t value) {
  if (value >= -1 && value <= 8) return make(static_cast<Op>(static_cast<int>(Op::Ldc_I4_0) + value));
  if (value >= -128 && value <= 127) return make(Op::Ldc_I4_S, value);
  return make(Op::Ldc_I4, value);
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
