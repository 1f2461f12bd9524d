// CodeBuilder: labels bound to the next instruction, the shortest forms, branches widened only
// when out of reach, regions recorded as clauses (inner first), and misuse as an error value.
#include <gtest/gtest.h>

#include "il/body_encoder.h"
#include "il/code_builder.h"

namespace cil::il {
namespace {

TEST(CodeBuilder, LabelBindsTheNextInstructionEvenWhenUsedBefore) {
  BodyModel body;
  CodeBuilder c(body);
  Label loop = c.new_label(), done = c.new_label();
  c.br(done);
  c.mark(loop);
  c.emit(Op::Nop);
  c.mark(done);
  c.ldc(0);
  c.brtrue(loop);
  c.ret();
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  ASSERT_EQ(code->instrs.size(), 5u);
  EXPECT_EQ(code->instrs[0].target, done.id());
  EXPECT_EQ(code->instrs[2].id, done.id());
  EXPECT_EQ(code->instrs[1].id, loop.id());
  EXPECT_EQ(code->instrs[3].target, loop.id());
  EXPECT_TRUE(code->clauses.empty());
}

TEST(CodeBuilder, TwoLabelsInARowGetANopForTheFirst) {
  BodyModel body;
  CodeBuilder c(body);
  Label a = c.new_label(), b = c.new_label();
  c.mark(a);
  c.mark(b);
  c.ret();
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  ASSERT_EQ(code->instrs.size(), 2u);
  EXPECT_EQ(code->instrs[0].op, Op::Nop);
  EXPECT_EQ(code->instrs[0].id, a.id());
  EXPECT_EQ(code->instrs[1].id, b.id());
}

TEST(CodeBuilder, TypedEmitsChooseTheShortestForm) {
  BodyModel body;
  CodeBuilder c(body);
  c.ldc(-1);
  c.ldc(8);
  c.ldc(9);
  c.ldc(-128);
  c.ldc(128);
  c.ldarg(3);
  c.ldarg(4);
  c.ldarg(256);
  c.ldloc(0);
  c.ldloc(255);
  c.stloc(2);
  c.stloc(1000);
  c.ldloca(7);
  Label l = c.new_label();
  c.mark(l);
  c.br(l);
  c.brtrue(l);
  c.brfalse(l);
  c.leave(l);
  c.branch(Op::Brfalse, l);
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  const Op expected[] = {Op::Ldc_I4_M1, Op::Ldc_I4_8, Op::Ldc_I4_S, Op::Ldc_I4_S, Op::Ldc_I4,  Op::Ldarg_3,
                         Op::Ldarg_S,   Op::Ldarg,    Op::Ldloc_0,  Op::Ldloc_S,  Op::Stloc_2, Op::Stloc,
                         Op::Ldloca_S,  Op::Br_S,     Op::Brtrue_S, Op::Brfalse_S, Op::Leave_S, Op::Brfalse};
  ASSERT_EQ(code->instrs.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(code->instrs[i].op, expected[i]) << "instruction " << i;
  EXPECT_EQ(code->instrs[2].value, 9);
  EXPECT_EQ(code->instrs[4].value, 128);
  EXPECT_EQ(code->instrs[7].value, 256);
}

/// The body's code bytes (after a tiny or fat header).
std::vector<uint8_t> code_bytes(const BodyModel& body) {
  Expected<EncodedBody> encoded = encode_body(body);
  EXPECT_TRUE(encoded) << encoded.error().to_string();
  if (!encoded) return {};
  size_t header = (encoded->bytes[0] & 3) == 2 ? 1 : 12;
  return {encoded->bytes.begin() + static_cast<ptrdiff_t>(header), encoded->bytes.end()};
}

TEST(CodeBuilder, StargChoosesTheShortFormUpTo255) {
  BodyModel body;
  CodeBuilder c(body);
  c.starg(3);
  c.starg(255);
  c.starg(256);
  c.ret();
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  ASSERT_EQ(code->instrs.size(), 4u);
  EXPECT_EQ(code->instrs[0].op, Op::Starg_S);
  EXPECT_EQ(code->instrs[1].op, Op::Starg_S);
  EXPECT_EQ(code->instrs[2].op, Op::Starg);
  EXPECT_EQ(code->instrs[2].value, 256);
  body.instrs = std::move(code->instrs);
  // starg.s 3, starg.s 255, starg 256 (FE 0B and a 2-byte index), ret (III.3.61).
  const std::vector<uint8_t> expected{0x10, 0x03, 0x10, 0xFF, 0xFE, 0x0B, 0x00, 0x01, 0x2A};
  EXPECT_EQ(code_bytes(body), expected);
}

TEST(CodeBuilder, TokenEmitsCarryTheirToken) {
  BodyModel body;
  CodeBuilder c(body);
  c.ldtoken(md::Token(0x04000002));
  c.newarr(md::Token(0x01000003));
  c.ldftn(md::Token(0x06000004));
  c.unbox_any(md::Token(0x01000005));
  c.endfinally();
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  const std::pair<Op, int64_t> expected[] = {{Op::Ldtoken, 0x04000002}, {Op::Newarr, 0x01000003},
                                             {Op::Ldftn, 0x06000004},   {Op::Unbox_Any, 0x01000005},
                                             {Op::Endfinally, 0}};
  ASSERT_EQ(code->instrs.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(code->instrs[i].op, expected[i].first) << "instruction " << i;
    EXPECT_EQ(code->instrs[i].value, expected[i].second) << "instruction " << i;
  }
}

TEST(CodeBuilder, ShortBranchWidenedOnlyWhenOutOfReach) {
  for (size_t nops : {size_t{10}, size_t{200}}) {
    BodyModel body;
    CodeBuilder c(body);
    Label end = c.new_label();
    c.br(end);
    for (size_t i = 0; i < nops; ++i) c.emit(Op::Nop);
    c.mark(end);
    c.ret();
    Expected<Code> code = c.finish();
    ASSERT_TRUE(code) << code.error().to_string();
    body.instrs = std::move(code->instrs);
    std::vector<uint8_t> bytes = code_bytes(body);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(bytes[0], nops < 128 ? 0x2B : 0x38) << nops << " nops";  // br.s, br
    EXPECT_EQ(bytes.size(), nops + 1 + (nops < 128 ? 2 : 5));
  }
}

TEST(CodeBuilder, RegionsNestInnerClauseFirst) {
  BodyModel body;
  CodeBuilder c(body);
  Label end = c.new_label(), inner_done = c.new_label();
  Region outer = c.begin_try();
  c.emit(Op::Nop);  // 0: outer try
  Region inner = c.begin_try();
  c.ldc(1);  // 1: inner try
  c.pop();
  c.leave(inner_done);
  c.begin_catch(inner, md::Token(0x01000005));
  c.pop();  // 4: inner handler
  c.leave(inner_done);
  c.end_region(inner);
  c.mark(inner_done);
  c.leave(end);  // 6
  c.begin_finally(outer);
  c.emit(Op::Endfinally);  // 7: outer handler
  c.end_region(outer);
  c.mark(end);
  c.ret();  // 8
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  const auto& in = code->instrs;
  ASSERT_EQ(in.size(), 9u);
  ASSERT_EQ(code->clauses.size(), 2u);
  const EhRegion& first = code->clauses[0];
  EXPECT_EQ(first.kind, ClauseKind::Catch);
  EXPECT_EQ(first.class_token, md::Token(0x01000005));
  EXPECT_EQ(first.try_start, in[1].id);
  EXPECT_EQ(first.try_end, in[4].id);
  EXPECT_EQ(first.handler_start, in[4].id);
  EXPECT_EQ(first.handler_end, in[6].id);
  EXPECT_EQ(in[6].id, inner_done.id());
  const EhRegion& second = code->clauses[1];
  EXPECT_EQ(second.kind, ClauseKind::Finally);
  EXPECT_EQ(second.try_start, in[0].id);
  EXPECT_EQ(second.try_end, in[7].id);
  EXPECT_EQ(second.handler_start, in[7].id);
  EXPECT_EQ(second.handler_end, in[8].id);
  EXPECT_EQ(in[8].id, end.id());
  // The clauses encode: the encoder accepts them and they survive into the body.
  body.instrs = in;
  body.clauses = code->clauses;
  EXPECT_TRUE(encode_body(body));
}

TEST(CodeBuilder, FilterRegionHasFilterThenHandler) {
  BodyModel body;
  CodeBuilder c(body);
  Label end = c.new_label();
  Region r = c.begin_try();
  c.leave(end);  // 0
  c.begin_filter(r);
  c.pop();  // 1: filter
  c.ldc(0);
  c.emit(Op::Endfilter);
  c.begin_filter_handler(r);
  c.pop();  // 4: handler
  c.leave(end);
  c.end_region(r);
  c.mark(end);
  c.ret();  // 6
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  ASSERT_EQ(code->clauses.size(), 1u);
  const EhRegion& f = code->clauses[0];
  const auto& in = code->instrs;
  EXPECT_EQ(f.kind, ClauseKind::Filter);
  EXPECT_EQ(f.try_start, in[0].id);
  EXPECT_EQ(f.try_end, in[1].id);
  EXPECT_EQ(f.filter_start, in[1].id);
  EXPECT_EQ(f.handler_start, in[4].id);
  EXPECT_EQ(f.handler_end, in[6].id);
}

/// The error finish() reports for what `misuse` does to a fresh builder.
template <typename F>
std::string misuse_error(F misuse) {
  BodyModel body;
  CodeBuilder c(body);
  misuse(c);
  Expected<Code> code = c.finish();
  if (code) return "no error";
  EXPECT_EQ(code.error().structure, "code builder");
  return code.error().message;
}

TEST(CodeBuilder, MisuseIsAnErrorValue) {
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Label l = c.new_label();
              c.br(l);
              c.ret();
            }),
            "label " + std::to_string(0) + " used but never marked");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Label l = c.new_label();
              c.mark(l);
              c.ret();
              c.mark(l);
              c.ret();
            }),
            "label 0 marked twice");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Label l = c.new_label();
              c.ret();
              c.mark(l);
            }),
            "label 0 marked with no instruction after it");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              c.begin_try();
              c.ret();
            }),
            "region 0 not closed");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Region r = c.begin_try();
              c.ret();
              c.end_region(r);
            }),
            "end in region 0 still in its try block");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Region r = c.begin_try();
              c.ret();
              c.begin_finally(r);
              c.emit(Op::Endfinally);
              c.begin_catch(r, md::Token());
            }),
            "catch in region 0 already in its handler");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Region outer = c.begin_try();
              c.emit(Op::Nop);
              c.begin_try();
              c.emit(Op::Nop);
              c.begin_fault(outer);
            }),
            "fault in region 0 while an inner region is open");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              Region r = c.begin_try();
              c.emit(Op::Nop);
              c.begin_finally(r);
              c.emit(Op::Endfinally);
              c.end_region(r);
            }),
            "region 0 ends with no instruction after it");
  EXPECT_EQ(misuse_error([](CodeBuilder& c) {
              c.begin_catch(Region(), md::Token());
              c.ret();
            }),
            "catch for a region this builder did not begin");
}

TEST(CodeBuilder, FinishStartsAfreshAfterAnError) {
  BodyModel body;
  CodeBuilder c(body);
  c.begin_try();
  c.ret();
  EXPECT_FALSE(c.finish());
  c.ret();
  Expected<Code> code = c.finish();
  ASSERT_TRUE(code) << code.error().to_string();
  EXPECT_EQ(code->instrs.size(), 1u);
}

}  // namespace
}  // namespace cil::il
