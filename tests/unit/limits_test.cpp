// Every documented cap on a count or size read from a file (man page, LIMITS), each tried just
// over the cap, and the loops that cyclic or unsorted metadata must not make endless or
// quadratic. The inputs are synthetic images from tests/support.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

#include "il/method_body.h"
#include "metadata/metadata.h"
#include "metadata/module.h"
#include "metadata/printer.h"
#include "metadata/signature.h"
#include "pe/debug_directory.h"
#include "pe/file_io.h"
#include "pe/pe_image.h"
#include "support/synthetic_image.h"

namespace cil {
namespace {

using md::TableId;
using testing::BlobBuilder;
using testing::StringsBuilder;
using testing::TablesBuilder;

/// A module with one type and one method, for tests that add rows to it.
struct MiniModule {
  TablesBuilder tables;
  StringsBuilder strings;
  BlobBuilder blobs;
  MiniModule() {
    tables.add(TableId::Module, {0, strings.add("m.dll"), 1, 0, 0});
    tables.add(TableId::TypeDef, {0, strings.add("<Module>"), 0, 0, 1, 1});
  }
  Expected<std::unique_ptr<md::Module>> parse() const {
    return md::Module::parse(testing::pe_image(testing::metadata_root(tables, strings, blobs)));
  }
};

template <class T>
void expect_limit(const Expected<T>& result) {
  ASSERT_FALSE(result) << "accepted";
  EXPECT_EQ(result.error().kind, ErrorKind::Limit) << result.error().to_string();
}

TEST(Limits, SyntheticModuleReads) {
  MiniModule m;
  auto module = m.parse();
  ASSERT_TRUE(module) << module.error().to_string();
  EXPECT_EQ((*module)->tables().rows(TableId::TypeDef), 1u);
}

TEST(Limits, PrintedTextOfDoublingTypeSpecs) {
  // TypeSpec k is Pair<TypeSpec k+1, TypeSpec k+1>: the full name of TypeSpec 1 would double 30
  // times (gigabytes from a 300-byte file). Every printed text is cut at kMaxPrintedText.
  MiniModule m;
  uint32_t pair = m.tables.add(TableId::TypeRef, {0, m.strings.add("Pair`2"), m.strings.add("Ns")});
  const uint32_t levels = 31;  // rids up to 31 fit one-byte coded indexes
  for (uint32_t k = 1; k <= levels; ++k) {
    auto next = static_cast<uint8_t>((k + 1) << 2 | 2);
    std::vector<uint8_t> sig{0x15, 0x12, static_cast<uint8_t>(pair << 2 | 1), 2, 0x12, next, 0x12, next};
    if (k == levels) sig = {0x08};
    m.tables.add(TableId::TypeSpec, {m.blobs.add(sig)});
  }
  auto module = m.parse();
  ASSERT_TRUE(module) << module.error().to_string();
  md::Printer printer(**module);
  auto started = std::chrono::steady_clock::now();
  std::string text = printer.type_token(md::make_token(TableId::TypeSpec, 1));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_LE(text.size(), md::kMaxPrintedText + 3);
  EXPECT_EQ(text.substr(text.size() - 3), "...");
  EXPECT_EQ(printer.type_token(md::make_token(TableId::TypeSpec, levels - 1)), "class Ns.Pair`2<class int32,class int32>");
}

TEST(Limits, PrintedTextOfHugeUserString) {
  MiniModule m;
  std::vector<uint8_t> us{0};
  const uint32_t units = 100000;
  std::vector<uint8_t> blob(units * 2 + 1, 0);
  for (uint32_t i = 0; i < units; ++i) blob[2 * i] = 'a';
  uint32_t length = static_cast<uint32_t>(blob.size());
  us.push_back(static_cast<uint8_t>(0xC0 | (length >> 24)));
  us.push_back(static_cast<uint8_t>(length >> 16));
  us.push_back(static_cast<uint8_t>(length >> 8));
  us.push_back(static_cast<uint8_t>(length));
  us.insert(us.end(), blob.begin(), blob.end());
  auto root = testing::metadata_root({{"#~", m.tables.build()}, {"#Strings", m.strings.data}, {"#US", us}});
  auto module = md::Module::parse(testing::pe_image(root));
  ASSERT_TRUE(module) << module.error().to_string();
  md::Printer printer(**module);
  std::string text = printer.user_string(0x70000001);
  EXPECT_LE(text.size(), md::kMaxPrintedText + 8);
  EXPECT_EQ(text.substr(text.size() - 4), "\"...");
}

TEST(Limits, UnsortedListsStayDisjoint) {
  // MethodList 1 (<Module>), 3, 1, 3: ECMA-335 lists are sorted; read as a running maximum, no
  // type owns methods that an earlier type owns, so walking every type's list stays linear
  // (before, every other type of a 1, N, 1, N... column owned N methods).
  MiniModule m;
  uint32_t name = m.strings.add("M");
  for (int i = 0; i < 4; ++i) m.tables.add(TableId::MethodDef, {0, 0, 0, name, 0, 1});
  m.tables.add(TableId::TypeDef, {0, name, 0, 0, 1, 3});
  m.tables.add(TableId::TypeDef, {0, name, 0, 0, 1, 1});
  m.tables.add(TableId::TypeDef, {0, name, 0, 0, 1, 3});
  auto module = m.parse();
  ASSERT_TRUE(module) << module.error().to_string();
  const md::Module& mod = **module;
  EXPECT_EQ(mod.methods_of(1), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(mod.methods_of(2), std::vector<uint32_t>{});
  EXPECT_EQ(mod.methods_of(3), std::vector<uint32_t>{});
  EXPECT_EQ(mod.methods_of(4), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(mod.method_owner(2), 1u);
  EXPECT_EQ(mod.method_owner(3), 4u);
}

TEST(Limits, ParamSequenceDoesNotSizeTheNameList) {
  // Each method owns one Param whose Sequence is 0xFFFF: the .method line needs names only for
  // the parameters its signature has (before, each line built 65,535 empty names).
  MiniModule m;
  uint32_t name = m.strings.add("p");
  std::vector<uint8_t> sig{0x00, 1, 0x01, 0x08};  // void (int32)
  uint32_t blob = m.blobs.add(sig);
  const uint32_t methods = 20000;
  for (uint32_t i = 1; i <= methods; ++i) {
    m.tables.add(TableId::MethodDef, {0, 0, 0, name, blob, i});
    m.tables.add(TableId::Param, {0, 0xFFFF, name});
  }
  auto module = m.parse();
  ASSERT_TRUE(module) << module.error().to_string();
  md::Printer printer(**module);
  auto started = std::chrono::steady_clock::now();
  size_t total = 0;
  for (uint32_t rid = 1; rid <= methods; ++rid) total += printer.method_header(rid).size();
  EXPECT_GT(total, 0u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
}

}  // namespace
}  // namespace cil
