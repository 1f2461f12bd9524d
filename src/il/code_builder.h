// The one assembler for code the tool writes itself (probes, hook calls, helper methods), in the
// style of SRM's InstructionEncoder/ControlFlowBuilder and Cecil's ILProcessor: labels as a type,
// typed emits that pick the shortest form, and protected regions the builder records as clauses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "il/body_model.h"
#include "support/error.h"

namespace cil::il {

/// A place in the code: an instruction id (BodyModel ids double as labels). Made by
/// CodeBuilder::new_label() and bound by mark(), or naming an instruction that already exists.
class Label {
 public:
  Label() = default;
  /// The instruction with id `id` (one of the body's own, or kEndLabel), bound already.
  static Label at(uint32_t id) { return Label(id); }
  uint32_t id() const { return id_; }
  bool valid() const { return id_ != kNoLabel; }
  friend bool operator==(Label, Label) = default;

 private:
  explicit Label(uint32_t id) : id_(id) {}
  uint32_t id_ = kNoLabel;
};

/// A protected region being built; see CodeBuilder::begin_try().
class Region {
 public:
  Region() = default;

 private:
  friend class CodeBuilder;
  explicit Region(size_t index) : index_(index) {}
  size_t index_ = SIZE_MAX;
};

/// What a builder made: the instructions, and the clauses of its regions, inner ones first (II.19).
struct Code {
  std::vector<Instr> instrs;
  std::vector<EhRegion> clauses;
};

class CodeBuilder {
 public:
  explicit CodeBuilder(BodyModel& body) : body_(body) {}

  /// A label to branch to before its instruction exists; mark() binds it to the next emit.
  Label new_label();
  /// Binds `label` to the next instruction emitted (a second mark before it emits a nop).
  void mark(Label label);

  // Typed emits; each picks the shortest encoding of its operand.
  void emit(Op op, int64_t value = 0) { push(body_.make(op, value)); }
  /// A token operand (ldobj, initobj, ...): its raw value goes into the instruction.
  void emit(Op op, md::Token token) { emit(op, int64_t{token.value()}); }
  void ldc(int32_t value) { push(body_.ldc_i4(value)); }
  void ldarg(uint32_t index) { push(body_.ldarg(index)); }
  void ldarga(uint32_t index) { push(body_.ldarga(index)); }
  void ldloc(uint32_t index) { push(body_.ldloc(index)); }
  void stloc(uint32_t index) { push(body_.stloc(index)); }
  void ldloca(uint32_t index) { push(body_.ldloca(index)); }
  /// starg.s for the first 256 arguments, starg beyond (III.3.61).
  void starg(uint32_t index) { emit(index <= 0xFF ? Op::Starg_S : Op::Starg, index); }
  void ldnull() { emit(Op::Ldnull); }
  void ldstr(md::Token string_token) { emit(Op::Ldstr, string_token.value()); }
  void call(md::Token method) { emit(Op::Call, method.value()); }
  void callvirt(md::Token method) { emit(Op::Callvirt, method.value()); }
  void newobj(md::Token ctor) { emit(Op::Newobj, ctor.value()); }
  void ldsfld(md::Token field) { emit(Op::Ldsfld, field.value()); }
  void stsfld(md::Token field) { emit(Op::Stsfld, field.value()); }
  void box(md::Token type) { emit(Op::Box, type.value()); }
  void unbox_any(md::Token type) { emit(Op::Unbox_Any, type.value()); }
  void newarr(md::Token element_type) { emit(Op::Newarr, element_type.value()); }
  void ldtoken(md::Token token) { emit(Op::Ldtoken, token.value()); }
  void ldftn(md::Token method) { emit(Op::Ldftn, method.value()); }
  void endfinally() { emit(Op::Endfinally); }
  void pop() { emit(Op::Pop); }
  void dup() { emit(Op::Dup); }
  void ret() { emit(Op::Ret); }

  // Branches in their short form; the encoder widens one whose target is out of reach.
  void br(Label target) { branch(Op::Br_S, target); }
  void brtrue(Label target) { branch(Op::Brtrue_S, target); }
  void brfalse(Label target) { branch(Op::Brfalse_S, target); }
  void leave(Label target) { branch(Op::Leave_S, target); }
  /// Any branch in the form given (a long form stays long).
  void branch(Op op, Label target);

  /// Opens a protected region at the next instruction emitted. Then begin_catch(),
  /// begin_finally() or begin_fault() (or begin_filter() and begin_filter_handler()) start its
  /// handler at the next instruction, and end_region() ends the handler there. Regions nest:
  /// end_region() closes the innermost one open.
  Region begin_try();
  void begin_catch(Region region, md::Token class_token);
  void begin_finally(Region region);
  void begin_fault(Region region);
  void begin_filter(Region region);
  void begin_filter_handler(Region region);
  void end_region(Region region);

  /// How many instructions have been emitted since the last finish().
  size_t size() const { return code_.size(); }

  /// The code emitted so far and its clauses (and forgets them). Fails on misuse: a label
  /// marked twice or used but never marked, a region not closed, closed out of order or with no
  /// instruction after it, a handler begun in the wrong state.
  Expected<Code> finish();
  /// The instructions of code with no labels left pending and no regions (helper methods that
  /// need no checks); see finish() for code that may be wrong.
  std::vector<Instr> take();

 private:
  enum class Stage { Try, Filter, FilterHandler, Handler, Closed };
  struct OpenRegion {
    EhRegion clause;
    Stage stage = Stage::Try;
  };

  void push(Instr in);
  using Boundary = uint32_t EhRegion::*;
  /// The instruction emitted next will start (or, for an end, follow) this boundary.
  void at_next(size_t region, Boundary boundary) { waiting_.push_back({region, boundary}); }
  OpenRegion* region_in(Region region, Stage expected, const char* what);
  void fail(std::string message);

  BodyModel& body_;
  std::vector<Instr> code_;
  Label pending_;
  /// Labels made here, and whether each is bound (new_label ids are the body's fresh ids).
  std::vector<uint32_t> made_, bound_;
  /// Every region begun, and the ones still open, innermost last.
  std::vector<OpenRegion> regions_;
  std::vector<size_t> open_;
  std::vector<size_t> closed_;  ///< in the order closed: inner regions first
  std::vector<std::pair<size_t, Boundary>> waiting_;
  std::optional<Error> error_;  ///< the first misuse, reported by finish()
};

}  // namespace cil::il
