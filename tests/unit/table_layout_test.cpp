// Index widths of II.24.2.6 at every boundary, for every coded index and every target table.
#include <gtest/gtest.h>

#include "metadata/schema.h"
#include "metadata/table_layout.h"
#include "metadata/tables_stream.h"

namespace cil::md {
namespace {

TEST(TableLayout, SimpleIndexWidth) {
  TableLayout l;
  l.rows[static_cast<uint8_t>(TableId::Field)] = 0xFFFF;
  l.compute();
  EXPECT_EQ(l.table_index_width(TableId::Field), 2);
  EXPECT_EQ(l.table(TableId::TypeDef).width[col::TypeDef::FieldList], 2);
  l.rows[static_cast<uint8_t>(TableId::Field)] = 0x10000;
  l.compute();
  EXPECT_EQ(l.table_index_width(TableId::Field), 4);
  EXPECT_EQ(l.table(TableId::TypeDef).width[col::TypeDef::FieldList], 4);
}

TEST(TableLayout, EveryCodedIndexBoundary) {
  for (const CodedIndexSchema& schema : coded_index_schemas()) {
    CodedIndex kind = static_cast<CodedIndex>(&schema - coded_index_schemas().data());
    uint32_t limit = 1u << (16 - schema.tag_bits);
    for (TableId target : schema.tables) {
      if (target == TableId::Unused) continue;
      TableLayout l;
      l.rows[static_cast<uint8_t>(target)] = limit - 1;
      l.compute();
      EXPECT_EQ(l.coded_index_width(kind), 2) << schema.name << " -> " << table_schema(target).name;
      l.rows[static_cast<uint8_t>(target)] = limit;
      l.compute();
      EXPECT_EQ(l.coded_index_width(kind), 4) << schema.name << " -> " << table_schema(target).name;
    }
  }
}

TEST(TableLayout, UnusedTagsDoNotWiden) {
  // CustomAttributeType has unused tags; only MethodDef and MemberRef count.
  TableLayout l;
  l.rows[static_cast<uint8_t>(TableId::TypeRef)] = 0x100000;
  l.compute();
  EXPECT_EQ(l.coded_index_width(CodedIndex::CustomAttributeType), 2);
}

TEST(TableLayout, HeapFlagsAndAllLarge) {
  TableLayout l;
  l.compute();
  EXPECT_EQ(l.table(TableId::Module).row_size, 2u + 2 + 2 + 2 + 2);
  l.large_strings = true;
  l.large_guids = true;
  l.compute();
  EXPECT_EQ(l.table(TableId::Module).row_size, 2u + 4 + 4 + 4 + 4);
  TableLayout big;
  big.all_large = true;
  big.compute();
  EXPECT_EQ(big.table(TableId::TypeDef).row_size, 4u * 6);
  EXPECT_EQ(big.table(TableId::Constant).row_size, 2u + 4 + 4);
}

TEST(Schema, ColumnsMatchEcmaRowSizesWithSmallIndexes) {
  // Row sizes with every index 2 bytes wide, from the column lists of II.22.
  const std::pair<TableId, uint32_t> expected[] = {
      {TableId::Module, 10},       {TableId::TypeRef, 6},        {TableId::TypeDef, 14},
      {TableId::Field, 6},         {TableId::MethodDef, 14},     {TableId::Param, 6},
      {TableId::InterfaceImpl, 4}, {TableId::MemberRef, 6},      {TableId::Constant, 6},
      {TableId::CustomAttribute, 6}, {TableId::FieldMarshal, 4}, {TableId::DeclSecurity, 6},
      {TableId::ClassLayout, 8},   {TableId::FieldLayout, 6},    {TableId::StandAloneSig, 2},
      {TableId::EventMap, 4},      {TableId::Event, 6},          {TableId::PropertyMap, 4},
      {TableId::Property, 6},      {TableId::MethodSemantics, 6}, {TableId::MethodImpl, 6},
      {TableId::ModuleRef, 2},     {TableId::TypeSpec, 2},       {TableId::ImplMap, 8},
      {TableId::FieldRVA, 6},      {TableId::Assembly, 22},      {TableId::AssemblyRef, 20},
      {TableId::File, 8},          {TableId::ExportedType, 14},  {TableId::ManifestResource, 12},
      {TableId::NestedClass, 4},   {TableId::GenericParam, 8},   {TableId::MethodSpec, 4},
      {TableId::GenericParamConstraint, 4}, {TableId::ENCLog, 8}, {TableId::ENCMap, 4},
  };
  TableLayout l;
  l.compute();
  for (auto [table, size] : expected) EXPECT_EQ(l.table(table).row_size, size) << table_schema(table).name;
}

TEST(Schema, SelfConsistent) {
  for (unsigned id = 0; id < kTableSlots; ++id) {
    const TableSchema& t = table_schema(static_cast<uint8_t>(id));
    if (!t.defined()) continue;
    EXPECT_EQ(static_cast<unsigned>(t.id), id) << t.name;
    EXPECT_LE(t.columns.size(), kMaxColumns) << t.name;
    for (const auto& c : t.columns) {
      if (c.kind == ColumnKind::Table) {
        EXPECT_TRUE(table_schema(c.target).defined()) << t.name << "." << c.name;
      }
      if (c.kind == ColumnKind::Coded) {
        EXPECT_LT(c.target, coded_index_schemas().size()) << t.name << "." << c.name;
      }
    }
  }
  for (const auto& c : coded_index_schemas()) {
    EXPECT_LE(c.tables.size(), 1u << c.tag_bits) << c.name;
    EXPECT_GT(c.tables.size(), 1u << (c.tag_bits - 1)) << c.name << ": tag bits wider than needed";
  }
}

TEST(CodedIndex, EncodeDecodeRoundTrip) {
  TablesStream t;
  for (const CodedIndexSchema& schema : coded_index_schemas()) {
    CodedIndex kind = static_cast<CodedIndex>(&schema - coded_index_schemas().data());
    for (TableId target : schema.tables) {
      if (target == TableId::Unused) continue;
      Token token = make_token(target, 1234);
      auto value = encode_coded_index(kind, token);
      ASSERT_TRUE(value) << schema.name;
      EXPECT_EQ(t.decode(kind, *value), token) << schema.name;
    }
  }
  EXPECT_FALSE(encode_coded_index(CodedIndex::TypeDefOrRef, make_token(TableId::Field, 1)));
  EXPECT_FALSE(t.decode(CodedIndex::TypeDefOrRef, 3)) << "tag 3 names no table";
}

}  // namespace
}  // namespace cil::md
