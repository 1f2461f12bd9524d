// ByteReader: bounds checks, compressed integers (II.23.2), sub-readers and error offsets.
#include <gtest/gtest.h>

#include <vector>

#include "metadata/signature.h"
#include "support/byte_reader.h"

namespace cil {
namespace {

ByteReader reader(const std::vector<uint8_t>& bytes, uint64_t base = 0x100) {
  return ByteReader(bytes, base, "test structure");
}

TEST(ByteReader, ReadsLittleEndian) {
  std::vector<uint8_t> b{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  auto r = reader(b);
  EXPECT_EQ(*r.u16(), 0x0201);
  EXPECT_EQ(*r.u16(), 0x0403);
  EXPECT_EQ(*r.u32(), 0x08070605u);
  EXPECT_TRUE(r.at_end());
}

TEST(ByteReader, TruncationIsAnErrorWithOffset) {
  std::vector<uint8_t> b{0x01, 0x02, 0x03};
  auto r = reader(b);
  ASSERT_TRUE(r.u16());
  auto v = r.u32();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().structure, "test structure");
  EXPECT_EQ(v.error().offset, 0x102u);
  EXPECT_EQ(r.position(), 2u) << "a failed read must not move the cursor";
}

TEST(ByteReader, ContainsRejectsOverflow) {
  std::vector<uint8_t> b(16);
  auto r = reader(b);
  EXPECT_TRUE(r.contains(0, 16));
  EXPECT_TRUE(r.contains(16, 0));
  EXPECT_FALSE(r.contains(17, 0));
  EXPECT_FALSE(r.contains(8, 9));
  EXPECT_FALSE(r.contains(8, SIZE_MAX));
  EXPECT_FALSE(r.contains(SIZE_MAX, 1));
  EXPECT_FALSE(r.sub(8, SIZE_MAX - 4, "x"));
}

TEST(ByteReader, SubReaderKeepsAbsoluteOffsets) {
  std::vector<uint8_t> b(32);
  auto r = reader(b, 0x1000);
  auto sub = r.sub(8, 4, "inner");
  ASSERT_TRUE(sub);
  EXPECT_EQ(sub->base_offset(), 0x1008u);
  ASSERT_TRUE(sub->u32());
  auto e = sub->u8();
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().structure, "inner");
  EXPECT_EQ(e.error().offset, 0x100Cu);
}

TEST(ByteReader, CString) {
  std::vector<uint8_t> b{'a', 'b', 0, 'c'};
  auto r = reader(b);
  EXPECT_EQ(*r.c_string(10), "ab");
  EXPECT_FALSE(r.c_string(10)) << "no terminator before the end";
  auto r2 = reader(b);
  EXPECT_FALSE(r2.c_string(1)) << "longer than the limit";
}

struct CompressedCase {
  std::vector<uint8_t> bytes;
  uint32_t value;
};

// The examples of II.23.2 plus every width boundary.
TEST(CompressedInteger, Unsigned) {
  const CompressedCase cases[] = {
      {{0x03}, 0x03},
      {{0x7F}, 0x7F},
      {{0x80, 0x80}, 0x80},
      {{0xAE, 0x57}, 0x2E57},
      {{0xBF, 0xFF}, 0x3FFF},
      {{0xC0, 0x00, 0x40, 0x00}, 0x4000},
      {{0xDF, 0xFF, 0xFF, 0xFF}, 0x1FFFFFFF},
  };
  for (const auto& c : cases) {
    auto r = reader(c.bytes);
    auto v = r.compressed_u32();
    ASSERT_TRUE(v) << c.value;
    EXPECT_EQ(*v, c.value);
    EXPECT_TRUE(r.at_end());
    std::vector<uint8_t> encoded;
    md::encode_compressed_u32(encoded, c.value);
    EXPECT_EQ(encoded, c.bytes) << c.value;
  }
}

TEST(CompressedInteger, Signed) {
  const std::pair<std::vector<uint8_t>, int32_t> cases[] = {
      {{0x06}, 3},       {{0x7B}, -3},      {{0x80, 0x80}, 64},           {{0x01}, -64},
      {{0xC0, 0x00, 0x40, 0x00}, 8192},     {{0x80, 0x01}, -8192},        {{0xDF, 0xFF, 0xFF, 0xFE}, 268435455},
      {{0xC0, 0x00, 0x00, 0x01}, -268435456},
  };
  for (const auto& [bytes, value] : cases) {
    auto r = reader(bytes);
    auto v = r.compressed_i32();
    ASSERT_TRUE(v) << value;
    EXPECT_EQ(*v, value);
  }
}

TEST(CompressedInteger, InvalidAndTruncated) {
  for (uint8_t lead : {0xE0, 0xF0, 0xFF}) {
    std::vector<uint8_t> b{lead, 0, 0, 0};
    auto r = reader(b);
    EXPECT_FALSE(r.compressed_u32()) << int(lead);
  }
  std::vector<uint8_t> two{0x80};
  auto r2 = reader(two);
  EXPECT_FALSE(r2.compressed_u32());
  std::vector<uint8_t> four{0xC0, 0, 0};
  auto r4 = reader(four);
  EXPECT_FALSE(r4.compressed_u32());
}

}  // namespace
}  // namespace cil
