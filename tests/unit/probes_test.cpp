// The entry probe built once and moved from slot to slot equals the probe built for each slot,
// counting or storing; the storing probe's three forms.
#include <gtest/gtest.h>

#include "instrument/probes.h"

namespace cil::instrument {
namespace {

void expect_same_code(const std::vector<Instr>& a, const std::vector<Instr>& b, uint32_t slot) {
  ASSERT_EQ(a.size(), b.size()) << "slot " << slot;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].op, b[i].op) << "slot " << slot << ", instruction " << i;
    EXPECT_EQ(a[i].value, b[i].value) << "slot " << slot << ", instruction " << i;
  }
}

TEST(CounterProbe, MovedFromSlotToSlotEqualsBuiltForTheSlot) {
  const md::Token increment(0x0A000010);
  // Slots whose constant changes form: ldc.i4.N, ldc.i4.s, ldc.i4 (slot * 8 for a native-memory
  // counter, the slot itself for the core library's int64[]), in both directions.
  const uint32_t slots[] = {0, 1, 2, 8, 9, 15, 16, 127, 128, 1000, 0x0FFFFFFF, 3, 0, 200, 1};
  for (ProbeKind kind : {ProbeKind::Count, ProbeKind::Hit})
    for (md::Token element : {md::Token{0}, md::Token{0x01000042}}) {
      BodyModel ids;
      std::vector<Instr> moved;
      counter_probe(ids, CounterRef{md::Token(0x04000007), element, 5, 0}, increment, moved, kind);
      for (uint32_t slot : slots) {
        set_counter_slot(moved, CounterRef{md::Token(0x04000007), element, 0, 0}, slot);
        std::vector<Instr> built;
        counter_probe(ids, CounterRef{md::Token(0x04000007), element, slot, 0}, increment, built, kind);
        expect_same_code(moved, built, slot);
      }
    }
}

std::vector<Op> ops(const std::vector<Instr>& probe) {
  std::vector<Op> out;
  for (const Instr& in : probe) out.push_back(in.op);
  return out;
}

TEST(CounterProbe, HitProbeStoresOneWithoutACall) {
  BodyModel ids;
  const md::Token increment(0x0A000010);
  // Native memory (offline), the core library's int64[], a profiler's fixed address.
  EXPECT_EQ(ops(counter_probe(ids, CounterRef{md::Token(0x04000007), md::Token(), 3, 0}, increment, ProbeKind::Hit)),
            (std::vector<Op>{Op::Ldsfld, Op::Ldc_I4_S, Op::Add, Op::Ldc_I4_1, Op::Conv_I8, Op::Stind_I8}));
  EXPECT_EQ(ops(counter_probe(ids, CounterRef{md::Token(0x04000007), md::Token(0x01000042), 3, 0}, increment, ProbeKind::Hit)),
            (std::vector<Op>{Op::Ldsfld, Op::Ldc_I4_3, Op::Ldc_I4_1, Op::Conv_I8, Op::Stelem_I8}));
  EXPECT_EQ(ops(counter_probe(ids, CounterRef{md::Token(), md::Token(), 0, 0x7f0012345678}, increment, ProbeKind::Hit)),
            (std::vector<Op>{Op::Ldc_I8, Op::Conv_U, Op::Ldc_I4_1, Op::Conv_I8, Op::Stind_I8}));
  EXPECT_EQ(ops(counter_probe(ids, CounterRef{md::Token(), md::Token(), 0, 0x7f0012345678}, increment)),
            (std::vector<Op>{Op::Ldc_I8, Op::Conv_U, Op::Call, Op::Pop}));
}

TEST(CounterProbe, SlotConstantForms) {
  BodyModel ids;
  std::vector<Instr> probe;
  counter_probe(ids, CounterRef{md::Token(0x04000007), md::Token(), 0, 0}, md::Token(0x0A000010), probe);
  set_counter_slot(probe, CounterRef{md::Token(0x04000007), md::Token(), 0, 0}, 1);  // 8
  EXPECT_EQ(probe[1].op, Op::Ldc_I4_8);
  set_counter_slot(probe, CounterRef{md::Token(0x04000007), md::Token(), 0, 0}, 2);  // 16
  EXPECT_EQ(probe[1].op, Op::Ldc_I4_S);
  EXPECT_EQ(probe[1].value, 16);
  set_counter_slot(probe, CounterRef{md::Token(0x04000007), md::Token(), 0, 0}, 16);  // 128
  EXPECT_EQ(probe[1].op, Op::Ldc_I4);
  EXPECT_EQ(probe[1].value, 128);
  set_counter_slot(probe, CounterRef{md::Token(0x04000007), md::Token(), 0, 0}, 0);
  EXPECT_EQ(probe[1].op, Op::Ldc_I4_0);
  EXPECT_EQ(probe[1].value, 0);
}

}  // namespace
}  // namespace cil::instrument
