// The rewrite engine on hand-built bodies: branch widening cascades, EH remapping, the offset map
// (entry code, wrap, widened branches, switch), max stack, the clause order after existing
// filters, the tiny/fat header and small/fat EH section choices, and the two paths of
// rewrite_body (the entry splice and the model) giving the same bytes, maps and errors.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/max_stack.h"
#include "il/method_body.h"
#include "il/offset_map.h"
#include "il/rewrite.h"
#include "il/rewriter.h"
#include "metadata/metadata_sink.h"
#include "support/le_bytes.h"

namespace cil::il {
namespace {

// Opcode bytes (III), so the inputs are written without the engine's own writer.
enum : uint8_t {
  kNop = 0x00, kLdarg0 = 0x02, kLdloc0 = 0x06, kStloc0 = 0x0A, kLdnull = 0x14, kLdcI4_0 = 0x16, kLdcI4_1 = 0x17,
  kLdcI4_2 = 0x18, kPop = 0x26, kRet = 0x2A, kBrS = 0x2B, kBrtrueS = 0x2D, kBr = 0x38, kSwitch = 0x45, kAdd = 0x58,
  kThrow = 0x7A, kEndfinally = 0xDC, kLeaveS = 0xDE,
};
constexpr uint32_t kCatchType = 0x01000007;
constexpr uint32_t kLocals = 0x11000002;

using testing::put16;
using testing::put32;

std::vector<uint8_t> nops(size_t n) { return std::vector<uint8_t>(n, kNop); }
std::vector<uint8_t> cat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::vector<uint8_t> tiny_body(const std::vector<uint8_t>& code) {
  std::vector<uint8_t> b{static_cast<uint8_t>((code.size() << 2) | kTinyFormat)};
  b.insert(b.end(), code.begin(), code.end());
  return b;
}

struct FatSpec {
  uint16_t max_stack = 8;
  uint32_t locals = 0;
  bool init_locals = false;
  std::vector<ExceptionClause> clauses;
  bool fat_section = false;
};

std::vector<uint8_t> fat_body(const std::vector<uint8_t>& code, const FatSpec& spec) {
  std::vector<uint8_t> b;
  uint16_t flags = kFatFormat | (spec.init_locals ? kInitLocals : 0) | (spec.clauses.empty() ? 0 : kMoreSects);
  put16(b, static_cast<uint16_t>(0x3000 | flags));
  put16(b, spec.max_stack);
  put32(b, static_cast<uint32_t>(code.size()));
  put32(b, spec.locals);
  b.insert(b.end(), code.begin(), code.end());
  if (spec.clauses.empty()) return b;
  while (b.size() % 4) b.push_back(0);
  uint32_t size = 4 + static_cast<uint32_t>(spec.clauses.size()) * (spec.fat_section ? 24 : 12);
  b.push_back(kSectEhTable | (spec.fat_section ? kSectFatFormat : 0));
  b.push_back(size & 0xFF);
  b.push_back(spec.fat_section ? (size >> 8) & 0xFF : 0);
  b.push_back(spec.fat_section ? (size >> 16) & 0xFF : 0);
  for (const auto& c : spec.clauses) {
    if (spec.fat_section) {
      put32(b, static_cast<uint32_t>(c.kind));
      put32(b, c.try_offset);
      put32(b, c.try_length);
      put32(b, c.handler_offset);
      put32(b, c.handler_length);
    } else {
      put16(b, static_cast<uint16_t>(c.kind));
      put16(b, static_cast<uint16_t>(c.try_offset));
      b.push_back(static_cast<uint8_t>(c.try_length));
      put16(b, static_cast<uint16_t>(c.handler_offset));
      b.push_back(static_cast<uint8_t>(c.handler_length));
    }
    put32(b, c.kind == ClauseKind::Filter ? c.filter_offset : c.class_token.value());
  }
  return b;
}

ExceptionClause clause(ClauseKind kind, uint32_t try_offset, uint32_t try_length, uint32_t handler_offset,
                       uint32_t handler_length, uint32_t token_or_filter = kCatchType) {
  ExceptionClause c;
  c.kind = kind;
  c.try_offset = try_offset;
  c.try_length = try_length;
  c.handler_offset = handler_offset;
  c.handler_length = handler_length;
  if (kind == ClauseKind::Filter) c.filter_offset = token_or_filter;
  if (kind == ClauseKind::Catch) c.class_token = md::Token(token_or_filter);
  return c;
}

/// A parsed and decoded body that owns its bytes (MethodBody::code points into them).
struct Body {
  std::vector<uint8_t> bytes;
  MethodBody body;
  DecodedCode code;
};

std::unique_ptr<Body> load(std::vector<uint8_t> bytes) {
  auto b = std::make_unique<Body>();
  b->bytes = std::move(bytes);
  auto parsed = parse_method_body(ByteReader(b->bytes, 0, "method body"));
  EXPECT_TRUE(parsed) << parsed.error().to_string();
  if (!parsed) return nullptr;
  b->body = std::move(*parsed);
  auto code = decode_code(b->body.code, 0);
  EXPECT_TRUE(code) << code.error().to_string();
  if (!code) return nullptr;
  b->code = std::move(*code);
  return b;
}

/// Re-reads an encoded body.
std::unique_ptr<Body> reread(const EncodedBody& encoded) {
  auto b = load(encoded.bytes);
  if (b) {
    EXPECT_EQ(b->body.total_size, encoded.bytes.size());
  }
  return b;
}

/// What the header and section tests read off an encoded body. A body that does not parse back
/// is a failure, and reads as all defaults (never a crash in the test).
struct Shape {
  bool fat = false;
  uint16_t max_stack = 0;
  uint32_t code_size = 0;
  uint32_t locals = 0;
  bool init_locals = false;
  size_t sections = 0;
  bool fat_section = false;
  uint32_t section_size = 0;
  std::vector<ExceptionClause> clauses;
  uint32_t try_offset(size_t i) const { return i < clauses.size() ? clauses[i].try_offset : 0xFFFFFFFF; }
};

Shape shape(const EncodedBody& encoded) {
  Shape s;
  auto body = parse_method_body(ByteReader(encoded.bytes, 0, "method body"));
  if (!body) {
    ADD_FAILURE() << "the encoded body does not parse: " << body.error().to_string();
    return s;
  }
  EXPECT_EQ(body->total_size, encoded.bytes.size());
  s.fat = body->fat;
  s.max_stack = body->max_stack;
  s.code_size = body->code_size;
  s.locals = body->local_sig_token.value();
  s.init_locals = body->init_locals();
  s.sections = body->sections.size();
  if (!body->sections.empty()) {
    s.fat_section = body->sections[0].fat;
    s.section_size = body->sections[0].data_size;
  }
  s.clauses = body->clauses;
  return s;
}

/// `count` nops as entry code.
std::vector<Instr> entry_nops(size_t count) {
  BodyModel scratch;
  std::vector<Instr> code;
  for (size_t i = 0; i < count; ++i) code.push_back(scratch.make(Op::Nop));
  return code;
}

/// A rewrite whose edit inserts `count` nops before original instruction `index` (by id: the
/// model's original instructions are ids 0..n-1).
BodyEdit insert_nops_before(uint32_t id, size_t count) {
  BodyEdit edit;
  edit.edit = [id, count](BodyModel& model) -> Status {
    std::vector<Instr> code;
    for (size_t i = 0; i < count; ++i) code.push_back(model.make(Op::Nop));
    insert_code(model, model.index_of(id), std::move(code));
    return ok();
  };
  return edit;
}

/// Both paths of rewrite_body with `count` nops of entry code: they must agree; the model's is
/// returned.
EncodedBody both_paths(const Body& b, size_t count, uint16_t depth = 0) {
  std::vector<Instr> entry = entry_nops(count);
  BodyEdit edit;
  edit.entry_code = entry;
  edit.entry_max_stack = depth;
  auto fast = rewrite_body(b.body, b.code, edit, RewritePath::Fastest);
  auto model = rewrite_body(b.body, b.code, edit, RewritePath::Model);
  EXPECT_TRUE(fast && model);
  if (!fast || !model) return {};
  EXPECT_EQ(fast->bytes, model->bytes);
  EXPECT_EQ(fast->map, model->map);
  return std::move(*model);
}

std::vector<OffsetMap::Entry> entries(const OffsetMap& map) { return {map.entries().begin(), map.entries().end()}; }
std::vector<OffsetMap::Range> ranges(const OffsetMap& map) { return {map.inserted().begin(), map.inserted().end()}; }

/// A sink that knows no metadata: enough for max stack over code without calls.
class NoMetadata final : public md::MetadataSink {
 public:
  Expected<md::Token> assembly_ref(const md::AssemblyRefSpec&) override { return refuse(); }
  Expected<md::Token> type_ref(md::Token, std::string_view, std::string_view) override { return refuse(); }
  Expected<md::Token> member_ref(md::Token, std::string_view, std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> type_spec(std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> method_spec(md::Token, std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> standalone_sig(std::span<const uint8_t>) override { return refuse(); }
  Expected<md::Token> user_string(std::u16string_view) override { return refuse(); }
  Expected<std::vector<uint8_t>> signature_of(md::Token) override { return refuse(); }
  Expected<std::string> assembly_name() override { return refuse(); }
  Expected<md::Token> find_assembly_ref(std::string_view) override { return refuse(); }
  Expected<md::Token> find_type_def(std::string_view, std::string_view) override { return refuse(); }
  Expected<md::Token> find_member_def(md::Token, std::string_view, std::span<const uint8_t>) override { return refuse(); }

 private:
  static Error refuse() { return make_error(ErrorKind::Unsupported, "test sink", "no metadata"); }
};

// ---------------------------------------------------------------------------------------------
// The offset map

TEST(EngineMap, EntryCodeShiftsEveryBoundary) {
  // 0: ldarg.0  1: brtrue.s 5  3: ldc.i4.1  4: ret  5: ldc.i4.2  6: ret
  auto b = load(tiny_body({kLdarg0, kBrtrueS, 2, kLdcI4_1, kRet, kLdcI4_2, kRet}));
  ASSERT_TRUE(b);
  EncodedBody out = both_paths(*b, 3);
  EXPECT_EQ(out.bytes, tiny_body({kNop, kNop, kNop, kLdarg0, kBrtrueS, 2, kLdcI4_1, kRet, kLdcI4_2, kRet}));
  std::vector<OffsetMap::Entry> want = {{0, 3}, {1, 4}, {3, 6}, {4, 7}, {5, 8}, {6, 9}, {7, 10}};
  EXPECT_EQ(entries(out.map), want);
  EXPECT_EQ(ranges(out.map), (std::vector<OffsetMap::Range>{{0, 3}}));
  EXPECT_EQ(out.map.old_code_size(), 7u);
  EXPECT_EQ(out.map.new_code_size(), 10u);
  EXPECT_EQ(out.map.new_end_of_original(), 10u);
  EXPECT_EQ(out.map.find(1), 4u);
  EXPECT_EQ(out.map.find(2), std::nullopt) << "inside brtrue.s: not a boundary";
  EXPECT_FALSE(out.map.is_identity());
}

TEST(EngineMap, UneditedBodyIsIdentity) {
  auto b = load(tiny_body({kLdarg0, kBrtrueS, 1, kRet, kRet}));
  ASSERT_TRUE(b);
  auto out = rewrite_body(b->body, b->code, BodyEdit{});
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_EQ(out->bytes, b->bytes);
  EXPECT_TRUE(out->map.is_identity());
  EXPECT_EQ(out->map, OffsetMap::identity(std::vector<uint32_t>{0, 1, 3, 4}, 5));
}

TEST(EngineMap, InsertionInsideMovesOnlyWhatFollows) {
  // 0: nop  1: br.s 4  3: nop  4: ret; five nops before the ret (id 3).
  auto b = load(tiny_body({kNop, kBrS, 1, kNop, kRet}));
  ASSERT_TRUE(b);
  auto out = rewrite_body(b->body, b->code, insert_nops_before(3, 5));
  ASSERT_TRUE(out) << out.error().to_string();
  // The branch still names the ret, which now sits after the new code: the new code runs only
  // when control falls into it.
  EXPECT_EQ(out->bytes, tiny_body({kNop, kBrS, 6, kNop, kNop, kNop, kNop, kNop, kNop, kRet}));
  std::vector<OffsetMap::Entry> want = {{0, 0}, {1, 1}, {3, 3}, {4, 9}, {5, 10}};
  EXPECT_EQ(entries(out->map), want);
  EXPECT_EQ(ranges(out->map), (std::vector<OffsetMap::Range>{{4, 9}}));
}

TEST(EngineMap, WidenedBranchKeepsItsOldOffsetAndGrows) {
  // 0: br.s +126 to the ret at 128; 126 nops between. Three nops inserted before the ret push it
  // out of reach: br.s (2 bytes) becomes br (5 bytes), and everything after it moves by 3 more.
  auto b = load(fat_body(cat({{kBrS, 126}, nops(126), {kRet}}), {}));
  ASSERT_TRUE(b);
  auto out = rewrite_body(b->body, b->code, insert_nops_before(127, 3));
  ASSERT_TRUE(out) << out.error().to_string();
  auto again = reread(*out);
  ASSERT_TRUE(again);
  const auto& in = again->code.instructions;
  ASSERT_EQ(in[0].op, Op::Br);
  EXPECT_EQ(in[0].value, 5 + 126 + 3);
  auto map = entries(out->map);
  ASSERT_EQ(map.size(), 129u);
  EXPECT_EQ(map[0], (OffsetMap::Entry{0, 0}));
  EXPECT_EQ(map[1], (OffsetMap::Entry{2, 5}));      // the first nop, after the widened branch
  EXPECT_EQ(map[126], (OffsetMap::Entry{127, 130}));
  EXPECT_EQ(map[127], (OffsetMap::Entry{128, 134}));  // the ret, after the three new nops
  EXPECT_EQ(map[128], (OffsetMap::Entry{129, 135}));
  EXPECT_EQ(ranges(out->map), (std::vector<OffsetMap::Range>{{131, 134}}));
  EXPECT_EQ(out->map.find(128), static_cast<uint32_t>(in[0].value));
}

TEST(EngineMap, SwitchTargetsFollowTheirInstructions) {
  // 0: ldarg.0  1: switch (3 targets)  18: nop  19: nop  20: ret
  std::vector<uint8_t> code{kLdarg0, kSwitch};
  put32(code, 3);
  put32(code, 0);  // 18
  put32(code, 1);  // 19
  put32(code, 2);  // 20
  code.insert(code.end(), {kNop, kNop, kRet});
  auto b = load(tiny_body(code));
  ASSERT_TRUE(b);
  // Two nops before the second target (id 3, at 19).
  auto out = rewrite_body(b->body, b->code, insert_nops_before(3, 2));
  ASSERT_TRUE(out) << out.error().to_string();
  auto again = reread(*out);
  ASSERT_TRUE(again);
  auto targets = again->code.targets_of(again->code.instructions[1]);
  ASSERT_EQ(targets.size(), 3u);
  for (uint32_t old_target : {18u, 19u, 20u}) EXPECT_EQ(out->map.find(old_target), targets[old_target - 18]);
  EXPECT_EQ(targets[0], 18);
  EXPECT_EQ(targets[1], 21) << "the second target names the nop, not the code before it";
  EXPECT_EQ(targets[2], 22);
  EXPECT_EQ(ranges(out->map), (std::vector<OffsetMap::Range>{{19, 21}}));
}

TEST(EngineMap, RemovedInstructionMapsToTheNextAndReorderingFails) {
  auto b = load(tiny_body({kNop, kLdcI4_1, kPop, kRet}));
  ASSERT_TRUE(b);
  BodyEdit remove;
  remove.edit = [](BodyModel& m) -> Status {
    m.instrs.erase(m.instrs.begin() + 1, m.instrs.begin() + 3);  // ldc.i4.1, pop
    m.edited = true;
    return ok();
  };
  auto out = rewrite_body(b->body, b->code, remove);
  ASSERT_TRUE(out) << out.error().to_string();
  std::vector<OffsetMap::Entry> want = {{0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 2}};
  EXPECT_EQ(entries(out->map), want);

  BodyEdit swap;
  swap.edit = [](BodyModel& m) -> Status {
    std::swap(m.instrs[1], m.instrs[2]);
    m.edited = true;
    return ok();
  };
  auto swapped = rewrite_body(b->body, b->code, swap);
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().message, "an edit moved original instructions out of their order");
}

TEST(EngineMap, BodyWrittenFromScratchHasNone) {
  BodyModel model;
  model.instrs.push_back(model.make(Op::Ret));
  auto out = rewrite_body(std::move(model), BodyEdit{});
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_EQ(out->bytes, tiny_body({kRet}));
  EXPECT_TRUE(out->map.empty());
}

// ---------------------------------------------------------------------------------------------
// Wrap: rets become leaves to one exit block; new clauses after the existing ones

WrapSpec empty_wrap(BodyModel& m, bool result) {
  WrapSpec spec;
  if (result) spec.result_local = 0;
  spec.filter_clause = true;
  spec.filter_code.push_back(m.make(Op::Pop));
  spec.finally_clause = true;
  spec.finally_code.push_back(m.make(Op::Nop));
  return spec;
}

TEST(EngineWrap, RetsBecomeLeavesAndTheMapSaysWhere) {
  // 0: ldarg.0  1: brtrue.s 5  3: ldc.i4.1  4: ret  5: ldc.i4.2  6: ret
  auto b = load(fat_body({kLdarg0, kBrtrueS, 2, kLdcI4_1, kRet, kLdcI4_2, kRet}, {.max_stack = 1, .locals = kLocals}));
  ASSERT_TRUE(b);
  BodyEdit wrap;
  wrap.edit = [](BodyModel& m) -> Status {
    CIL_TRY(wrap_body(m, empty_wrap(m, true)));
    NoMetadata sink;
    CallEffects effects(sink);
    m.max_stack = std::max(m.max_stack, CIL_TRY(compute_max_stack(m, true, effects)));
    return ok();
  };
  auto out = rewrite_body(b->body, b->code, wrap);
  ASSERT_TRUE(out) << out.error().to_string();
  auto again = reread(*out);
  ASSERT_TRUE(again);
  // 0 ldarg.0, 1 brtrue.s, 3 ldc.i4.1, 4 stloc.0, 5 leave.s exit, 7 ldc.i4.2, 8 stloc.0,
  // 9 leave.s exit, filter: 11 pop, 12 ldc.i4.0, 13 endfilter, handler: 15 pop, 16 rethrow,
  // 18 nop, 19 endfinally, 20 ldloc.0, 21 ret
  std::vector<uint8_t> want_code{kLdarg0, kBrtrueS, 4,    kLdcI4_1, kStloc0, kLeaveS, 13,   kLdcI4_2,    kStloc0, kLeaveS, 9,
                                 kPop,    kLdcI4_0, 0xFE, 0x11,     kPop,    0xFE,    0x1A, kNop, kEndfinally, kLdloc0, kRet};
  EXPECT_EQ(std::vector<uint8_t>(again->body.code.begin(), again->body.code.end()), want_code);
  std::vector<OffsetMap::Entry> want = {{0, 0}, {1, 1}, {3, 3}, {4, 4}, {5, 7}, {6, 8}, {7, 11}};
  EXPECT_EQ(entries(out->map), want);
  EXPECT_EQ(out->map.new_end_of_original(), 11u) << "the original code ends where the handlers start";
  EXPECT_EQ(out->map.new_code_size(), 22u);
  EXPECT_EQ(ranges(out->map), (std::vector<OffsetMap::Range>{{5, 7}, {9, 22}}));
  ASSERT_EQ(again->body.clauses.size(), 2u);
  EXPECT_EQ(again->body.clauses[0].kind, ClauseKind::Filter) << "observes without catching: no rethrow";
  EXPECT_EQ(again->body.clauses[0].try_offset, 0u);
  EXPECT_EQ(again->body.clauses[0].try_length, 11u);
  EXPECT_EQ(again->body.clauses[0].filter_offset, 11u);
  EXPECT_EQ(again->body.clauses[0].handler_offset, 15u);
  EXPECT_EQ(again->body.clauses[0].handler_length, 3u);
  EXPECT_EQ(again->body.clauses[1].kind, ClauseKind::Finally);
  EXPECT_EQ(again->body.clauses[1].try_length, 18u);
  EXPECT_EQ(again->body.clauses[1].handler_offset, 18u);
  EXPECT_EQ(again->body.clauses[1].handler_length, 2u);
  EXPECT_EQ(again->body.max_stack, 1) << "the filter holds the exception: depth 1";
}

TEST(EngineWrap, NewClausesComeAfterAnExistingFilter) {
  // try { ldc.i4.0; throw } filter { pop; ldc.i4.1; endfilter } { pop; leave.s end } end: ret
  // 0: ldc.i4.0  1: throw  2: pop  3: ldc.i4.1  4: endfilter  6: pop  7: leave.s 10  9: nop  10: ret
  std::vector<uint8_t> code{kLdcI4_0, kThrow, kPop, kLdcI4_1, 0xFE, 0x11, kPop, kLeaveS, 1, kNop, kRet};
  FatSpec spec;
  spec.max_stack = 1;
  spec.clauses.push_back(clause(ClauseKind::Filter, 0, 2, 6, 3, 2));
  auto b = load(fat_body(code, spec));
  ASSERT_TRUE(b);
  BodyEdit wrap;
  wrap.edit = [](BodyModel& m) -> Status { return wrap_body(m, empty_wrap(m, false)); };
  auto out = rewrite_body(b->body, b->code, wrap);
  ASSERT_TRUE(out) << out.error().to_string();
  auto again = reread(*out);
  ASSERT_TRUE(again);
  const auto& c = again->body.clauses;
  ASSERT_EQ(c.size(), 3u);
  // Inner first (II.19): the original filter, then the new filter, then the new finally.
  EXPECT_EQ(c[0].kind, ClauseKind::Filter);
  EXPECT_EQ(c[0].try_offset, 0u);
  EXPECT_EQ(c[0].try_length, 2u);
  EXPECT_EQ(c[0].filter_offset, 2u);
  EXPECT_EQ(c[0].handler_offset, 6u);
  EXPECT_EQ(c[0].handler_length, 3u);
  EXPECT_EQ(c[1].kind, ClauseKind::Filter);
  EXPECT_EQ(c[1].filter_offset, out->map.new_end_of_original());
  EXPECT_EQ(c[2].kind, ClauseKind::Finally);
  EXPECT_EQ(c[1].try_offset, 0u);
  EXPECT_EQ(c[1].try_length, out->map.new_end_of_original());
  EXPECT_EQ(out->map.find(10), 10u) << "the ret became a leave.s in place";
  EXPECT_EQ(again->code.instructions[8].op, Op::Leave_S);
}

TEST(EngineWrap, RefusesTailCalls) {
  // tail. call 0x06000001; ret: the prefix cannot survive a protected region, and dropping it
  // would turn constant-stack recursion into a stack overflow.
  std::vector<uint8_t> code{0xFE, 0x14, 0x28, 0x01, 0x00, 0x00, 0x06, kRet};
  auto b = load(fat_body(code, {}));
  ASSERT_TRUE(b);
  BodyEdit wrap;
  wrap.edit = [](BodyModel& m) -> Status { return wrap_body(m, empty_wrap(m, false)); };
  auto out = rewrite_body(b->body, b->code, wrap);
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().to_string().find("tail."), std::string::npos) << out.error().to_string();
}

// ---------------------------------------------------------------------------------------------
// Branch widening

TEST(EngineWidening, CascadeThroughAChain) {
  // k forward branches, the last one first: b_k at 0, ..., b_1 at 2(k-1); b_j jumps exactly 127
  // bytes, to a nop at 2(k-j+1) + 127. One nop inserted at 2k+126 lies in b_1's reach only: b_1
  // widens (+3 bytes), which pushes b_2 out of reach, and so on: one layout pass per branch.
  // A backward branch at the end that reaches nothing widened stays short.
  constexpr int k = 6;
  std::vector<uint8_t> code;
  for (int j = k; j >= 1; --j) code.insert(code.end(), {kBrS, 127});
  code.insert(code.end(), 140, kNop);
  size_t back_at = code.size();
  code.insert(code.end(), {kBrS, static_cast<uint8_t>(-4), kRet});  // to the nop at back_at - 2
  auto b = load(fat_body(code, {}));
  ASSERT_TRUE(b);
  uint32_t insert_offset = 2 * k + 126;
  uint32_t insert_id = insert_offset - 2 * k + k;  // k branches, then one nop per byte
  ASSERT_EQ(b->code.instructions[insert_id].offset, insert_offset);
  auto out = rewrite_body(b->body, b->code, insert_nops_before(insert_id, 1));
  ASSERT_TRUE(out) << out.error().to_string();
  auto again = reread(*out);
  ASSERT_TRUE(again);
  const auto& in = again->code.instructions;
  for (int i = 0; i < k; ++i) {
    EXPECT_EQ(in[i].op, Op::Br) << "branch " << i;
    uint32_t old_target = static_cast<uint32_t>(b->code.instructions[i].value);
    EXPECT_EQ(out->map.find(old_target), static_cast<uint32_t>(in[i].value)) << "branch " << i;
  }
  const Instruction& back = in[in.size() - 2];
  EXPECT_EQ(back.op, Op::Br_S);
  EXPECT_EQ(out->map.find(static_cast<uint32_t>(back_at - 2)), static_cast<uint32_t>(back.value));
  EXPECT_EQ(out->map.new_code_size(), code.size() + 1 + 3 * k);
  EXPECT_EQ(out->map.find(static_cast<uint32_t>(back_at)), back.offset);

  // Without the nop, nothing moves: every branch keeps its short form.
  auto same = rewrite_body(b->body, b->code, insert_nops_before(insert_id, 0));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->bytes, b->bytes);
}

TEST(EngineWidening, EntryCodeNeverWidens) {
  // Branch displacements are relative and both ends move: entry code of any size keeps every
  // branch short, on both paths.
  auto b = load(fat_body(cat({{kBrS, 127}, nops(127), {kRet}}), {}));
  ASSERT_TRUE(b);
  EncodedBody out = both_paths(*b, 200);
  auto again = reread(out);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code.instructions[200].op, Op::Br_S);
  EXPECT_EQ(again->code.instructions[200].value, 200 + 2 + 127);
}

// ---------------------------------------------------------------------------------------------
// EH remapping after insertion

TEST(EngineEh, ClausesFollowInsertedCode) {
  // 0: nop  1: nop (try start)  2: leave.s 7  4: pop (handler)  5: leave.s 7  7: ret
  std::vector<uint8_t> code{kNop, kNop, kLeaveS, 3, kPop, kLeaveS, 0, kRet};
  FatSpec spec;
  spec.clauses.push_back(clause(ClauseKind::Catch, 1, 3, 4, 3));
  auto b = load(fat_body(code, spec));
  ASSERT_TRUE(b);
  // Four nops before the try's second instruction (id 2) and two before the handler's first
  // (id 3), which is also where the try ends.
  BodyEdit edit;
  edit.edit = [](BodyModel& m) -> Status {
    for (auto [id, count] : {std::pair<uint32_t, int>{2, 4}, {3, 2}}) {
      std::vector<Instr> code;
      for (int i = 0; i < count; ++i) code.push_back(m.make(Op::Nop));
      insert_code(m, m.index_of(id), std::move(code));
    }
    return ok();
  };
  auto out = rewrite_body(b->body, b->code, edit);
  ASSERT_TRUE(out) << out.error().to_string();
  auto again = reread(*out);
  ASSERT_TRUE(again);
  ASSERT_EQ(again->body.clauses.size(), 1u);
  const ExceptionClause& c = again->body.clauses[0];
  EXPECT_EQ(c.try_offset, 1u);
  // Code inserted inside the try is protected; so is code inserted before the handler's first
  // instruction: the try still ends, and the handler still starts, at that instruction.
  EXPECT_EQ(c.try_length, 3u + 4 + 2);
  EXPECT_EQ(c.handler_offset, *out->map.find(4));
  EXPECT_EQ(c.handler_offset, 4u + 4 + 2);
  EXPECT_EQ(c.handler_length, 3u);
  EXPECT_EQ(c.class_token, md::Token(kCatchType));
  EXPECT_EQ(ranges(out->map), (std::vector<OffsetMap::Range>{{2, 6}, {8, 10}}));
}

// ---------------------------------------------------------------------------------------------
// Max stack

TEST(EngineMaxStack, DeepestPathAndTheEntryRule) {
  BodyModel m;
  uint32_t join = m.reserve_label();
  m.instrs.push_back(m.make(Op::Ldarg_0));
  m.instrs.push_back(m.make_branch(Op::Brtrue_S, join));
  m.instrs.push_back(m.make(Op::Ldc_I4_1));
  m.instrs.push_back(m.make(Op::Ldc_I4_2));
  m.instrs.push_back(m.make(Op::Ldc_I4_1));
  m.instrs.push_back(m.make(Op::Add));
  m.instrs.push_back(m.make(Op::Add));
  m.instrs.push_back(m.make(Op::Pop));
  Instr ret = m.make(Op::Ret);
  ret.id = join;
  m.instrs.push_back(ret);
  NoMetadata sink;
  CallEffects effects(sink);
  auto depth = compute_max_stack(m, false, effects);
  ASSERT_TRUE(depth) << depth.error().to_string();
  EXPECT_EQ(*depth, 3);

  // rewrite_body gives a body max(its own, the entry code's depth), whichever path.
  auto b = load(fat_body({kLdcI4_1, kLdcI4_2, kAdd, kPop, kRet}, {.max_stack = 2}));
  ASSERT_TRUE(b);
  EXPECT_EQ(shape(both_paths(*b, 1, 1)).max_stack, 8) << "fits a tiny header: max stack 8";
  auto big = load(fat_body(cat({nops(70), {kRet}}), {.max_stack = 2, .locals = kLocals}));
  ASSERT_TRUE(big);
  EXPECT_EQ(shape(both_paths(*big, 1, 1)).max_stack, 2);
  EXPECT_EQ(shape(both_paths(*big, 1, 5)).max_stack, 5);
}

// ---------------------------------------------------------------------------------------------
// Header and section choices

TEST(EngineHeader, TinyOrFat) {
  // An edited body is tiny when it can be (II.25.4.2): under 64 bytes, max stack 8 at most,
  // no locals, no clauses, no InitLocals.
  auto small = load(tiny_body(cat({nops(62), {kRet}})));
  ASSERT_TRUE(small);
  EXPECT_FALSE(shape(both_paths(*small, 0)).fat);  // nothing inserted: re-encoded as it was
  auto b62 = load(tiny_body(cat({nops(61), {kRet}})));
  ASSERT_TRUE(b62);
  Shape tiny63 = shape(both_paths(*b62, 1));
  EXPECT_FALSE(tiny63.fat);
  EXPECT_EQ(tiny63.code_size, 63u);
  Shape fat64 = shape(both_paths(*small, 1));
  EXPECT_TRUE(fat64.fat);
  EXPECT_EQ(fat64.code_size, 64u);
  EXPECT_EQ(fat64.max_stack, 8);
  Shape deep = shape(both_paths(*b62, 1, 9));
  EXPECT_TRUE(deep.fat) << "max stack 9";
  EXPECT_EQ(deep.max_stack, 9);

  // A fat original: kept fat while unedited (its own bytes back), tiny once edited if it fits;
  // locals or InitLocals keep it fat.
  auto fat_small = load(fat_body({kRet}, {.max_stack = 1}));
  ASSERT_TRUE(fat_small);
  auto unedited = rewrite_body(fat_small->body, fat_small->code, BodyEdit{});
  ASSERT_TRUE(unedited);
  EXPECT_EQ(unedited->bytes, fat_small->bytes);
  EXPECT_EQ(both_paths(*fat_small, 1).bytes, tiny_body({kNop, kRet}));
  auto with_locals = load(fat_body({kRet}, {.max_stack = 1, .locals = kLocals}));
  ASSERT_TRUE(with_locals);
  Shape locals_out = shape(both_paths(*with_locals, 1));
  EXPECT_TRUE(locals_out.fat);
  EXPECT_EQ(locals_out.locals, kLocals);
  EXPECT_EQ(locals_out.max_stack, 1);
  auto init = load(fat_body({kRet}, {.max_stack = 1, .locals = kLocals, .init_locals = true}));
  ASSERT_TRUE(init);
  EXPECT_TRUE(shape(both_paths(*init, 1)).init_locals);
}

/// A body with `count` catch clauses, each over the same `try_length` nops.
std::unique_ptr<Body> with_clauses(size_t count, uint32_t try_length) {
  std::vector<uint8_t> code = nops(try_length);
  FatSpec spec;
  for (size_t i = 0; i < count; ++i) {
    spec.clauses.push_back(clause(ClauseKind::Catch, 0, try_length, static_cast<uint32_t>(code.size()), 2));
    code.insert(code.end(), {kPop, kRet});
  }
  code.push_back(kRet);
  spec.fat_section = count > 20 || try_length > 0xFF;
  return load(fat_body(code, spec));
}

TEST(EngineSections, SmallOrFat) {
  // II.25.4.6: a small section holds at most 20 clauses with 16-bit offsets and 8-bit lengths.
  auto twenty = with_clauses(20, 4);
  ASSERT_TRUE(twenty);
  Shape out20 = shape(both_paths(*twenty, 1));
  EXPECT_EQ(out20.sections, 1u);
  EXPECT_FALSE(out20.fat_section);
  EXPECT_EQ(out20.section_size, 4u + 20 * 12);
  EXPECT_EQ(out20.try_offset(19), 1u);

  auto twenty_one = with_clauses(21, 4);
  ASSERT_TRUE(twenty_one);
  Shape out21 = shape(both_paths(*twenty_one, 1));
  EXPECT_TRUE(out21.fat_section);
  EXPECT_EQ(out21.section_size, 4u + 21 * 24);

  auto long_try = with_clauses(1, 255);
  ASSERT_TRUE(long_try);
  EXPECT_FALSE(shape(both_paths(*long_try, 1)).fat_section) << "length 255 fits";
  auto longer_try = with_clauses(1, 256);
  ASSERT_TRUE(longer_try);
  EXPECT_TRUE(shape(both_paths(*longer_try, 1)).fat_section) << "length 256 does not";

  // Entry code that pushes a try start past 0xFFFF makes the section fat. The handler comes
  // first here, so that only the try start is near the limit.
  auto far = load(fat_body(cat({{kPop, kRet}, nops(0xFFFD - 2 + 4), {kRet}}),
                           {.clauses = {clause(ClauseKind::Catch, 0xFFFD, 4, 0, 2)}}));
  ASSERT_TRUE(far);
  Shape near_out = shape(both_paths(*far, 2));
  EXPECT_FALSE(near_out.fat_section);
  EXPECT_EQ(near_out.try_offset(0), 0xFFFFu);
  Shape far_out = shape(both_paths(*far, 3));
  EXPECT_TRUE(far_out.fat_section);
  EXPECT_EQ(far_out.try_offset(0), 0x10000u);

  // An unedited body keeps its own section layout, even a fat one that could be small.
  auto stored_fat = load(fat_body({kNop, kLeaveS, 2, kPop, kRet, kRet},
                                  {.clauses = {clause(ClauseKind::Catch, 0, 3, 3, 2)}, .fat_section = true}));
  ASSERT_TRUE(stored_fat);
  auto kept = rewrite_body(stored_fat->body, stored_fat->code, BodyEdit{});
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->bytes, stored_fat->bytes);
  EXPECT_FALSE(shape(both_paths(*stored_fat, 1)).fat_section) << "edited: small again";
}

// ---------------------------------------------------------------------------------------------
// Refusals: the same error from both paths

void expect_same_refusal(const std::vector<uint8_t>& bytes, const std::string& message) {
  auto b = load(bytes);
  ASSERT_TRUE(b);
  std::vector<Instr> entry = entry_nops(1);
  BodyEdit edit;
  edit.entry_code = entry;
  auto fast = rewrite_body(b->body, b->code, edit, RewritePath::Fastest);
  auto model = rewrite_body(b->body, b->code, edit, RewritePath::Model);
  auto noop = rewrite_body(b->body, b->code, BodyEdit{});
  ASSERT_FALSE(fast);
  ASSERT_FALSE(model);
  ASSERT_FALSE(noop);
  EXPECT_EQ(fast.error().to_string(), "method body: " + message);
  EXPECT_EQ(model.error().to_string(), fast.error().to_string());
  EXPECT_EQ(noop.error().to_string(), fast.error().to_string());
  EXPECT_EQ(fast.error().kind, ErrorKind::Format);
}

TEST(EngineRefusals, TargetsOffInstructionBoundaries) {
  expect_same_refusal(tiny_body({kBrS, 1, 0x20, 0, 0, 0, 0, kRet}),
                      "branch at IL_0000: offset 0x3 is not the start of an instruction");
  expect_same_refusal(tiny_body({kBrS, static_cast<uint8_t>(-3), kRet}),
                      "branch at IL_0000: offset -0x1 is not the start of an instruction");
  std::vector<uint8_t> sw{kLdarg0, kSwitch};
  put32(sw, 1);
  put32(sw, 7);
  sw.push_back(kRet);
  expect_same_refusal(tiny_body(sw), "switch at IL_0001: offset 0x11 is not the start of an instruction");
  expect_same_refusal(fat_body({kNop, kLeaveS, 2, kPop, kRet, kRet}, {.clauses = {clause(ClauseKind::Catch, 0, 2, 3, 2)}}),
                      "exception clause: offset 0x2 is not the start of an instruction");
  expect_same_refusal(
      fat_body({kNop, kLeaveS, 5, kPop, kLdcI4_1, 0xFE, 0x11, kPop, kRet, kRet},
               {.clauses = {clause(ClauseKind::Filter, 0, 3, 7, 2, 6)}}),
      "exception clause: filter offset 0x6 is not the start of an instruction");
}

TEST(EngineRefusals, EntryCodeMustNotBranch) {
  auto b = load(tiny_body({kRet}));
  ASSERT_TRUE(b);
  BodyModel scratch;
  std::vector<Instr> entry{scratch.make_branch(Op::Br_S, 0)};
  BodyEdit edit;
  edit.entry_code = entry;
  for (RewritePath path : {RewritePath::Fastest, RewritePath::Model}) {
    auto out = rewrite_body(b->body, b->code, edit, path);
    ASSERT_FALSE(out);
    EXPECT_EQ(out.error().message, "entry code must not branch");
  }
}

}  // namespace
}  // namespace cil::il
