// A small assembler over BodyModel for code the tool writes itself (probes, helper methods):
// forward labels, shortest instruction forms, and encoding with a computed max stack.
#pragma once

#include <vector>

#include "il/body_model.h"

namespace cil::il {

class CodeBuilder {
 public:
  explicit CodeBuilder(BodyModel& body) : body_(body) {}

  /// A label to branch to before its instruction exists; mark() binds it to the next emit.
  uint32_t new_label() { return body_.reserve_label(); }
  /// Binds `label` to the next instruction emitted (a second mark before it emits a nop).
  void mark(uint32_t label) {
    if (pending_ != kNoLabel) emit(Op::Nop);
    pending_ = label;
  }

  void emit(Op op, int64_t value = 0) { push(body_.make(op, value)); }
  void branch(Op op, uint32_t label) { push(body_.make_branch(op, label)); }
  void ldc_i4(int32_t value) { push(body_.ldc_i4(value)); }
  void ldloc(uint32_t index) { push(body_.ldloc(index)); }
  void stloc(uint32_t index) { push(body_.stloc(index)); }
  void ldloca(uint32_t index) { push(body_.ldloca(index)); }
  void ldarg(uint32_t index) { push(body_.ldarg(index)); }

  /// The instructions emitted so far (and forgets them).
  std::vector<Instr> take() {
    std::vector<Instr> out = std::move(code_);
    code_.clear();
    return out;
  }

 private:
  void push(Instr in) {
    if (pending_ != kNoLabel) {
      in.id = pending_;
      pending_ = kNoLabel;
    }
    code_.push_back(std::move(in));
  }

  BodyModel& body_;
  std::vector<Instr> code_;
  uint32_t pending_ = kNoLabel;
};

}  // namespace cil::il
