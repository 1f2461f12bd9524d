// Where coverage puts its probes (CoveragePlan::place), on hand-built bodies whose sequence points
// are written into a copy of the Coverage fixture's PDB: every visible sequence point and every
// outcome of each branch described, by as few probes as keep each exact (a straight run shares
// one, an outcome whose target has one way in is counted at its target), none under hidden
// points except for a switch before the first visible one, and none on the compiler's own tests
// (state dispatch, await, delegate cache, a finally no source shows).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "instrument/coverage_mode.h"
#include "instrument/runtime_contract.h"
#include "metadata/module.h"
#include "metadata/pdb_writer.h"
#include "metadata/portable_pdb.h"
#include "metadata/rows.h"
#include "support/file_io.h"

namespace cil::instrument {
namespace {

using md::TableId;

std::string coverage_fixture(const std::string& name) { return std::string(CIL_TESTDATA_DIR) + "/bin/debug/" + name; }

/// One instruction of a hand-built body: `target` is the index of the instruction a branch goes
/// to, `targets` a switch's; `line` the sequence point that starts here (0: none, kHidden).
struct Step {
  Op op;
  int64_t value = 0;
  int target = -1;
  std::vector<uint32_t> targets = {};
  uint32_t line = 0;
};
constexpr uint32_t kHidden = md::kHiddenLine;
constexpr int64_t kProbeMark = 1'000'000;

uint32_t step_operand_size(const Step& s) {
  switch (op_info(s.op).operand) {
    case Operand::None: return 0;
    case Operand::ShortI: case Operand::ShortU: case Operand::ShortBr: case Operand::ShortVar: return 1;
    case Operand::Var: return 2;
    case Operand::I8: case Operand::R: return 8;
    case Operand::Switch: return 4 + 4 * static_cast<uint32_t>(s.targets.size());
    default: return 4;
  }
}

class CoveragePlacement : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = md::Module::load(coverage_fixture("Coverage.dll"));
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    module_ = std::move(*loaded);
    auto bytes = cil::read_file(coverage_fixture("Coverage.pdb"));
    ASSERT_TRUE(bytes);
    auto parsed = md::PortablePdb::parse(std::move(*bytes));
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    pdb_ = std::move(*parsed);
  }

  /// The MethodDef named `name` whose type's name starts with `type_prefix`.
  uint32_t method(std::string_view name, std::string_view type_prefix = "Cov") const {
    const md::Module& m = *module_;
    for (uint32_t rid = 1; rid <= m.tables().rows(TableId::MethodDef); ++rid)
      if (m.row<TableId::MethodDef>(rid).name() == name &&
          m.row(m.method_owner(md::MethodDefId(rid))).type_name().starts_with(type_prefix))
        return rid;
    ADD_FAILURE() << "no method " << name;
    return 0;
  }

  /// A Field token whose name starts with `prefix`, or a MemberRef token named `name`.
  md::Token field(std::string_view prefix) const {
    for (uint32_t rid = 1; rid <= module_->tables().rows(TableId::Field); ++rid)
      if (module_->row<TableId::Field>(rid).name().starts_with(prefix)) return md::make_token(TableId::Field, rid);
    ADD_FAILURE() << "no field " << prefix;
    return md::Token();
  }
  md::Token member_ref(std::string_view name) const {
    for (uint32_t rid = 1; rid <= module_->tables().rows(TableId::MemberRef); ++rid)
      if (module_->row<TableId::MemberRef>(rid).name() == name) return md::make_token(TableId::MemberRef, rid);
    ADD_FAILURE() << "no member " << name;
    return md::Token();
  }

  /// Places the probes in `steps` as the body of MethodDef `rid`, with the steps' sequence points
  /// written into the PDB, and returns the code as text: `#i` the original instruction i, `M` the
  /// method probe, `L<line>` a line probe, `B<line>/<path>` a branch outcome's probe, `br` a branch
  /// the plan added; `->X` after a branch names what its (first) target starts with.
  std::string place(uint32_t rid, const std::vector<Step>& steps, std::vector<EhRegion> clauses = {}) {
    md::PdbEditor editor(*pdb_);
    uint32_t row_document = editor.cell(TableId::MethodDebugInformation, rid, md::col::MethodDebugInformation::Document);
    uint32_t document = row_document ? row_document : 1;
    BodyModel model;
    uint32_t offset = 0;
    md::MethodSequencePoints points;
    for (const Step& s : steps) {
      model.original.boundaries.push_back(offset);
      if (s.line == kHidden) points.points.push_back(md::SequencePoint::make_hidden(offset, document));
      else if (s.line) points.points.push_back({offset, document, s.line, s.line, 5, 9});
      offset += op_info(s.op).opcode_size() + step_operand_size(s);
      Instr in = s.target >= 0 ? model.make_branch(s.op, static_cast<uint32_t>(s.target)) : model.make(s.op, s.value);
      in.targets = s.targets;
      model.instrs.push_back(std::move(in));
    }
    model.original.boundaries.push_back(offset);
    model.clauses = std::move(clauses);

    auto blob = md::encode_sequence_points(points, row_document);
    EXPECT_TRUE(blob) << blob.error().to_string();
    if (!blob) return {};
    editor.set_sequence_points(rid, *blob);
    auto written = editor.write();
    EXPECT_TRUE(written) << written.error().to_string();
    if (!written) return {};
    auto pdb = md::PortablePdb::parse(written->bytes());
    EXPECT_TRUE(pdb) << pdb.error().to_string();
    if (!pdb) return {};

    CoveragePlan plan(*module_, pdb->get(), {});
    // Each probe is one nop that carries its number (a block's probe takes the block's id, so
    // the id cannot name it).
    std::vector<std::string> probes;
    Status placed = plan.place(md::MethodDefId(rid), md::MethodDefId(rid), "M", model, 2, [&](BodyModel& body, std::string_view description, std::vector<Instr>& probe) {
      probe.assign(1, body.make(Op::Nop, kProbeMark + static_cast<int64_t>(probes.size())));
      probes.push_back(probe_text(description));
    });
    EXPECT_TRUE(placed) << placed.error().to_string();
    std::map<uint32_t, std::string> names;
    for (const Instr& in : model.instrs) {
      if (in.op == Op::Nop && in.value >= kProbeMark) names[in.id] = probes.at(static_cast<size_t>(in.value - kProbeMark));
      else names[in.id] = in.id < steps.size() ? "#" + std::to_string(in.id) : "br";
    }
    std::string out;
    for (const Instr& in : model.instrs) {
      out += (out.empty() ? "" : " ") + names[in.id];
      uint32_t target = in.op == Op::Switch ? in.targets.front() : in.target;
      if (target != kNoLabel) out += "->" + names[target];
    }
    return out;
  }

  /// "L12" for a line entry, "B13/1" for a branch outcome's, "M" for the method's; a probe that
  /// describes several joins them with '+' ("M+L12").
  static std::string probe_text(std::string_view description) {
    std::string out;
    while (true) {
      size_t cut = description.find(contract::kHitsEntrySeparator);
      out += entry_text(description.substr(0, cut));
      if (cut == std::string_view::npos) return out;
      out += '+';
      description.remove_prefix(cut + 1);
    }
  }
  static std::string entry_text(std::string_view entry) {
    std::vector<std::string> fields(1);
    for (char ch : entry) {
      if (ch == contract::kHitsSeparator) fields.emplace_back();
      else fields.back() += ch;
    }
    if (fields[0][0] == contract::kHitsLine) return "L" + fields[1];
    if (fields[0][0] == contract::kHitsBranch) return "B" + fields[1] + "/" + fields[3];
    return fields[0];
  }

  std::unique_ptr<md::Module> module_;
  std::unique_ptr<md::PortablePdb> pdb_;
};

TEST_F(CoveragePlacement, OutcomesCountedAtTargetsWithOneWayIn) {
  // if (x > 0) return 1; else return -1;
  std::string placed = place(method("IfElse"), {
      {Op::Nop, 0, -1, {}, 12},
      {Op::Ldarg_0, 0, -1, {}, 13},
      {Op::Ldc_I4_0},
      {Op::Ble_S, 0, 6},
      {Op::Ldc_I4_1, 0, -1, {}, 14},
      {Op::Ret},
      {Op::Ldc_I4_M1, 0, -1, {}, 16},
      {Op::Ret},
  });
  // The method's entry reaches lines 12 and 13 (nop, then nothing that may throw); each outcome's
  // target has no other way in, so its line's probe counts the outcome too.
  EXPECT_EQ(placed, "M+L12+L13 #0 #1 #2 #3->B13/1+L16 B13/0+L14 #4 #5 B13/1+L16 #6 #7");
}

TEST_F(CoveragePlacement, HiddenPointsGetNoProbe) {
  // A branch under a hidden point belongs to the last visible point before it.
  std::string placed = place(method("Loop"), {
      {Op::Nop, 0, -1, {}, 19},
      {Op::Ldc_I4_0, 0, -1, {}, kHidden},
      {Op::Stloc_0},
      {Op::Ldloc_0, 0, -1, {}, kHidden},
      {Op::Brtrue_S, 0, 6},
      {Op::Ldc_I4_2, 0, -1, {}, 23},
      {Op::Ret, 0, -1, {}, kHidden},
  });
  // The target (#6) is also the fall-through of #5: that outcome keeps a probe on its edge.
  EXPECT_EQ(placed, "M+L19 #0 #1 #2 #3 #4->B19/1 br->B19/0+L23 B19/1 br->#6 B19/0+L23 #5 #6");
}

TEST_F(CoveragePlacement, SwitchBeforeTheFirstVisiblePointTakesTheNextVisibleLine) {
  // An optimized build's switch on a parameter, under the method's opening hidden point.
  std::string placed = place(method("Switch"), {
      {Op::Ldarg_0, 0, -1, {}, kHidden},
      {Op::Switch, 0, -1, {3, 5}},
      {Op::Br_S, 0, 7},
      {Op::Ldc_I4_0, 0, -1, {}, 28},
      {Op::Ret},
      {Op::Ldc_I4_1, 0, -1, {}, 29},
      {Op::Ret},
      {Op::Ldc_I4_2, 0, -1, {}, 31},
      {Op::Ret},
  });
  EXPECT_EQ(placed, "M #0 #1->B28/1+L28 B28/0 #2->L31 B28/1+L28 #3 #4 B28/2+L29 #5 #6 L31 #7 #8");
  // With no visible point after it, a branch before any has no line to be reported on.
  EXPECT_EQ(place(method("Never"), {{Op::Ldarg_0, 0, -1, {}, kHidden}, {Op::Brtrue_S, 0, 3}, {Op::Nop}, {Op::Ret}}),
            "M #0 #1->#3 #2 #3");
}

TEST_F(CoveragePlacement, DelegateCacheAndBreakpointPlaceTestsAreTheCompilers) {
  md::Token cache = field("<>9__");
  std::string placed = place(method("Lambdas"), {
      {Op::Ldsfld, cache.value(), -1, {}, 70},
      {Op::Dup},
      {Op::Brtrue_S, 0, 4},
      {Op::Pop},
      {Op::Ldc_I4_1, 0, -1, {}, 71},
      {Op::Brtrue_S, 0, 6},
      {Op::Ldarg_0, 0, -1, {}, 72},
      {Op::Brfalse_S, 0, 8},
      {Op::Ret},
  });
  // Only the last test is the source's.
  EXPECT_EQ(placed, "M+L70 #0 #1 #2->L71 #3 L71 #4 #5->L72 L72 #6 #7->B72/1 B72/0 br->#8 B72/1 br->#8 #8");
}

TEST_F(CoveragePlacement, StateDispatchAndAwaitTestsAreTheCompilers) {
  // Async's MoveNext (a StateMachineMethod row of the PDB): `ldarg.0; ldfld <>1__state; stloc.0`,
  // then tests of local 0 (the dispatch) and of an awaiter's IsCompleted (whether to suspend).
  md::Token state = field("<>1__state");
  md::Token is_completed = member_ref("get_IsCompleted");
  std::string placed = place(method("MoveNext", "<Async>"), {
      {Op::Ldarg_0, 0, -1, {}, kHidden},
      {Op::Ldfld, state.value()},
      {Op::Stloc_0},
      {Op::Ldloc_0},
      {Op::Brfalse_S, 0, 9},
      {Op::Ldloca_S, 2, -1, {}, 60},
      {Op::Call, is_completed.value()},
      {Op::Brtrue_S, 0, 9},
      {Op::Ret},
      {Op::Ldloc_1, 0, -1, {}, 61},
      {Op::Brtrue_S, 0, 11},
      {Op::Ret},
  });
  // Only the test of local 1 is the source's.
  EXPECT_EQ(placed, "M #0 #1 #2 #3 #4->L61 L60 #5 #6 #7->L61 #8 L61 #9 #10->B61/1 B61/0 br->#11 B61/1 br->#11 #11");
}

TEST_F(CoveragePlacement, TestsInAFinallyNoSourceShowsAreTheCompilers) {
  // try { } finally { if (e != null) e.Dispose(); }: a foreach's finally starts under a hidden
  // point; the same finally with a visible point where it starts is the source's.
  auto body = [](uint32_t finally_line) {
    return std::vector<Step>{
        {Op::Nop, 0, -1, {}, 40},
        {Op::Leave_S, 0, 7},
        {Op::Ldloc_0, 0, -1, {}, finally_line},
        {Op::Brfalse_S, 0, 6},
        {Op::Ldloc_0},
        {Op::Callvirt, 0x0A000001},
        {Op::Endfinally},
        {Op::Ret, 0, -1, {}, 41},
    };
  };
  EhRegion finally;
  finally.kind = ClauseKind::Finally;
  finally.try_start = 0;
  finally.try_end = 2;
  finally.handler_start = 2;
  finally.handler_end = 7;
  uint32_t rid = method("Main");
  EXPECT_EQ(place(rid, body(kHidden), {finally}), "M+L40 #0 #1->L41 #2 #3->#6 #4 #5 #6 L41 #7");
  // The handler's start is entered by the runtime: a probe of its own, never the try's.
  EXPECT_EQ(place(rid, body(42), {finally}),
            "M+L40 #0 #1->L41 L42 #2 #3->B42/1 br->B42/0 B42/1 br->#6 B42/0 #4 #5 #6 L41 #7");
}

TEST_F(CoveragePlacement, AStraightRunSharesItsProbeUntilAnInstructionThatMayThrow) {
  // { int x = 1; Call(x); return 2; }: after the call, line 13 may not run though 12 did.
  std::string placed = place(method("IfElse"), {
      {Op::Nop, 0, -1, {}, 10},
      {Op::Ldc_I4_1, 0, -1, {}, 11},
      {Op::Stloc_0},
      {Op::Ldloc_0, 0, -1, {}, 12},
      {Op::Call, 0x0A000001},
      {Op::Pop},
      {Op::Ldc_I4_2, 0, -1, {}, 13},
      {Op::Ret},
  });
  EXPECT_EQ(placed, "M+L10+L11+L12 #0 #1 #2 #3 #4 #5 L13 #6 #7");
}

TEST_F(CoveragePlacement, ALoopTestReachedTwoWaysKeepsItsOwnProbe) {
  // A Debug build's while loop: br to the test; the body; the test, brtrue back to the body.
  std::string placed = place(method("Loop"), {
      {Op::Nop, 0, -1, {}, 20},
      {Op::Br_S, 0, 4},
      {Op::Nop, 0, -1, {}, 21},
      {Op::Nop},
      {Op::Ldarg_0, 0, -1, {}, 22},
      {Op::Brtrue_S, 0, 2},
      {Op::Ret, 0, -1, {}, 23},
  });
  // The body and the exit each have one way in, an outcome of the test: they count it. The test
  // (entered from the br and from the body) has a probe of its own.
  EXPECT_EQ(placed, "M+L20 #0 #1->L22 B22/1+L21 #2 #3 L22 #4 #5->B22/1+L21 B22/0+L23 #6");
}

TEST_F(CoveragePlacement, SwitchCasesOnOneTargetEachKeepAProbe) {
  std::string placed = place(method("Switch"), {
      {Op::Ldarg_0, 0, -1, {}, 27},
      {Op::Switch, 0, -1, {3, 3}},
      {Op::Ret},
      {Op::Ldc_I4_0, 0, -1, {}, 28},
      {Op::Ret},
  });
  // Both cases enter line 28: each its own probe. The fall-through, alone into #2, is counted there.
  EXPECT_EQ(placed, "M+L27 #0 #1->B27/1 br->B27/0 B27/1 br->L28 B27/2 br->L28 B27/0 #2 L28 #3 #4");
}

}  // namespace
}  // namespace cil::instrument
