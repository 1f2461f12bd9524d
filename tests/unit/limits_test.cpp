// Every documented cap on a count or size read from a file (man page, LIMITS), each tried just
// over the cap, and the loops that cyclic or unsorted metadata must not make endless or
// quadratic, measured in work done (bytes allocated, layout passes), never in wall-clock time.
// The inputs are synthetic images from tests/support.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

#include "il/body_encoder.h"
#include "il/body_model.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "metadata/metadata.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "pe/embedded_pdb.h"
#include "metadata/printer.h"
#include "metadata/signature.h"
#include "pe/debug_directory.h"
#include "support/file_io.h"
#include "pe/pe_image.h"
#include "support/allocation_meter.h"
#include "support/synthetic_image.h"
#include "support/le_bytes.h"

namespace cil {
namespace {

using md::TableId;
using testing::BlobBuilder;
using testing::StringsBuilder;
using testing::TablesBuilder;

using testing::put16;
using testing::put32;

/// A module with one type and one method, for tests that add rows to it.
struct MiniModule {
  TablesBuilder tables;
  StringsBuilder strings;
  BlobBuilder blobs;
  MiniModule() {
    tables.add(TableId::Module, {0, strings.add("m.dll"), 0, 0, 0});
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

TEST(Limits, InputFileSize) {
  // A sparse file one byte over the cap: refused from its size, before any byte is read.
  auto path = std::filesystem::temp_directory_path() / fmt::format("cil-limit-{}.dll", ::getpid());
  int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  bool sized = ::ftruncate(fd, static_cast<off_t>(kMaxInputSize) + 1) == 0;
  ::close(fd);
  if (!sized) {
    std::filesystem::remove(path);
    GTEST_SKIP() << "no sparse files here";
  }
  auto bytes = read_file(path.string());
  std::filesystem::remove(path);
  expect_limit(bytes);
}

TEST(Limits, PdbSize) {
  // A standalone PDB: refused from its size (a sparse file one byte over the cap), before it is read.
  auto path = std::filesystem::temp_directory_path() / fmt::format("cil-limit-{}.pdb", ::getpid());
  int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  bool sized = ::ftruncate(fd, static_cast<off_t>(md::kMaxPdbSize) + 1) == 0;
  ::close(fd);
  if (sized) {
    auto bytes = read_file(path.string(), md::kMaxPdbSize);
    expect_limit(bytes);
  }
  std::filesystem::remove(path);
  // An embedded PDB: its declared size one byte over the cap, refused before anything is inflated.
  std::vector<uint8_t> payload;
  put32(payload, pe::kEmbeddedPdbSignature);
  put32(payload, pe::kMaxEmbeddedPdbSize + 1);
  payload.resize(64, 0);
  expect_limit(pe::inflate_embedded_pdb(payload, 0));
}

TEST(Limits, Sections) {
  MiniModule m;
  auto image = testing::pe_image(testing::metadata_root(m.tables, m.strings, m.blobs));
  store_le<uint16_t>(image.data() + testing::kCoffOffset + 2, pe::kMaxSections + 1);
  expect_limit(pe::PeImage::parse(image));
}

TEST(Limits, DebugDirectoryEntries) {
  MiniModule m;
  auto metadata = testing::metadata_root(m.tables, m.strings, m.blobs);
  uint32_t size = (pe::kMaxDebugEntries + 1) * pe::kDebugEntrySize;
  auto image = testing::pe_image(metadata, {}, size);
  uint32_t rva = testing::kCodeRva + static_cast<uint32_t>(metadata.size());
  store_le<uint32_t>(image.data() + testing::kDirectoriesOffset + pe::kDebugDirectory * 8, rva);
  store_le<uint32_t>(image.data() + testing::kDirectoriesOffset + pe::kDebugDirectory * 8 + 4, size);
  auto pe = pe::PeImage::parse(image);
  ASSERT_TRUE(pe) << pe.error().to_string();
  expect_limit(pe::read_debug_directory(*pe));
  store_le<uint32_t>(image.data() + testing::kDirectoriesOffset + pe::kDebugDirectory * 8 + 4, size - pe::kDebugEntrySize);
  auto at_cap = pe::PeImage::parse(image);
  EXPECT_TRUE(pe::read_debug_directory(*at_cap));  // 64 empty entries
}

TEST(Limits, Streams) {
  MiniModule m;
  std::vector<testing::Stream> streams{{"#~", m.tables.build()}, {"#Strings", m.strings.data}};
  while (streams.size() < md::kMaxStreams) streams.push_back({"#Extra", {0, 0, 0, 0}});
  auto at_cap = md::Module::parse(testing::pe_image(testing::metadata_root(streams)));
  EXPECT_TRUE(at_cap) << at_cap.error().to_string();
  streams.push_back({"#Extra", {0, 0, 0, 0}});
  expect_limit(md::Module::parse(testing::pe_image(testing::metadata_root(streams))));
}

TEST(Limits, VersionString) {
  std::vector<uint8_t> root;
  put32(root, md::kMetadataSignature);
  put16(root, 1);
  put16(root, 1);
  put32(root, 0);
  put32(root, md::kMaxVersionLength + 1);
  root.resize(root.size() + 260, 'v');
  expect_limit(md::Metadata::parse(ByteReader(root, 0, "metadata root")));
}

TEST(Limits, RowsPerTable) {
  MiniModule m;
  m.tables.claim(TableId::TypeRef, md::kMaxRows + 1);
  expect_limit(m.parse());
}

TEST(Limits, TablesAndHeapsStayInsideTheirStreams) {
  // Memory stays proportional to the input: rows are allocated for only after every table is
  // found to fit in the #~ stream, and every stream must lie inside the metadata, which lies in
  // the file. A claim of 16M rows in a few bytes is refused at once.
  MiniModule m;
  m.tables.claim(TableId::MethodDef, md::kMaxRows);
  auto image = testing::pe_image(testing::metadata_root(m.tables, m.strings, m.blobs));
  std::optional<Expected<std::unique_ptr<md::Module>>> module;
  size_t allocated = testing::bytes_allocated_by([&] { module = md::Module::parse(image); });
  ASSERT_FALSE(*module);
  EXPECT_EQ(module->error().kind, ErrorKind::Format);
  EXPECT_NE(module->error().message.find("runs past the end of the stream"), std::string::npos) << module->error().message;
  // The work done, not the time: 16M rows would take hundreds of megabytes of owner maps.
  EXPECT_LT(allocated, size_t{1} << 20) << "bytes allocated before the refusal";

  auto root = testing::metadata_root(m.tables, m.strings, m.blobs);
  // The first stream header's size field (after a 32-byte root header with a 12-byte version).
  store_le<uint32_t>(root.data() + 36, 0x7FFFFFFF);
  auto heap = md::Module::parse(testing::pe_image(root));
  ASSERT_FALSE(heap);
  EXPECT_NE(heap.error().message.find("lies outside the metadata"), std::string::npos) << heap.error().message;
}

std::vector<uint8_t> fat_body(uint32_t code_size, uint16_t flags = 0) {
  std::vector<uint8_t> b;
  put16(b, static_cast<uint16_t>(0x3000 | il::kFatFormat | flags));
  put16(b, 8);
  put32(b, code_size);
  put32(b, 0);
  return b;
}

TEST(Limits, CodeSize) {
  // Refused from the header alone: the bytes need not exist.
  auto b = fat_body(il::kMaxCodeSize + 1);
  b.push_back(0x2A);
  expect_limit(il::parse_method_body(ByteReader(b, 0, "method body")));
  auto at_cap = fat_body(il::kMaxCodeSize);
  at_cap.resize(at_cap.size() + il::kMaxCodeSize, 0x00);
  EXPECT_TRUE(il::parse_method_body(ByteReader(at_cap, 0, "method body")));
}

std::vector<uint8_t> body_with_clauses(uint32_t clauses) {
  auto b = fat_body(4, il::kMoreSects);
  b.insert(b.end(), {0, 0, 0, 0x2A});
  uint32_t size = 4 + clauses * 24;
  b.push_back(il::kSectEhTable | il::kSectFatFormat);
  b.push_back(static_cast<uint8_t>(size));
  b.push_back(static_cast<uint8_t>(size >> 8));
  b.push_back(static_cast<uint8_t>(size >> 16));
  for (uint32_t i = 0; i < clauses; ++i) {
    put32(b, 2);  // finally
    put32(b, 0);
    put32(b, 1);
    put32(b, 1);
    put32(b, 1);
    put32(b, 0);
  }
  return b;
}

TEST(Limits, EhClausesPerMethod) {
  auto at_cap = body_with_clauses(il::kMaxEhClauses);
  auto body = il::parse_method_body(ByteReader(at_cap, 0, "method body"));
  ASSERT_TRUE(body) << body.error().to_string();
  EXPECT_EQ(body->clauses.size(), il::kMaxEhClauses);
  auto over = body_with_clauses(il::kMaxEhClauses + 1);
  expect_limit(il::parse_method_body(ByteReader(over, 0, "method body")));
}

TEST(Limits, EhSectionsPerMethod) {
  auto b = fat_body(4, il::kMoreSects);
  b.insert(b.end(), {0, 0, 0, 0x2A});
  for (uint32_t i = 0; i <= il::kMaxEhSections; ++i) {
    b.push_back(il::kSectEhTable | il::kSectMoreSects);  // empty small sections
    b.push_back(4);
    put16(b, 0);
  }
  expect_limit(il::parse_method_body(ByteReader(b, 0, "method body")));
}

TEST(Limits, SignatureDepth) {
  auto nested = [](unsigned levels) {
    std::vector<uint8_t> b{md::kSigField};
    b.insert(b.end(), levels, static_cast<uint8_t>(md::ElementType::SzArray));
    b.push_back(static_cast<uint8_t>(md::ElementType::I4));
    return b;
  };
  auto at_cap = nested(md::kMaxSignatureDepth);
  EXPECT_TRUE(md::decode_field_sig(ByteReader(at_cap, 0, "signature")));
  auto over = nested(md::kMaxSignatureDepth + 1);
  expect_limit(md::decode_field_sig(ByteReader(over, 0, "signature")));
}

TEST(Limits, NestedTypeDepthAndCycles) {
  MiniModule m;
  uint32_t name = m.strings.add("T");
  const uint32_t types = md::kMaxNestingDepth + 10;
  for (uint32_t i = 0; i < types; ++i) m.tables.add(TableId::TypeDef, {0, name, 0, 0, 1, 1});
  // 2 in 3 in 4 ... in the last (a chain deeper than the cap), and a two-type cycle after it.
  for (uint32_t rid = 2; rid < types + 1; ++rid) m.tables.add(TableId::NestedClass, {rid, rid + 1});
  uint32_t a = m.tables.add(TableId::TypeDef, {0, name, 0, 0, 1, 1});
  uint32_t b = m.tables.add(TableId::TypeDef, {0, name, 0, 0, 1, 1});
  m.tables.add(TableId::NestedClass, {a, b});
  m.tables.add(TableId::NestedClass, {b, a});
  auto module = m.parse();
  ASSERT_TRUE(module) << module.error().to_string();
  md::Printer printer(**module);
  EXPECT_EQ(printer.type_def_name(md::TypeDefId(2)).rfind("<nesting too deep>/", 0), 0u) << printer.type_def_name(md::TypeDefId(2));
  std::string shallow = printer.type_def_name(md::TypeDefId(types + 1 - 3));  // three levels
  EXPECT_EQ(shallow, "T/T/T/T");
  EXPECT_EQ(printer.type_def_name(md::TypeDefId(a)).rfind("<nesting too deep>/", 0), 0u);
  EXPECT_FALSE(printer.type_token(md::make_token(TableId::TypeDef, b)).empty());
}

TEST(Limits, TypeSpecCycles) {
  MiniModule m;
  // TypeSpec 1 is List<TypeSpec 2>, TypeSpec 2 is List<TypeSpec 1>.
  uint32_t list = m.tables.add(TableId::TypeRef, {0, m.strings.add("List`1"), m.strings.add("Ns")});
  for (uint32_t other : {2u, 1u}) {
    std::vector<uint8_t> sig{0x15, 0x12, static_cast<uint8_t>(list << 2 | 1), 1, 0x12,
                             static_cast<uint8_t>(other << 2 | 2)};
    m.tables.add(TableId::TypeSpec, {m.blobs.add(sig)});
  }
  auto module = m.parse();
  ASSERT_TRUE(module) << module.error().to_string();
  md::Printer printer(**module);
  std::string text = printer.type_token(md::make_token(TableId::TypeSpec, 1));
  EXPECT_NE(text.find("<recursive TypeSpec 0x1B000001>"), std::string::npos) << text;
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
  std::string text;
  size_t allocated = testing::bytes_allocated_by([&] { text = printer.type_token(md::make_token(TableId::TypeSpec, 1)); });
  // Uncut, the text would be 2^30 times the innermost name; cut, each of the 31 levels makes
  // a few texts of at most the cap.
  EXPECT_LT(allocated, size_t{levels} * 16 * md::kMaxPrintedText) << "bytes allocated to print the TypeSpec";
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
  std::string text = printer.user_string(md::Token(0x70000001));
  EXPECT_LE(text.size(), md::kMaxPrintedText + 8);
  EXPECT_EQ(text.substr(text.size() - 4), "\"...");
}

TEST(Limits, BranchWideningCascadeStaysLinear) {
  // br.s 1 jumps far and must widen; br.s k jumps back over br.s k-1 by exactly 128 bytes, so it
  // must widen once br.s k-1 has. One pass per branch made this quadratic (seconds for 3,000
  // branches, hours for a 16 MiB body); after 64 passes the rest are widened at once.
  il::BodyModel model;
  const int chain = 3000;
  std::vector<uint32_t> before;  // id of the nop before each branch
  for (int k = 1; k <= chain; ++k) {
    il::Instr nop = model.make(il::Op::Nop);
    before.push_back(nop.id);
    model.instrs.push_back(nop);
    uint32_t target = k == 1 ? il::kEndLabel : before[k - 2];
    model.instrs.push_back(model.make_branch(il::Op::Br_S, target));
    for (int i = 0; i < 122; ++i) model.instrs.push_back(model.make(il::Op::Nop));
  }
  model.instrs.push_back(model.make(il::Op::Ret));
  model.edited = true;
  auto encoded = il::encode_body(model);
  ASSERT_TRUE(encoded) << encoded.error().to_string();
  // Work done, not time (a 2 s limit failed under ASan on a loaded machine): one pass per
  // branch would be 3,000 passes over 378,000 instructions; the cap ends it after 64 (and one
  // more pass to see that nothing changes).
  EXPECT_LE(encoded->layout_passes, il::kMaxLayoutPasses + 1);
  EXPECT_GE(encoded->layout_passes, il::kMaxLayoutPasses) << "the chain should need the cap";
  auto body = il::parse_method_body(ByteReader(encoded->bytes, 0, "method body"));
  ASSERT_TRUE(body) << body.error().to_string();
  auto code = il::decode_code(body->code, 0);
  ASSERT_TRUE(code) << code.error().to_string();
  // Every branch still lands on the nop before the previous branch (or on the end).
  const auto& ins = code->instructions;
  size_t branches = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (!il::is_branch_operand(ins[i].info().operand)) continue;
    int64_t expected = branches == 0 ? int64_t{body->code_size} : int64_t{ins[i - 125].offset};
    ASSERT_EQ(ins[i].value, expected) << "branch " << branches;
    ++branches;
  }
  EXPECT_EQ(branches, size_t{chain});
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
  EXPECT_EQ(mod.methods_of(md::TypeDefId(1)), (std::vector<md::MethodDefId>{md::MethodDefId(1), md::MethodDefId(2)}));
  EXPECT_EQ(mod.methods_of(md::TypeDefId(2)), std::vector<md::MethodDefId>{});
  EXPECT_EQ(mod.methods_of(md::TypeDefId(3)), std::vector<md::MethodDefId>{});
  EXPECT_EQ(mod.methods_of(md::TypeDefId(4)), (std::vector<md::MethodDefId>{md::MethodDefId(3), md::MethodDefId(4)}));
  EXPECT_EQ(mod.method_owner(md::MethodDefId(2)), md::TypeDefId(1));
  EXPECT_EQ(mod.method_owner(md::MethodDefId(3)), md::TypeDefId(4));
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
  size_t total = 0;
  size_t allocated = testing::bytes_allocated_by([&] {
    for (uint32_t rid = 1; rid <= methods; ++rid) total += printer.method_header(md::MethodDefId(rid)).size();
  });
  EXPECT_GT(total, 0u);
  // 65,535 empty names a line were 2 MB a method (40 GB here); one name is a few hundred bytes.
  EXPECT_LT(allocated, size_t{methods} * 2048) << "bytes allocated for the .method lines";
}

}  // namespace
}  // namespace cil
