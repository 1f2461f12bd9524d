// Trace mode's wrapper on a hand-built body (TraceApp's `static int Main()`, with TraceHooks'
// OnEnter, OnLeave and OnException): its clauses, its labels, the short forms and the max stack.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "il/code_builder.h"
#include "instrument/hook_contract.h"
#include "il/max_stack.h"
#include "il/rewrite.h"
#include "instrument/trace_mode.h"
#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "metadata/runtime_refs.h"

namespace cil::instrument {
namespace {

using md::TableId;

std::unique_ptr<md::Module> load(const std::string& name) {
  auto loaded = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/trace/" + name);
  EXPECT_TRUE(loaded) << loaded.error().to_string();
  return loaded ? std::move(*loaded) : nullptr;
}

uint32_t method_rid(const md::Module& m, std::string_view name) {
  for (uint32_t rid = 1; rid <= m.tables().rows(TableId::MethodDef); ++rid)
    if (m.row<TableId::MethodDef>(rid).name() == name) return rid;
  return 0;
}

bool is_branch(Op op) {
  switch (op) {
    case Op::Br: case Op::Br_S: case Op::Brtrue: case Op::Brtrue_S: case Op::Brfalse: case Op::Brfalse_S:
    case Op::Leave: case Op::Leave_S:
      return true;
    default:
      return false;
  }
}

TEST(TraceEmit, WrapperShapeOnAHandBuiltBody) {
  auto app = load("TraceApp.dll"), hooks = load("TraceHooks.dll");
  ASSERT_TRUE(app && hooks);
  Expected<HookContract> contract = read_hook_contract(*hooks, std::nullopt);
  ASSERT_TRUE(contract) << contract.error().to_string();
  md::ModuleEditor editor(*app);
  Expected<md::RuntimeRefs> refs = md::RuntimeRefs::create(editor);
  ASSERT_TRUE(refs) << refs.error().to_string();
  Expected<TraceMode> mode = TraceMode::begin(editor, *refs, *contract);
  ASSERT_TRUE(mode) << mode.error().to_string();
  uint32_t rid = method_rid(*app, "Main");
  ASSERT_NE(rid, 0u);

  BodyModel body;
  CodeBuilder c(body);
  c.ldc(42);
  c.ret();
  body.instrs = c.take();
  uint32_t original_ret = body.instrs[1].id;
  Status done = mode->instrument(md::MethodDefId(rid), "Trace.Program::Main", body);
  ASSERT_TRUE(done) << done.error().to_string();

  // Clauses: the guards around OnEnter and OnLeave (catch Exception), inside the wrap's filter
  // (OnException) and finally (OnLeave), inner ones first.
  ASSERT_EQ(body.clauses.size(), 4u);
  EXPECT_EQ(body.clauses[0].kind, ClauseKind::Catch);
  EXPECT_EQ(body.clauses[1].kind, ClauseKind::Catch);
  EXPECT_EQ(body.clauses[2].kind, ClauseKind::Filter);
  EXPECT_EQ(body.clauses[3].kind, ClauseKind::Finally);
  EXPECT_TRUE(body.clauses[0].class_token);
  EXPECT_EQ(body.clauses[0].class_token, body.clauses[1].class_token);

  // Every label names an instruction of the body (or its end), and each guard's try block and
  // handler are in order.
  std::vector<uint32_t> at = body.positions();
  auto position = [&](uint32_t id) -> size_t {
    if (id == kEndLabel) return body.instrs.size();
    EXPECT_LT(id, at.size());
    EXPECT_NE(at[id], kNoLabel) << "label " << id;
    return id < at.size() ? at[id] : SIZE_MAX;
  };
  for (const Instr& in : body.instrs)
    if (in.target != kNoLabel) position(in.target);
  for (const EhRegion& r : body.clauses) {
    EXPECT_LT(position(r.try_start), position(r.try_end));
    EXPECT_LE(position(r.try_end), position(r.handler_start));
    EXPECT_LT(position(r.handler_start), position(r.handler_end));
  }
  // The OnEnter guard sits before the wrap's region; the OnLeave guard inside the finally.
  EXPECT_LT(position(body.clauses[0].handler_end), position(body.clauses[3].try_start));
  EXPECT_GE(position(body.clauses[1].try_start), position(body.clauses[3].handler_start));
  EXPECT_LE(position(body.clauses[1].handler_end), position(body.clauses[3].handler_end));

  // The original ret is gone from the region: the method returns once, after the handlers.
  EXPECT_EQ(std::count_if(body.instrs.begin(), body.instrs.end(), [](const Instr& in) { return in.op == Op::Ret; }), 1);
  EXPECT_EQ(body.instrs.back().op, Op::Ret);
  EXPECT_NE(body.instrs.back().id, original_ret);
  // Short forms: every branch the wrapper writes is short (the encoder widens if need be).
  for (const Instr& in : body.instrs) {
    if (is_branch(in.op)) {
      EXPECT_TRUE(in.op == Op::Br_S || in.op == Op::Brtrue_S || in.op == Op::Brfalse_S || in.op == Op::Leave_S)
          << "instruction " << &in - body.instrs.data();
    }
  }

  CallEffects effects(editor);
  Expected<uint16_t> max_stack = compute_max_stack(body, true, effects);
  ASSERT_TRUE(max_stack) << max_stack.error().to_string();
  // OnLeave's five arguments (Main has no parameters, so its args array is only made).
  EXPECT_EQ(*max_stack, 5);
  body.max_stack = *max_stack;
  Expected<EncodedBody> encoded = rewrite_body(std::move(body), {});
  ASSERT_TRUE(encoded) << encoded.error().to_string();
}

}  // namespace
}  // namespace cil::instrument
