// The uncompressed tables stream (#-) with its indirection tables: TypeDef.MethodList and
// FieldList, and MethodDef.ParamList, index MethodPtr, FieldPtr and ParamPtr, whose rows name
// the real rows in any order (II.24.2.6; what edit-and-continue writers emit). ENCLog and
// ENCMap rows are read as tables like any other. No compiler at hand emits Ptr rows, so the
// module is synthetic.
#include <gtest/gtest.h>

#include "metadata/metadata.h"
#include "metadata/module.h"
#include "metadata/printer.h"
#include "support/synthetic_image.h"

namespace cil {
namespace {

using md::TableId;
using testing::BlobBuilder;
using testing::StringsBuilder;
using testing::TablesBuilder;

struct PtrModule {
  std::unique_ptr<md::Module> module;

  explicit PtrModule(bool with_ptr_tables) {
    TablesBuilder tables;
    StringsBuilder strings;
    BlobBuilder blobs;
    const uint8_t method_sig[] = {0x00, 0x01, 0x01, 0x08};  // default, 1 parameter, void (int32)
    const uint8_t field_sig[] = {0x06, 0x08};               // field int32
    uint32_t msig = blobs.add(method_sig), fsig = blobs.add(field_sig);
    tables.add(TableId::Module, {0, strings.add("ptr.dll"), 1, 0, 0});
    // <Module> owns list entry 1 of methods and fields; Ns.T owns entries 2 and 3.
    tables.add(TableId::TypeDef, {0, strings.add("<Module>"), 0, 0, 1, 1});
    tables.add(TableId::TypeDef, {0x100001, strings.add("T"), strings.add("Ns"), 0, 2, 2});
    // Physical order: First, Second, Third. Through the Ptr tables the lists are
    // <Module>: Third; Ns.T: First, Second (and the same for fields and parameters).
    const char* names[] = {"First", "Second", "Third"};
    for (uint32_t i = 0; i < 3; ++i) {
      // abstract (0x0400) + virtual, so that no body is needed; parameter list i+1 (or Ptr)
      tables.add(TableId::MethodDef, {0, 0, 0x0446, strings.add(names[i]), msig, i + 1});
      tables.add(TableId::Field, {0x0016, strings.add(std::string("f") + names[i]), fsig});
      tables.add(TableId::Param, {0, 1, strings.add(std::string("p") + names[i])});
    }
    if (with_ptr_tables) {
      for (uint32_t target : {3u, 1u, 2u}) {
        tables.add(TableId::MethodPtr, {target});
        tables.add(TableId::FieldPtr, {target});
        tables.add(TableId::ParamPtr, {target});
      }
      tables.add(TableId::ENCLog, {0x06000001, 0});
      tables.add(TableId::ENCLog, {0x04000002, 0});
      tables.add(TableId::ENCMap, {0x06000001});
    }
    std::vector<testing::Stream> streams = {
        {"#-", tables.build()}, {"#Strings", strings.data}, {"#US", {0}},
        {"#GUID", std::vector<uint8_t>(16, 0xAB)}, {"#Blob", blobs.data}};
    auto parsed = md::Module::parse(testing::pe_image(testing::metadata_root(streams)));
    if (!parsed) ADD_FAILURE() << parsed.error().to_string();
    else module = std::move(*parsed);
  }
};

TEST(PtrTables, UncompressedStreamIsRead) {
  PtrModule m(true);
  ASSERT_TRUE(m.module);
  EXPECT_TRUE(m.module->metadata().uncompressed());
  EXPECT_EQ(m.module->tables().rows(TableId::MethodPtr), 3u);
  EXPECT_EQ(m.module->tables().rows(TableId::ENCLog), 2u);
  EXPECT_EQ(m.module->tables().rows(TableId::ENCMap), 1u);
}

TEST(PtrTables, ListsGoThroughThePtrTables) {
  PtrModule m(true);
  ASSERT_TRUE(m.module);
  const md::Module& mod = *m.module;
  EXPECT_EQ(mod.methods_of(md::TypeDefId(1)), (std::vector<md::MethodDefId>{md::MethodDefId(3)}));
  EXPECT_EQ(mod.methods_of(md::TypeDefId(2)), (std::vector<md::MethodDefId>{md::MethodDefId(1), md::MethodDefId(2)}));
  EXPECT_EQ(mod.method_owner(md::MethodDefId(3)), md::TypeDefId(1));
  EXPECT_EQ(mod.method_owner(md::MethodDefId(1)), md::TypeDefId(2));
  EXPECT_EQ(mod.method_owner(md::MethodDefId(2)), md::TypeDefId(2));
  EXPECT_EQ(mod.field_owner(md::FieldId(3)), md::TypeDefId(1));
  EXPECT_EQ(mod.field_owner(md::FieldId(1)), md::TypeDefId(2));
  // MethodDef 1's parameter list starts at ParamPtr row 1, which names Param 3.
  EXPECT_EQ(mod.params_of(md::MethodDefId(1)), (std::vector<md::ParamId>{md::ParamId(3)}));
  EXPECT_EQ(mod.params_of(md::MethodDefId(3)), (std::vector<md::ParamId>{md::ParamId(2)}));

  md::Printer printer(mod);
  EXPECT_EQ(printer.method_name(md::MethodDefId(1)), "Ns.T::First");
  EXPECT_EQ(printer.method_name(md::MethodDefId(3)), "<Module>::Third");
  EXPECT_EQ(printer.field_name(md::FieldId(2)), "Ns.T::fSecond");
}

TEST(PtrTables, WithoutPtrTablesListsArePhysical) {
  PtrModule m(false);
  ASSERT_TRUE(m.module);
  const md::Module& mod = *m.module;
  EXPECT_EQ(mod.methods_of(md::TypeDefId(1)), (std::vector<md::MethodDefId>{md::MethodDefId(1)}));
  EXPECT_EQ(mod.methods_of(md::TypeDefId(2)), (std::vector<md::MethodDefId>{md::MethodDefId(2), md::MethodDefId(3)}));
  EXPECT_EQ(mod.params_of(md::MethodDefId(1)), (std::vector<md::ParamId>{md::ParamId(1)}));
  md::Printer printer(mod);
  EXPECT_EQ(printer.method_name(md::MethodDefId(1)), "<Module>::First");
}

}  // namespace
}  // namespace cil
