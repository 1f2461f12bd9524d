// Label alignment for `diff`, on listings as values: the new listing's labels take the old numbers
// of the instructions they align with; new labels get numbers no old label has; the renaming is
// one to one; operand text that only looks like a label is never touched.
#include <gtest/gtest.h>

#include <set>

#include "cli/output/label_alignment.h"
#include "cli/output/listing_printer.h"

namespace cil::cli {
namespace {

using il::Op;

/// A listing built by hand, as il::list_method would give it.
class Listing {
 public:
  explicit Listing(std::string header = ".method private hidebysig static int32 Fib(int32 n) cil managed") {
    m_.token = md::Token(0x06000001);
    m_.name = "Demo::Fib";
    m_.header = std::move(header);
    m_.max_stack = 8;
  }
  Listing& op(uint32_t offset, Op op, std::string operand = {}) {
    il::ListedInstruction& in = m_.instructions.emplace_back();
    in.offset = offset;
    in.op = op;
    in.operand = std::move(operand);
    in.first_target = static_cast<uint32_t>(m_.targets.size());
    return *this;
  }
  /// A branch, or a switch with several targets.
  Listing& jump(uint32_t offset, Op op, std::vector<int64_t> targets) {
    this->op(offset, op);
    m_.instructions.back().target_count = static_cast<uint32_t>(targets.size());
    m_.targets.insert(m_.targets.end(), targets.begin(), targets.end());
    return *this;
  }
  Listing& clause(il::ClauseKind kind, uint32_t try_begin, uint32_t try_end, uint32_t handler_begin, uint32_t handler_end,
                  std::string catch_type = {}, uint32_t filter = 0) {
    il::ListedClause& c = m_.clauses.emplace_back();
    c.kind = kind;
    c.try_offset = try_begin;
    c.try_length = try_end - try_begin;
    c.handler_offset = handler_begin;
    c.handler_length = handler_end - handler_begin;
    c.catch_type = std::move(catch_type);
    c.filter_offset = filter;
    return *this;
  }
  Listing& locals(std::string text) {
    m_.locals = std::move(text);
    return *this;
  }
  Listing& size(uint32_t code_size) {
    m_.code_size = code_size;
    return *this;
  }
  const il::MethodListing& get() const { return m_; }

 private:
  il::MethodListing m_;
};

/// `new_listing` as diff shows it against `old_listing`.
std::string aligned(const Listing& old_listing, const Listing& new_listing) {
  return diff_text(new_listing.get(), align_labels(old_listing.get(), new_listing.get()));
}
/// `listing` as diff shows it alone (labels in offset order).
std::string alone(const Listing& listing) { return diff_text(listing.get(), LabelNames::numbered(listing.get())); }

// Fib before and after wrap mode.
Listing fib_old() {
  return Listing()
      .size(8)
      .op(0, Op::Ldarg_0)
      .op(1, Op::Ldc_I4_2)
      .jump(2, Op::Blt_S, {6})
      .op(4, Op::Ldarg_0)
      .op(5, Op::Ret)
      .op(6, Op::Ldarg_0)
      .op(7, Op::Ret);
}
Listing fib_new() {
  return Listing()
      .size(20)
      .locals(".locals init (int32 V_0)")
      .op(0, Op::Ldarg_0)
      .op(1, Op::Ldc_I4_2)
      .jump(2, Op::Blt_S, {8})
      .op(4, Op::Ldarg_0)
      .op(5, Op::Stloc_0)
      .jump(6, Op::Leave_S, {17})
      .op(8, Op::Ldarg_0)
      .op(9, Op::Stloc_0)
      .jump(10, Op::Leave_S, {17})
      .op(12, Op::Pop)
      .op(13, Op::Rethrow)
      .op(15, Op::Nop)
      .op(16, Op::Endfinally)
      .op(17, Op::Nop)
      .op(18, Op::Ldloc_0)
      .op(19, Op::Ret)
      .clause(il::ClauseKind::Catch, 0, 12, 12, 15, "[System.Private.CoreLib]System.Exception")
      .clause(il::ClauseKind::Finally, 0, 15, 15, 17);
}

TEST(LabelAlignment, OffsetsAsDumpShowsThem) {
  LabelNames offsets = LabelNames::offsets();
  EXPECT_EQ(offsets(0), "IL_0000");
  EXPECT_EQ(offsets(0x2f), "IL_002f");
  EXPECT_EQ(offsets(0x12345), "IL_12345");
  EXPECT_EQ(offsets(0xFFFFFFFF), "IL_ffffffff");
  EXPECT_EQ(offsets(-3), "IL_?-3");
  EXPECT_EQ(offsets(int64_t{1} << 32), "IL_?4294967296");
  EXPECT_FALSE(offsets.are_labels());
}

TEST(LabelAlignment, ListingsAsDiffShowsThem) {
  EXPECT_EQ(alone(fib_new()),
            ".method private hidebysig static int32 Fib(int32 n) cil managed\n"
            "{\n"
            "  // code size 20 (0x14), tiny header\n"
            "  .maxstack 8\n"
            "  .locals init (int32 V_0)\n"
            "  L1:   ldarg.0\n"
            "        ldc.i4.2\n"
            "        blt.s L2\n"
            "        ldarg.0\n"
            "        stloc.0\n"
            "        leave.s L5\n"
            "  L2:   ldarg.0\n"
            "        stloc.0\n"
            "        leave.s L5\n"
            "  L3:   pop\n"
            "        rethrow\n"
            "  L4:   nop\n"
            "        endfinally\n"
            "  L5:   nop\n"
            "        ldloc.0\n"
            "        ret\n"
            "  .try L1 to L3 catch [System.Private.CoreLib]System.Exception handler L3 to L4\n"
            "  .try L1 to L4 finally handler L4 to L5\n"
            "}\n");
}

TEST(LabelAlignment, OldBranchesKeepTheirNamesAndNewLabelsGetFreshOnes) {
  EXPECT_EQ(aligned(fib_old(), fib_new()),
            ".method private hidebysig static int32 Fib(int32 n) cil managed\n"
            "{\n"
            "  // code size 20 (0x14), tiny header\n"
            "  .maxstack 8\n"
            "  .locals init (int32 V_0)\n"
            "  L2:   ldarg.0\n"
            "        ldc.i4.2\n"
            "        blt.s L1\n"
            "        ldarg.0\n"
            "        stloc.0\n"
            "        leave.s L3\n"
            "  L1:   ldarg.0\n"
            "        stloc.0\n"
            "        leave.s L3\n"
            "  L4:   pop\n"
            "        rethrow\n"
            "  L5:   nop\n"
            "        endfinally\n"
            "  L3:   nop\n"
            "        ldloc.0\n"
            "        ret\n"
            "  .try L2 to L4 catch [System.Private.CoreLib]System.Exception handler L4 to L5\n"
            "  .try L2 to L5 finally handler L5 to L3\n"
            "}\n");
}

TEST(LabelAlignment, IdenticalListingsAndListingsWithoutLabelsAreUnchanged) {
  EXPECT_EQ(aligned(fib_old(), fib_old()), alone(fib_old()));
  EXPECT_EQ(aligned(fib_new(), fib_new()), alone(fib_new()));
  Listing plain = Listing().size(2).op(0, Op::Ldarg_0).op(1, Op::Ret);
  EXPECT_EQ(aligned(plain, plain), alone(plain));
  // Against a body that could not be read (no labels at all), labels are numbered in the order
  // the listing shows them: here the offset order.
  Listing unreadable;
  il::MethodListing broken = unreadable.get();
  broken.error = "MethodDef 0x06000001 body: bad header";
  EXPECT_EQ(diff_text(fib_old().get(), align_labels(broken, fib_old().get())), alone(fib_old()));
}

TEST(LabelAlignment, SwitchesFiltersAndWideLabels) {
  // A switch to 10000 cases (labels L1...L10000, wider than their column) and a filter; the new
  // listing adds a nop at the start and a branch back to it at the end.
  constexpr uint32_t kCases = 10000;
  auto build = [](uint32_t shift, bool loop) {
    Listing l;
    if (shift) l.op(0, Op::Nop);
    std::vector<int64_t> cases;
    for (uint32_t i = 0; i < kCases; ++i) cases.push_back(shift + 100 + i);
    l.jump(shift, Op::Switch, cases);
    for (uint32_t i = 0; i < kCases; ++i) l.op(shift + 100 + i, Op::Ldc_I4_1);
    l.op(shift + 100 + kCases, Op::Ret);
    if (loop) l.jump(shift + 101 + kCases, Op::Br, {0});
    l.clause(il::ClauseKind::Filter, shift + 100, shift + 101, shift + 101, shift + 99 + kCases, {}, shift + 99 + kCases);
    return l;
  };
  std::string text = aligned(build(0, false), build(1, true));
  EXPECT_NE(text.find("\n  L10001: nop\n        switch (L1, L2, L3, "), std::string::npos) << text.substr(0, 300);
  EXPECT_NE(text.find(", L9999, L10000)\n  L1:   ldc.i4.1\n  L2:   ldc.i4.1\n"), std::string::npos);
  EXPECT_NE(text.find("\n  L10000: ldc.i4.1\n        ret\n        br L10001\n"
                      "  .try L1 to L2 filter L10000 handler L2 to L10000\n}\n"),
            std::string::npos)
      << text.substr(text.size() - 300);
}

TEST(LabelAlignment, NamesThatOnlyLookLikeLabelsAreLeftAlone) {
  // A type named L1 in a catch clause, a method named L2 in a call, a string "L3", and a catch
  // type whose name holds the clause line's own keywords: all operand text, never labels.
  auto build = [](uint32_t shift, bool new_try) {
    Listing l;
    if (shift) l.op(0, Op::Nop);
    l.op(shift, Op::Call, "void N.C::L2()")
        .op(shift + 5, Op::Ldstr, "\"L3\"")
        .jump(shift + 10, Op::Br_S, {shift + 12})
        .op(shift + 12, Op::Ret)
        .clause(il::ClauseKind::Catch, shift + 12, shift + 12, shift + 12, shift + 12, "N.L1")
        .clause(il::ClauseKind::Catch, shift + 12, shift + 12, shift + 12, shift + 12, "'x to L1 filter L1 handler L1'");
    if (new_try) l.clause(il::ClauseKind::Finally, 0, shift + 12, shift + 12, shift + 12);
    return l;
  };
  std::string body =
      "        call void N.C::L2()\n"
      "        ldstr \"L3\"\n"
      "        br.s L1\n"
      "  L1:   ret\n"
      "  .try L1 to L1 catch N.L1 handler L1 to L1\n"
      "  .try L1 to L1 catch 'x to L1 filter L1 handler L1' handler L1 to L1\n";
  EXPECT_NE(alone(build(0, false)).find(body), std::string::npos);
  // An inserted nop: the same names.
  EXPECT_NE(aligned(build(0, false), build(1, false)).find("        nop\n" + body), std::string::npos);
  // The nop starts a new try: it gets a new number, the look-alikes stay as they are.
  std::string renumbered = aligned(build(0, false), build(1, true));
  EXPECT_NE(renumbered.find("  L2:   nop\n" + body + "  .try L2 to L1 finally handler L1 to L1\n"), std::string::npos) << renumbered;
  // Alone, the nop's label comes first and every other one moves.
  EXPECT_NE(alone(build(1, true)).find("  L1:   nop\n        call void N.C::L2()\n        ldstr \"L3\"\n        br.s L2\n"),
            std::string::npos);
}

TEST(LabelAlignment, TheRenamingIsOneToOne) {
  Listing new_listing = fib_new();
  const il::MethodListing& n = new_listing.get();
  LabelNames names = align_labels(fib_old().get(), n);
  std::vector<int64_t> offsets = n.label_offsets();
  std::set<uint32_t> numbers;
  for (int64_t offset : offsets) {
    uint32_t number = names.number(offset);
    EXPECT_NE(number, 0u) << "offset " << offset << " has no label";
    numbers.insert(number);
  }
  EXPECT_EQ(numbers.size(), offsets.size());
}

}  // namespace
}  // namespace cil::cli
