// Worklist simulation of stack depths over the instruction graph.
#include "il/max_stack.h"

#include <fmt/format.h>

#include "metadata/signature.h"

namespace cil::il {

namespace {

Error stack_error(std::string message) { return make_error(ErrorKind::Format, "method body", std::move(message)); }

}  // namespace

Expected<CallEffect> CallEffects::effect(Op op, md::Token token) {
  auto it = cache_.find(token);
  if (it == cache_.end()) {
    std::vector<uint8_t> blob = CIL_TRY(sink_.signature_of(token));
    auto sig = md::decode_method_sig(ByteReader(blob, 0, "call signature"));
    if (!sig)
      return stack_error(fmt::format("signature of 0x{:08X}: {}", token, sig.error().message));
    Shape shape;
    shape.params = static_cast<int>(sig->params.size());
    shape.has_this = sig->has_this() && !sig->explicit_this();
    shape.returns_value = sig->return_type.element != md::ElementType::Void;
    it = cache_.emplace(token, shape).first;
  }
  const Shape& s = it->second;
  CallEffect e;
  switch (op) {
    case Op::Newobj:
      e.pops = s.params;
      e.pushes = 1;
      break;
    case Op::Calli:
      e.pops = s.params + (s.has_this ? 1 : 0) + 1;  // the function pointer
      e.pushes = s.returns_value ? 1 : 0;
      break;
    case Op::Jmp:
      break;
    default:
      e.pops = s.params + (s.has_this ? 1 : 0);
      e.pushes = s.returns_value ? 1 : 0;
      break;
  }
  return e;
}

Expected<uint16_t> compute_max_stack(const BodyModel& body, bool returns_value, CallEffects& effects) {
  const auto& instrs = body.instrs;
  std::vector<uint32_t> index = body.positions();

  constexpr int kUnknown = -1;
  constexpr int kMaxDepth = 0xFFFF;
  std::vector<int> depth(instrs.size(), kUnknown);
  std::vector<size_t> work;
  int max_depth = 0;

  auto reach = [&](uint32_t label, int d) -> Status {
    if (label == kEndLabel) return ok();  // falling off the end: nothing more to simulate
    if (label >= index.size() || index[label] == kNoLabel)
      return stack_error(fmt::format("branch to a missing instruction (label {})", label));
    int& slot = depth[index[label]];
    if (slot == kUnknown || d > slot) {
      // A merge with a different depth is invalid IL; keep the deeper one so the bound is safe.
      if (d > kMaxDepth) return stack_error("stack depth grows without bound");
      slot = d;
      work.push_back(index[label]);
    }
    return ok();
  };

  if (!instrs.empty()) CIL_TRY(reach(instrs[0].id, 0));
  for (const auto& c : body.clauses) {
    int entry = (c.kind == ClauseKind::Catch || c.kind == ClauseKind::Filter) ? 1 : 0;
    CIL_TRY(reach(c.handler_start, entry));
    if (c.kind == ClauseKind::Filter) CIL_TRY(reach(c.filter_start, 1));
    max_depth = std::max(max_depth, entry);
  }

  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    const Instr& in = instrs[i];
    const OpInfo& info = op_info(in.op);
    int d = depth[i];
    int pops = info.pops, pushes = info.pushes;
    if (info.flow == Flow::Call || in.op == Op::Jmp) {
      CallEffect e = CIL_TRY(effects.effect(in.op, static_cast<md::Token>(in.value)));
      pops = e.pops;
      pushes = e.pushes;
    } else if (in.op == Op::Ret) {
      pops = returns_value ? 1 : 0;
    }
    if (pops > d)
      return stack_error(fmt::format("stack underflow at instruction {} ({}): depth {}, pops {}", i, info.name, d, pops));
    int after = d - pops + pushes;
    max_depth = std::max(max_depth, after);

    switch (info.flow) {
      case Flow::Return:
      case Flow::Throw:
        break;
      case Flow::Branch:
        // leave empties the stack (III.3.46); br keeps it.
        CIL_TRY(reach(in.target, (in.op == Op::Leave || in.op == Op::Leave_S) ? 0 : after));
        break;
      case Flow::CondBranch:
        if (in.op == Op::Switch) {
          for (uint32_t t : in.targets) CIL_TRY(reach(t, after));
        } else {
          CIL_TRY(reach(in.target, after));
        }
        if (i + 1 < instrs.size()) CIL_TRY(reach(instrs[i + 1].id, after));
        break;
      default:
        if (i + 1 < instrs.size()) CIL_TRY(reach(instrs[i + 1].id, after));
        break;
    }
  }
  return static_cast<uint16_t>(max_depth);
}

}  // namespace cil::il
