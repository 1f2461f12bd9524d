// Tiny and fat headers, small and fat EH sections, chained sections (II.25.4).
#include <gtest/gtest.h>

#include <vector>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "support/le_bytes.h"

namespace cil::il {
namespace {

Expected<MethodBody> parse(const std::vector<uint8_t>& bytes) {
  return parse_method_body(ByteReader(bytes, 0x400, "method body"));
}

using testing::put16;
using testing::put32;

std::vector<uint8_t> fat_header(uint16_t flags, uint16_t max_stack, uint32_t code_size, uint32_t locals) {
  std::vector<uint8_t> b;
  put16(b, static_cast<uint16_t>(0x3000 | flags | kFatFormat));
  put16(b, max_stack);
  put32(b, code_size);
  put32(b, locals);
  return b;
}

TEST(MethodBody, TinyHeaderEverySize) {
  for (uint32_t size = 0; size <= kTinyMaxCodeSize; ++size) {
    std::vector<uint8_t> b{static_cast<uint8_t>((size << 2) | kTinyFormat)};
    b.resize(1 + size, 0x00);  // nops
    auto body = parse(b);
    ASSERT_TRUE(body) << size;
    EXPECT_FALSE(body->fat);
    EXPECT_EQ(body->code_size, size);
    EXPECT_EQ(body->max_stack, 8);
    EXPECT_FALSE(body->local_sig_token);
    EXPECT_FALSE(body->init_locals());
    EXPECT_EQ(body->total_size, 1 + size);
    EXPECT_EQ(body->code_file_offset, 0x401u);
  }
}

TEST(MethodBody, TinyCodePastEndIsAnError) {
  std::vector<uint8_t> b{static_cast<uint8_t>((10 << 2) | kTinyFormat), 0, 0};
  auto body = parse(b);
  ASSERT_FALSE(body);
  EXPECT_EQ(body.error().offset, 0x401u);
}

TEST(MethodBody, FatHeader) {
  auto b = fat_header(kInitLocals, 5, 2, 0x11000003);
  b.push_back(0x00);
  b.push_back(0x2A);
  auto body = parse(b);
  ASSERT_TRUE(body);
  EXPECT_TRUE(body->fat);
  EXPECT_EQ(body->header_size, 12);
  EXPECT_EQ(body->max_stack, 5);
  EXPECT_EQ(body->code_size, 2u);
  EXPECT_EQ(body->local_sig_token, md::Token(0x11000003));
  EXPECT_TRUE(body->init_locals());
  EXPECT_EQ(body->total_size, 14u);
}

TEST(MethodBody, InvalidHeaderByte) {
  for (uint8_t first : {0x00, 0x01, 0x04, 0x05}) {
    std::vector<uint8_t> b{first, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    EXPECT_FALSE(parse(b)) << int(first);
  }
  auto b = fat_header(0, 1, 0, 0);
  b[1] = 0x20;  // size nibble 2: smaller than a fat header
  EXPECT_FALSE(parse(b));
}

TEST(MethodBody, SmallEhSection) {
  auto b = fat_header(kMoreSects, 2, 6, 0);
  b.insert(b.end(), {0, 0, 0, 0, 0, 0x2A});
  b.resize(20, 0);  // align to 4 from the header start (12 + 6 -> 20)
  b.push_back(kSectEhTable);
  b.push_back(4 + 2 * 12);
  put16(b, 0);
  // catch clause
  put16(b, 0); put16(b, 1); b.push_back(2); put16(b, 3); b.push_back(1); put32(b, 0x01000007);
  // finally clause
  put16(b, 2); put16(b, 0); b.push_back(4); put16(b, 4); b.push_back(1); put32(b, 0);
  auto body = parse(b);
  ASSERT_TRUE(body);
  ASSERT_EQ(body->clauses.size(), 2u);
  EXPECT_EQ(body->clauses[0].kind, ClauseKind::Catch);
  EXPECT_EQ(body->clauses[0].try_offset, 1u);
  EXPECT_EQ(body->clauses[0].try_length, 2u);
  EXPECT_EQ(body->clauses[0].handler_offset, 3u);
  EXPECT_EQ(body->clauses[0].handler_length, 1u);
  EXPECT_EQ(body->clauses[0].class_token, md::Token(0x01000007));
  EXPECT_EQ(body->clauses[1].kind, ClauseKind::Finally);
  ASSERT_EQ(body->sections.size(), 1u);
  EXPECT_FALSE(body->sections[0].fat);
  EXPECT_EQ(body->total_size, b.size());
}

TEST(MethodBody, FatAndChainedEhSections) {
  auto b = fat_header(kMoreSects, 2, 4, 0);
  b.insert(b.end(), {0, 0, 0, 0x2A});  // 16 bytes: already aligned
  // first: fat section with a filter and a fault, MoreSects set
  b.push_back(kSectEhTable | kSectFatFormat | kSectMoreSects);
  uint32_t size = 4 + 2 * 24;
  b.push_back(size & 0xFF); b.push_back((size >> 8) & 0xFF); b.push_back(size >> 16);
  put32(b, 1); put32(b, 0); put32(b, 1); put32(b, 2); put32(b, 1); put32(b, 1);      // filter at 1
  put32(b, 4); put32(b, 0); put32(b, 0x1000); put32(b, 0x2000); put32(b, 0x300); put32(b, 0);  // fault
  // second: small section with one catch
  b.push_back(kSectEhTable);
  b.push_back(4 + 12);
  put16(b, 0);
  put16(b, 0); put16(b, 0); b.push_back(1); put16(b, 1); b.push_back(1); put32(b, 0x02000002);
  auto body = parse(b);
  ASSERT_TRUE(body) << body.error().to_string();
  ASSERT_EQ(body->clauses.size(), 3u);
  EXPECT_EQ(body->clauses[0].kind, ClauseKind::Filter);
  EXPECT_EQ(body->clauses[0].filter_offset, 1u);
  EXPECT_EQ(body->clauses[1].kind, ClauseKind::Fault);
  EXPECT_EQ(body->clauses[1].try_length, 0x1000u);
  EXPECT_EQ(body->clauses[1].handler_offset, 0x2000u);
  EXPECT_EQ(body->clauses[2].class_token, md::Token(0x02000002));
  ASSERT_EQ(body->sections.size(), 2u);
  EXPECT_TRUE(body->sections[0].fat);
  EXPECT_FALSE(body->sections[1].fat);
  EXPECT_EQ(body->total_size, b.size());
}

TEST(MethodBody, BadEhSections) {
  auto base = fat_header(kMoreSects, 2, 4, 0);
  base.insert(base.end(), {0, 0, 0, 0x2A});
  {
    auto b = base;  // section runs past the end
    b.push_back(kSectEhTable);
    b.push_back(4 + 12);
    put16(b, 0);
    EXPECT_FALSE(parse(b));
  }
  {
    auto b = base;  // DataSize smaller than the section header
    b.push_back(kSectEhTable);
    b.push_back(2);
    put16(b, 0);
    EXPECT_FALSE(parse(b));
  }
  {
    auto b = base;  // unknown clause kind
    b.push_back(kSectEhTable);
    b.push_back(4 + 12);
    put16(b, 0);
    put16(b, 3); put16(b, 0); b.push_back(1); put16(b, 1); b.push_back(1); put32(b, 0);
    EXPECT_FALSE(parse(b));
  }
  {
    auto b = base;  // MoreSects but nothing follows
    EXPECT_FALSE(parse(b));
  }
}

// Regression (tests/fuzz/regressions/il/non-eh-section-reencoded-as-eh): a reserved (non-EH)
// section before the EH table was written back with the EH-table kind, so its bytes were read
// as clauses by the next reader.
TEST(MethodBody, NonEhSectionKeepsItsKindAndBytes) {
  auto b = fat_header(kMoreSects, 2, 4, 0);
  b.insert(b.end(), {0, 0, 0, 0x2A});
  b.push_back(kSectOptIlTable | kSectMoreSects);  // reserved kind, 16 bytes
  b.push_back(16);
  put16(b, 0);
  for (uint8_t i = 1; i <= 12; ++i) b.push_back(i);
  b.push_back(kSectEhTable);  // one finally clause
  b.push_back(4 + 12);
  put16(b, 0);
  put16(b, 2); put16(b, 0); b.push_back(1); put16(b, 1); b.push_back(2); put32(b, 0);
  auto body = parse(b);
  ASSERT_TRUE(body) << body.error().to_string();
  ASSERT_EQ(body->clauses.size(), 1u);
  ASSERT_EQ(body->sections.size(), 2u);
  EXPECT_EQ(body->sections[0].kind, kSectOptIlTable);
  EXPECT_EQ(body->sections[0].other_data.size(), 12u);
  auto code = decode_code(body->code, body->code_file_offset);
  ASSERT_TRUE(code);
  auto model = BodyModel::from(*body, *code);
  ASSERT_TRUE(model) << model.error().to_string();
  auto again = encode_body(*model);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(again->bytes, b);
  EXPECT_TRUE(again->map.is_identity());
}

}  // namespace
}  // namespace cil::il
