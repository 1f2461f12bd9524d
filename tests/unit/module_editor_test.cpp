// ModuleEditor's find-or-add of references (TypeRef, MemberRef, TypeSpec, StandAloneSig): a
// reference that the module already has, by value, is the module's row (the first of equal
// rows, whatever heap index spells its strings); a new one is appended once and found again.
// Checked on a synthetic module with the awkward rows and against a brute-force scan of
// real assemblies.
#include <gtest/gtest.h>

#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "support/synthetic_image.h"

namespace cil {
namespace {

using md::TableId;
using md::Token;
using testing::BlobBuilder;
using testing::StringsBuilder;
using testing::TablesBuilder;

std::span<const uint8_t> bytes_of(const std::vector<uint8_t>& v) { return v; }

struct RefModule {
  std::unique_ptr<md::Module> module;

  RefModule() {
    TablesBuilder tables;
    StringsBuilder strings;
    BlobBuilder blobs;
    const uint8_t sig_a[] = {0x00, 0x00, 0x01};        // default, no parameters, void
    const uint8_t sig_b[] = {0x00, 0x01, 0x01, 0x08};  // default, 1 parameter, void (int32)
    const uint8_t spec[] = {0x1D, 0x08};               // int32[]
    const uint8_t locals[] = {0x07, 0x01, 0x08};       // LOCAL_SIG, 1 local, int32
    uint32_t a = blobs.add(sig_a), b = blobs.add(sig_b), s = blobs.add(spec), l = blobs.add(locals);
    tables.add(TableId::Module, {0, strings.add("refs.dll"), 1, 0, 0});
    tables.add(TableId::TypeDef, {0, strings.add("<Module>"), 0, 0, 1, 1});
    tables.add(TableId::AssemblyRef, {4, 0, 0, 0, 0, 0, strings.add("System.Runtime"), 0, 0});
    // ResolutionScope coded index of AssemblyRef 1: (1 << 2) | 2.
    const uint32_t scope = (1 << 2) | 2;
    uint32_t object = strings.add("Object"), system = strings.add("System");
    tables.add(TableId::TypeRef, {scope, object, system});                    // 1
    tables.add(TableId::TypeRef, {scope, strings.add("Console"), system});    // 2
    tables.add(TableId::TypeRef, {scope, object, system});                    // 3: same as 1
    // 4: "bject", an index into the middle of "Object" (II.24.2.3 allows it)
    tables.add(TableId::TypeRef, {scope, object + 1, system});
    // MemberRefParent coded index of TypeRef n: (n << 3) | 1.
    uint32_t ctor = strings.add(".ctor"), write = strings.add("WriteLine");
    tables.add(TableId::MemberRef, {(1 << 3) | 1, ctor, a});    // 1: Object::.ctor()
    tables.add(TableId::MemberRef, {(2 << 3) | 1, write, a});   // 2: Console::WriteLine()
    tables.add(TableId::MemberRef, {(2 << 3) | 1, write, b});   // 3: Console::WriteLine(int32)
    tables.add(TableId::MemberRef, {(2 << 3) | 1, write, b});   // 4: same as 3
    tables.add(TableId::TypeSpec, {s});
    tables.add(TableId::StandAloneSig, {l});
    auto parsed = md::Module::parse(testing::pe_image(testing::metadata_root(tables, strings, blobs)));
    if (!parsed) ADD_FAILURE() << parsed.error().to_string();
    else module = std::move(*parsed);
  }
};

Token assembly_ref_1() { return md::make_token(TableId::AssemblyRef, 1); }
Token type_ref(uint32_t rid) { return md::make_token(TableId::TypeRef, rid); }
Token member_ref(uint32_t rid) { return md::make_token(TableId::MemberRef, rid); }

TEST(ModuleEditorRefs, FindsTheFirstEqualRowAndAddsNewOnesOnce) {
  RefModule fixture;
  ASSERT_TRUE(fixture.module);
  md::ModuleEditor editor(*fixture.module);
  // Existing rows, by value: the first of two equal rows.
  EXPECT_EQ(*editor.type_ref(assembly_ref_1(), "System", "Object"), type_ref(1));
  EXPECT_EQ(*editor.type_ref(assembly_ref_1(), "System", "Console"), type_ref(2));
  const std::vector<uint8_t> sig_a{0x00, 0x00, 0x01}, sig_b{0x00, 0x01, 0x01, 0x08};
  EXPECT_EQ(*editor.member_ref(type_ref(1), ".ctor", bytes_of(sig_a)), member_ref(1));
  EXPECT_EQ(*editor.member_ref(type_ref(2), "WriteLine", bytes_of(sig_a)), member_ref(2));
  EXPECT_EQ(*editor.member_ref(type_ref(2), "WriteLine", bytes_of(sig_b)), member_ref(3));
  EXPECT_EQ(*editor.type_spec(std::vector<uint8_t>{0x1D, 0x08}), md::make_token(TableId::TypeSpec, 1));
  EXPECT_EQ(*editor.standalone_sig(std::vector<uint8_t>{0x07, 0x01, 0x08}), md::make_token(TableId::StandAloneSig, 1));
  EXPECT_EQ(editor.rows(TableId::TypeRef), 4u);
  EXPECT_EQ(editor.rows(TableId::MemberRef), 4u);

  // A parent, name or signature that differs in one column is another reference.
  Token interlocked = *editor.type_ref(assembly_ref_1(), "System.Threading", "Interlocked");
  EXPECT_EQ(interlocked, type_ref(5));
  Token object_ctor_on_console = *editor.member_ref(type_ref(2), ".ctor", bytes_of(sig_a));
  EXPECT_EQ(object_ctor_on_console, member_ref(5));
  Token write_int64 = *editor.member_ref(type_ref(2), "WriteLine", std::vector<uint8_t>{0x00, 0x01, 0x01, 0x0A});
  EXPECT_EQ(write_int64, member_ref(6));
  // Added rows are found again rather than added twice.
  EXPECT_EQ(*editor.type_ref(assembly_ref_1(), "System.Threading", "Interlocked"), interlocked);
  EXPECT_EQ(*editor.member_ref(type_ref(2), ".ctor", bytes_of(sig_a)), object_ctor_on_console);
  EXPECT_EQ(editor.rows(TableId::TypeRef), 5u);
  EXPECT_EQ(editor.rows(TableId::MemberRef), 6u);
  // A name that starts inside another string is found by what it spells.
  EXPECT_EQ(*editor.type_ref(assembly_ref_1(), "System", "bject"), type_ref(4));
  EXPECT_EQ(*editor.type_ref(assembly_ref_1(), "System", ""), type_ref(6));
}

TEST(ModuleEditorRefs, EveryReferenceOfRealAssembliesIsItsFirstEqualRow) {
  for (const char* name : {"Basics.dll", "Generics.dll", "Interop.dll", "mono/MonoMisc.exe", "il/IlOps.exe"}) {
    SCOPED_TRACE(name);
    auto loaded = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
    ASSERT_TRUE(loaded) << loaded.error().to_string();
    const md::Module& m = **loaded;
    md::ModuleEditor editor(m);
    const md::TablesStream& t = m.tables();
    // TypeRef: the first row with the same scope, name and namespace (a brute-force scan).
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeRef); ++rid) {
      auto row = m.row<TableId::TypeRef>(rid);
      Token scope = t.decode(md::CodedIndex::ResolutionScope, t.get(TableId::TypeRef, rid, 0));
      if (!scope) continue;  // a nil scope is no reference the editor makes
      uint32_t first = rid;
      for (uint32_t other = 1; other < rid; ++other) {
        auto o = m.row<TableId::TypeRef>(other);
        if (t.get(TableId::TypeRef, other, 0) == t.get(TableId::TypeRef, rid, 0) && o.type_name() == row.type_name() &&
            o.type_namespace() == row.type_namespace()) {
          first = other;
          break;
        }
      }
      auto found = editor.type_ref(scope, row.type_namespace(), row.type_name());
      ASSERT_TRUE(found) << found.error().to_string();
      EXPECT_EQ(*found, type_ref(first)) << "TypeRef " << rid;
    }
    // MemberRef: the same, with the signature's bytes.
    for (uint32_t rid = 1; rid <= t.rows(TableId::MemberRef); ++rid) {
      auto row = m.row<TableId::MemberRef>(rid);
      Token parent = t.decode(md::CodedIndex::MemberRefParent, t.get(TableId::MemberRef, rid, 0));
      auto sig = row.signature();
      ASSERT_TRUE(sig);
      uint32_t first = rid;
      for (uint32_t other = 1; other < rid; ++other) {
        auto o = m.row<TableId::MemberRef>(other);
        auto osig = o.signature();
        if (t.get(TableId::MemberRef, other, 0) == t.get(TableId::MemberRef, rid, 0) && o.name() == row.name() && osig &&
            std::equal(osig->begin(), osig->end(), sig->begin(), sig->end())) {
          first = other;
          break;
        }
      }
      auto found = editor.member_ref(parent, row.name(), *sig);
      ASSERT_TRUE(found) << found.error().to_string();
      EXPECT_EQ(*found, member_ref(first)) << "MemberRef " << rid;
    }
    // Nothing was added: every reference was the module's own.
    EXPECT_EQ(editor.rows(TableId::TypeRef), t.rows(TableId::TypeRef));
    EXPECT_EQ(editor.rows(TableId::MemberRef), t.rows(TableId::MemberRef));
  }
}

}  // namespace
}  // namespace cil
