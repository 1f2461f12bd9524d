// Straight runs of a body's original code (see probe_blocks.h).
#include "instrument/probe_blocks.h"

namespace cil::instrument {

namespace {

bool falls_through(Op op) {
  Flow flow = op_info(op).flow;
  return flow != Flow::Branch && flow != Flow::Return && flow != Flow::Throw;
}

void add_entry(std::vector<uint8_t>& entries, uint32_t label, uint8_t count = 1) {
  if (label >= entries.size()) return;  // kEndLabel, or a label of no original instruction
  entries[label] = static_cast<uint8_t>(std::min(2, entries[label] + count));
}

}  // namespace

bool may_throw(Op op) {
  switch (op) {
    case Op::Nop:
    case Op::Ldarg_0: case Op::Ldarg_1: case Op::Ldarg_2: case Op::Ldarg_3: case Op::Ldarg_S: case Op::Ldarg:
    case Op::Ldarga_S: case Op::Ldarga: case Op::Starg_S: case Op::Starg:
    case Op::Ldloc_0: case Op::Ldloc_1: case Op::Ldloc_2: case Op::Ldloc_3: case Op::Ldloc_S: case Op::Ldloc:
    case Op::Ldloca_S: case Op::Ldloca:
    case Op::Stloc_0: case Op::Stloc_1: case Op::Stloc_2: case Op::Stloc_3: case Op::Stloc_S: case Op::Stloc:
    case Op::Ldnull: case Op::Ldstr:
    case Op::Ldc_I4_M1: case Op::Ldc_I4_0: case Op::Ldc_I4_1: case Op::Ldc_I4_2: case Op::Ldc_I4_3: case Op::Ldc_I4_4:
    case Op::Ldc_I4_5: case Op::Ldc_I4_6: case Op::Ldc_I4_7: case Op::Ldc_I4_8: case Op::Ldc_I4_S: case Op::Ldc_I4:
    case Op::Ldc_I8: case Op::Ldc_R4: case Op::Ldc_R8:
    case Op::Dup: case Op::Pop:
    // Unchecked arithmetic, conversions and comparisons (Partition III, 3): not div and rem
    // (DivideByZeroException), nor ckfinite or the .ovf forms (OverflowException).
    case Op::Add: case Op::Sub: case Op::Mul: case Op::And: case Op::Or: case Op::Xor:
    case Op::Shl: case Op::Shr: case Op::Shr_Un: case Op::Neg: case Op::Not:
    case Op::Conv_I1: case Op::Conv_I2: case Op::Conv_I4: case Op::Conv_I8: case Op::Conv_U1: case Op::Conv_U2:
    case Op::Conv_U4: case Op::Conv_U8: case Op::Conv_I: case Op::Conv_U: case Op::Conv_R4: case Op::Conv_R8:
    case Op::Conv_R_Un:
    case Op::Ceq: case Op::Cgt: case Op::Cgt_Un: case Op::Clt: case Op::Clt_Un:
      return false;
    default:
      return true;
  }
}

void find_straight_runs(const BodyModel& model, StraightRuns& runs) {
  const std::vector<Instr>& code = model.instrs;
  const size_t n = code.size();
  runs.entries.assign(n, 0);
  if (n == 0) {
    runs.continues.clear();
    return;
  }
  add_entry(runs.entries, 0);  // the method's entry
  for (size_t i = 0; i < n; ++i) {
    const Instr& in = code[i];
    if (i + 1 < n && falls_through(in.op)) add_entry(runs.entries, static_cast<uint32_t>(i + 1));
    Flow flow = op_info(in.op).flow;
    if (flow != Flow::Branch && flow != Flow::CondBranch) continue;
    if (in.op == Op::Switch) {
      for (uint32_t t : in.targets) add_entry(runs.entries, t);
    } else {
      add_entry(runs.entries, in.target);
    }
  }
  for (const EhRegion& r : model.clauses) {
    add_entry(runs.entries, r.handler_start, 2);
    if (r.kind == ClauseKind::Filter) add_entry(runs.entries, r.filter_start, 2);
  }
  runs.continues.assign(n, false);
  runs.continues[0] = runs.entries[0] == 1;
  for (size_t i = 1; i < n; ++i) {
    Op before = code[i - 1].op;
    runs.continues[i] = runs.entries[i] == 1 && falls_through(before) && op_info(before).flow != Flow::CondBranch && !may_throw(before);
  }
}

}  // namespace cil::instrument
