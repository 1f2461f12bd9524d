// The opcode table checked against itself and against the instruction decoder.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "il/instruction.h"
#include "il/opcode.h"

namespace cil::il {
namespace {

TEST(OpcodeTable, CodesAndNamesAreUnique) {
  std::set<uint16_t> codes;
  std::set<std::string_view> names;
  for (const auto& info : all_ops()) {
    EXPECT_TRUE(codes.insert(info.code).second) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_TRUE(info.code <= 0xE0 || (info.code >= 0xFE00 && info.code <= 0xFE1E)) << info.name;
  }
  EXPECT_EQ(all_ops().size(), 219u) << "ECMA-335 Partition III defines 219 opcodes";
}

TEST(OpcodeTable, ByteLookupRoundTrips) {
  for (const auto& info : all_ops()) {
    auto op = info.two_byte() ? op_from_fe_byte(info.code & 0xFF) : op_from_byte(static_cast<uint8_t>(info.code));
    ASSERT_TRUE(op) << info.name;
    EXPECT_EQ(*op, info.op);
    EXPECT_EQ(op_info(info.op).name, info.name);
  }
  EXPECT_FALSE(op_from_byte(0x24));
  EXPECT_FALSE(op_from_byte(0xFE)) << "0xFE is a prefix byte, not an opcode";
  EXPECT_FALSE(op_from_fe_byte(0x08));
  EXPECT_FALSE(op_from_fe_byte(0x1F));
}

TEST(OpcodeTable, BranchFormsPair) {
  int pairs = 0;
  for (const auto& info : all_ops()) {
    if (info.operand == Operand::ShortBr) {
      Op long_op = long_branch_form(info.op);
      ASSERT_NE(long_op, info.op) << info.name;
      EXPECT_EQ(op_info(long_op).operand, Operand::Br);
      EXPECT_EQ(short_branch_form(long_op), info.op);
      EXPECT_EQ(op_info(long_op).pops, info.pops);
      EXPECT_EQ(op_info(long_op).flow, info.flow);
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 14);  // 13 branches and leave.s
  EXPECT_EQ(long_branch_form(Op::Add), Op::Add);
}

TEST(OpcodeTable, StackEffectsAreSane) {
  for (const auto& info : all_ops()) {
    if (info.pops == -1 || info.pushes == -1) {
      EXPECT_TRUE(info.flow == Flow::Call || info.op == Op::Ret) << info.name;
    } else {
      EXPECT_LE(info.pops, 3) << info.name;
      EXPECT_LE(info.pushes, 2) << info.name;
    }
    if (info.flow == Flow::Meta) {
      EXPECT_EQ(info.name.back(), '.') << info.name;
    }
  }
}

TEST(Decoder, EveryOpcodeWithOperands) {
  // Encode every opcode with a zero operand (switch with one target) and decode it back.
  std::vector<uint8_t> code;
  std::vector<Op> expected;
  for (const auto& info : all_ops()) {
    if (info.two_byte()) code.push_back(0xFE);
    code.push_back(static_cast<uint8_t>(info.code & 0xFF));
    if (info.operand == Operand::Switch) {
      code.insert(code.end(), {1, 0, 0, 0, 0, 0, 0, 0});
    } else {
      code.insert(code.end(), operand_size(info.operand), 0);
    }
    expected.push_back(info.op);
  }
  auto decoded = decode_code(code, 0);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  ASSERT_EQ(decoded->instructions.size(), expected.size());
  uint32_t offset = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& in = decoded->instructions[i];
    EXPECT_EQ(in.op, expected[i]);
    EXPECT_EQ(in.offset, offset);
    offset += in.size;
  }
  EXPECT_EQ(offset, code.size());
}

TEST(Decoder, OperandValues) {
  std::vector<uint8_t> code{
      0x1F, 0xFE,                    // ldc.i4.s -2
      0x2B, 0xFE,                    // br.s -2 -> itself (offset 2)
      0x45, 2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0,  // switch (IL_0011, IL_0015)
      0x28, 0x01, 0x00, 0x00, 0x0A,  // call 0x0A000001
      0xFE, 0x0C, 0x34, 0x12,        // ldloc 0x1234
  };
  auto d = decode_code(code, 0);
  ASSERT_TRUE(d);
  ASSERT_EQ(d->instructions.size(), 5u);
  EXPECT_EQ(d->instructions[0].value, -2);
  EXPECT_EQ(d->instructions[1].value, 2);
  auto targets = d->targets_of(d->instructions[2]);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0], 17);
  EXPECT_EQ(targets[1], 21);
  EXPECT_EQ(d->instructions[3].value, 0x0A000001);
  EXPECT_EQ(d->instructions[4].value, 0x1234);
}

TEST(Decoder, Malformed) {
  EXPECT_FALSE(decode_code(std::vector<uint8_t>{0x24}, 0)) << "unassigned opcode";
  EXPECT_FALSE(decode_code(std::vector<uint8_t>{0xFE}, 0)) << "prefix byte at the end";
  EXPECT_FALSE(decode_code(std::vector<uint8_t>{0x20, 1, 2}, 0)) << "truncated operand";
  EXPECT_FALSE(decode_code(std::vector<uint8_t>{0x45, 0xFF, 0xFF, 0xFF, 0x7F}, 0)) << "huge switch";
  auto e = decode_code(std::vector<uint8_t>{0x00, 0x00, 0xA6}, 0x1000);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().offset, 0x1002u);
}

}  // namespace
}  // namespace cil::il
