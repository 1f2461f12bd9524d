// The typed rows generated from tables.def (metadata/rows.h) against the schema they come from:
// every view accessor of every table reads its own column (on a module with a row in every
// table, and on real assemblies), a 2- or 4-byte column has a type of that width, every builder
// field lands in its column through ModuleEditor::add and a write, and the flag enums
// (metadata/flags.h) have ECMA-335's values.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <type_traits>

#include "metadata/flags.h"
#include "metadata/module.h"
#include "metadata/metadata_writer.h"
#include "metadata/module_editor.h"
#include "metadata/rows.h"
#include "support/synthetic_image.h"

namespace cil {
namespace {

using namespace md;  // the flag enums of tables.def, unqualified

template <class V>
uint32_t as_cell(V value) {
  if constexpr (std::is_enum_v<V>) return md::raw(value);
  else return value;
}

std::string column_name(TableId t, uint8_t c) {
  return std::string(md::table_schema(t).name) + "." + std::string(md::table_schema(t).columns[c].name);
}

// Every accessor of every row of every table against the raw cell: the view must read its own
// column, through the heap or the coded index its kind says.
#define CHECK_U16(Table, Column, field, Arg)                                                        \
  EXPECT_EQ(as_cell(row.field()), t.get(TableId::Table, rid, col::Table::Column)) << #Table "." #Column; \
  static_assert(std::is_same_v<decltype(row.field()), Arg>);                                         \
  EXPECT_EQ(t.layout().table(TableId::Table).width[col::Table::Column], sizeof(Arg)) << #Table "." #Column;
#define CHECK_U32(Table, Column, field, Arg) CHECK_U16(Table, Column, field, Arg)
#define CHECK_String(Table, Column, field, Arg)                                               \
  EXPECT_EQ(row.field##_index(), t.get(TableId::Table, rid, col::Table::Column)) << #Table "." #Column; \
  EXPECT_EQ(row.field(), m.string_or_placeholder(row.field##_index())) << #Table "." #Column;
#define CHECK_Blob(Table, Column, field, Arg)                                                      \
  {                                                                                               \
    EXPECT_EQ(row.field##_index(), t.get(TableId::Table, rid, col::Table::Column)) << #Table "." #Column; \
    auto typed = row.field();                                                                     \
    auto direct = m.blobs().get(row.field##_index());                                            \
    EXPECT_EQ(bool(typed), bool(direct)) << #Table "." #Column;                                   \
    if (typed && direct) {                                                                        \
      EXPECT_TRUE(std::equal(typed->begin(), typed->end(), direct->begin(), direct->end()));       \
    }                                                                                             \
    auto reader = row.field##_reader("column");                                                   \
    EXPECT_EQ(bool(reader), bool(direct)) << #Table "." #Column;                                  \
    if (reader && direct) {                                                                       \
      EXPECT_EQ(reader->size(), direct->size());                                                  \
    }                                                                                             \
  }
#define CHECK_Guid(Table, Column, field, Arg)                                                       \
  EXPECT_EQ(row.field##_index(), t.get(TableId::Table, rid, col::Table::Column)) << #Table "." #Column; \
  EXPECT_EQ(bool(row.field()), bool(m.metadata().guids().get(row.field##_index())));
#define CHECK_Table(Table, Column, field, Arg) \
  EXPECT_EQ(row.field(), t.get(TableId::Table, rid, col::Table::Column)) << #Table "." #Column;
#define CHECK_Coded(Table, Column, field, Arg)                                                              \
  EXPECT_EQ(row.field(), t.decode(md::CodedIndex::Arg, t.get(TableId::Table, rid, col::Table::Column))) \
      << #Table "." #Column;

#define CIL_TABLE(id, Table)                                                    \
  size_t check_##Table(const md::Module& m) {                                   \
    const md::TablesStream& t = m.tables();                                     \
    size_t cells = 0;                                                           \
    for (uint32_t rid = 1; rid <= std::min<uint32_t>(t.rows(TableId::Table), 2000); ++rid) { \
      auto row = m.row<TableId::Table>(rid);                                    \
      EXPECT_EQ(row.rid(), rid);                                                \
      static_assert(decltype(row)::kTable == TableId::Table);                  \
      cells += col::Table::kColumnCount;
#define CIL_COLUMN(Table, Column, field, Kind, Arg) CHECK_##Kind(Table, Column, field, Arg)
#define CIL_TABLE_END(Table) \
  }                          \
  return cells;              \
  }
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END

/// Cells read through the views, all tables.
size_t check_all_views(const md::Module& m) {
  size_t cells = 0;
#define CIL_TABLE(id, Table) cells += check_##Table(m);
#define CIL_COLUMN(Table, Column, field, Kind, Arg)
#define CIL_TABLE_END(Table)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  return cells;
}

/// A module with two rows in every table of the schema, every cell distinct: heap columns name
/// real entries, the others hold numbers that fit their width.
std::unique_ptr<md::Module> every_table_module() {
  testing::TablesBuilder tables;
  testing::StringsBuilder strings;
  testing::BlobBuilder blobs;
  for (unsigned id = 0; id < md::kTableSlots; ++id) {
    const md::TableSchema& schema = md::table_schema(static_cast<uint8_t>(id));
    if (!schema.defined()) continue;
    for (uint32_t row = 1; row <= 2; ++row) {
      std::vector<uint32_t> cells;
      for (uint8_t c = 0; c < schema.columns.size(); ++c) {
        uint32_t distinct = id * 16 + c * 2 + row;  // below 0x400: fits 2 bytes and any coded index
        std::string text = column_name(schema.id, c) + "#" + std::to_string(row);
        switch (schema.columns[c].kind) {
          case md::ColumnKind::String: cells.push_back(strings.add(text)); break;
          case md::ColumnKind::Blob: {
            std::vector<uint8_t> bytes(text.begin(), text.end());
            cells.push_back(blobs.add(bytes));
            break;
          }
          case md::ColumnKind::Guid: cells.push_back(row % 2); break;  // the one GUID, or none
          case md::ColumnKind::U32: cells.push_back(0x10000 + distinct); break;
          default: cells.push_back(distinct);
        }
      }
      tables.add(schema.id, std::move(cells));
    }
  }
  auto parsed = md::Module::parse(testing::pe_image(testing::metadata_root(tables, strings, blobs)));
  if (!parsed) {
    ADD_FAILURE() << parsed.error().to_string();
    return nullptr;
  }
  return std::move(*parsed);
}

TEST(TypedRows, EveryColumnOfEveryTable) {
  auto m = every_table_module();
  ASSERT_TRUE(m);
  size_t columns = 0, tables = 0;
  for (unsigned id = 0; id < md::kTableSlots; ++id) {
    const auto& schema = md::table_schema(static_cast<uint8_t>(id));
    if (!schema.defined()) continue;
    ++tables;
    columns += schema.columns.size();
    EXPECT_EQ(m->tables().rows(schema.id), 2u) << schema.name;
  }
  EXPECT_EQ(tables, 53u);
  // Two rows of every column of every table went through a typed accessor.
  EXPECT_EQ(check_all_views(*m), 2 * columns);
}

TEST(TypedRows, RealAssemblies) {
  for (const char* name : {"Basics.dll", "Generics.dll", "Interop.dll", "mono/MonoMisc.exe", "il/IlOps.exe"}) {
    SCOPED_TRACE(name);
    auto m = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
    ASSERT_TRUE(m) << m.error().to_string();
    EXPECT_GT(check_all_views(**m), 200u);
  }
}

TEST(TypedRows, FindRow) {
  auto m = every_table_module();
  ASSERT_TRUE(m);
  auto def = m->find_row<TableId::TypeDef>(md::make_token(TableId::TypeDef, 2));
  ASSERT_TRUE(def);
  EXPECT_EQ(def->rid(), 2u);
  EXPECT_EQ(def->type_name(), "TypeDef.TypeName#2");
  EXPECT_FALSE(m->find_row<TableId::TypeDef>(md::make_token(TableId::TypeDef, 3)));  // past the end
  EXPECT_FALSE(m->find_row<TableId::TypeDef>(md::make_token(TableId::TypeDef, 0)));  // nil
  EXPECT_FALSE(m->find_row<TableId::TypeDef>(md::make_token(TableId::TypeRef, 1)));  // another table
}

// A value of each builder field, distinct per table and column, and what reading it back must give.
struct Samples {
  std::deque<std::string> strings;
  std::deque<std::vector<uint8_t>> blobs;
};

template <class F>
F sample_number(TableId t, uint8_t c) {
  return static_cast<F>(0x100 * (c + 1) + static_cast<uint8_t>(t));
}

md::Token sample_token(md::CodedIndex kind, uint8_t c) {
  for (TableId target : md::coded_index_schema(kind).tables)
    if (target != TableId::Unused) return md::make_token(target, c + 1u);
  return Token();
}

// One row of every table through its builder (fields named, in schema order), then the written
// module read back through the views: every field is in its column.
#define SAMPLE_U16(Table, Column, field, Arg) .field = sample_number<Arg>(TableId::Table, col::Table::Column),
#define SAMPLE_U32(Table, Column, field, Arg) SAMPLE_U16(Table, Column, field, Arg)
#define SAMPLE_String(Table, Column, field, Arg) \
  .field = samples.strings.emplace_back(#Table "." #Column " added"),
#define SAMPLE_Blob(Table, Column, field, Arg) \
  .field = samples.blobs.emplace_back(std::vector<uint8_t>{static_cast<uint8_t>(TableId::Table), col::Table::Column, 0xA5}),
#define SAMPLE_Guid(Table, Column, field, Arg) .field = 1,
#define SAMPLE_Table(Table, Column, field, Arg) .field = col::Table::Column + 1u,
#define SAMPLE_Coded(Table, Column, field, Arg) .field = sample_token(md::CodedIndex::Arg, col::Table::Column),

#define READ_U16(Table, Column, field, Arg) \
  EXPECT_EQ(row.field(), (sample_number<Arg>(TableId::Table, col::Table::Column))) << #Table "." #Column;
#define READ_U32(Table, Column, field, Arg) READ_U16(Table, Column, field, Arg)
#define READ_String(Table, Column, field, Arg) EXPECT_EQ(row.field(), #Table "." #Column " added");
#define READ_Blob(Table, Column, field, Arg)                                                                \
  {                                                                                                        \
    auto bytes = row.field();                                                                              \
    ASSERT_TRUE(bytes) << #Table "." #Column;                                                              \
    EXPECT_EQ(std::vector<uint8_t>(bytes->begin(), bytes->end()),                                          \
              (std::vector<uint8_t>{static_cast<uint8_t>(TableId::Table), col::Table::Column, 0xA5}));     \
  }
#define READ_Guid(Table, Column, field, Arg) EXPECT_EQ(row.field##_index(), 1u) << #Table "." #Column;
#define READ_Table(Table, Column, field, Arg) EXPECT_EQ(row.field(), col::Table::Column + 1u) << #Table "." #Column;
#define READ_Coded(Table, Column, field, Arg) \
  EXPECT_EQ(row.field(), sample_token(md::CodedIndex::Arg, col::Table::Column)) << #Table "." #Column;

TEST(TypedRows, BuildersFillTheirColumns) {
  auto m = every_table_module();
  ASSERT_TRUE(m);
  md::ModuleEditor editor(*m);
  Samples samples;
  size_t added = 0;
#define CIL_TABLE(id, Table) \
  {                          \
    auto token = editor.add(md::Table##Row{
#define CIL_COLUMN(Table, Column, field, Kind, Arg) SAMPLE_##Kind(Table, Column, field, Arg)
#define CIL_TABLE_END(Table)                                         \
  });                                                                \
  ASSERT_TRUE(token) << token.error().to_string();                   \
  EXPECT_EQ(*token, md::make_token(TableId::Table, 3)) << #Table;    \
  ++added;                                                           \
  }
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  EXPECT_EQ(added, 53u);

  auto output = editor.write();
  ASSERT_TRUE(output) << output.error().to_string();
  auto written = md::Module::parse(output->flatten());
  ASSERT_TRUE(written) << written.error().to_string();
  const md::Module& w = **written;
#define CIL_TABLE(id, Table)                                            \
  {                                                                     \
    ASSERT_EQ(w.tables().rows(TableId::Table), 3u) << #Table;           \
    auto row = w.row<TableId::Table>(3);
#define CIL_COLUMN(Table, Column, field, Kind, Arg) READ_##Kind(Table, Column, field, Arg)
#define CIL_TABLE_END(Table) }
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  // Every view reads every row of the written module; the rows that were there are unchanged.
  EXPECT_EQ(check_all_views(w), 3 * check_all_views(*m) / 2);
  EXPECT_EQ(w.row<TableId::TypeDef>(2).type_name(), "TypeDef.TypeName#2");
  EXPECT_EQ(w.row<TableId::MethodDef>(1).rva(), m->row<TableId::MethodDef>(1).rva());
}

TEST(TypedRows, BuilderRefusesATokenItsColumnCannotHold) {
  auto m = every_table_module();
  ASSERT_TRUE(m);
  md::ModuleEditor editor(*m);
  auto bad = editor.add(md::TypeDefRow{.type_name = "T", .extends = md::make_token(TableId::MethodDef, 1)});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().to_string(), "metadata: TypeDef.Extends cannot hold 0x06000001 (a TypeDefOrRef coded index)");
  // A nil token is a null coded index in any column.
  auto nil = editor.add(md::TypeDefRow{.type_name = "U", .extends = md::make_token(TableId::TypeRef, 0)});
  ASSERT_TRUE(nil) << nil.error().to_string();
  EXPECT_EQ(editor.rows(TableId::TypeDef), 3u);
  // Static data needs a FieldRVA row to hold its RVA.
  auto data = editor.add_section_data({1, 2, 3}, 8, 3);
  ASSERT_FALSE(data);
  EXPECT_EQ(data.error().to_string(), "metadata: no FieldRVA row 3");
}

// Cells of existing rows, changed in place: each lands where it was set and nowhere else, and a
// value its column cannot hold is refused, naming the first such cell in row order.
TEST(TypedRows, ChangedCellsLandInTheirRows) {
  auto m = every_table_module();
  ASSERT_TRUE(m);
  {
    md::ModuleEditor editor(*m);
    const uint8_t body[] = {0x0A, 0x2A};  // tiny header, 2 bytes of code: ret
    ASSERT_TRUE(editor.set_method_body(md::MethodDefId(2), body));
    auto output = editor.write();
    ASSERT_TRUE(output) << output.error().to_string();
    auto written = md::Module::parse(output->flatten());
    ASSERT_TRUE(written) << written.error().to_string();
    const md::Module& w = **written;
    EXPECT_NE(w.row<TableId::MethodDef>(2).rva(), m->row<TableId::MethodDef>(2).rva());
    EXPECT_EQ(w.row<TableId::MethodDef>(1).rva(), m->row<TableId::MethodDef>(1).rva());
    EXPECT_EQ(w.row<TableId::MethodDef>(2).impl_flags(), m->row<TableId::MethodDef>(2).impl_flags());
    EXPECT_EQ(w.row<TableId::MethodDef>(2).name(), m->row<TableId::MethodDef>(2).name());
    EXPECT_EQ(check_all_views(w), check_all_views(*m));
  }
  const md::Metadata& original = m->metadata();
  md::TableEdits edits;
  uint32_t rows = original.tables().rows(TableId::MethodDef);
  edits.change(TableId::MethodDef, rows, 2, col::MethodDef::ImplFlags, 0x10000);
  edits.change(TableId::MethodDef, rows, 1, col::MethodDef::Flags, 0x10001);
  md::HeapContents heaps;
  heaps.strings.original = original.strings().data();
  heaps.user_strings.original = original.user_strings().data();
  heaps.blobs.original = original.blobs().data();
  heaps.guids.original = original.guids().data();
  pe::OutputImage out;
  auto written = md::write_metadata(original, edits, std::move(heaps), out);
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().to_string(), "#~ stream: MethodDef row 1 column Flags does not fit");
}

// The flag enums against ECMA-335 Partition II, 23.1 (6th edition), and the CLR's extensions
// (corhdr.h) where marked.
TEST(TypedRows, FlagValuesAreEcma335s) {
  using AF = md::AssemblyFlags;  // II.23.1.2
  EXPECT_EQ(md::raw(AF::PublicKey), 0x0001u);
  EXPECT_EQ(md::raw(AF::Retargetable), 0x0100u);
  EXPECT_EQ(md::raw(AF::DisableJITcompileOptimizer), 0x4000u);
  EXPECT_EQ(md::raw(AF::EnableJITcompileTracking), 0x8000u);
  EXPECT_EQ(md::raw(AF::ContentTypeMask), 0x0E00u);  // CLR
  EXPECT_EQ(md::raw(AF::WindowsRuntime), 0x0200u);   // CLR
  using AH = md::AssemblyHashAlgorithm;  // II.23.1.1
  EXPECT_EQ(md::raw(AH::None), 0x0000u);
  EXPECT_EQ(md::raw(AH::MD5), 0x8003u);
  EXPECT_EQ(md::raw(AH::SHA1), 0x8004u);
  using EA = md::EventAttributes;  // II.23.1.4
  EXPECT_EQ(md::raw(EA::SpecialName), 0x0200u);
  EXPECT_EQ(md::raw(EA::RTSpecialName), 0x0400u);
  using FA = md::FieldAttributes;  // II.23.1.5
  EXPECT_EQ(md::raw(FA::FieldAccessMask), 0x0007u);
  EXPECT_EQ(md::raw(FA::CompilerControlled), 0x0000u);
  EXPECT_EQ(md::raw(FA::Private), 0x0001u);
  EXPECT_EQ(md::raw(FA::FamANDAssem), 0x0002u);
  EXPECT_EQ(md::raw(FA::Assembly), 0x0003u);
  EXPECT_EQ(md::raw(FA::Family), 0x0004u);
  EXPECT_EQ(md::raw(FA::FamORAssem), 0x0005u);
  EXPECT_EQ(md::raw(FA::Public), 0x0006u);
  EXPECT_EQ(md::raw(FA::Static), 0x0010u);
  EXPECT_EQ(md::raw(FA::InitOnly), 0x0020u);
  EXPECT_EQ(md::raw(FA::Literal), 0x0040u);
  EXPECT_EQ(md::raw(FA::NotSerialized), 0x0080u);
  EXPECT_EQ(md::raw(FA::SpecialName), 0x0200u);
  EXPECT_EQ(md::raw(FA::PInvokeImpl), 0x2000u);
  EXPECT_EQ(md::raw(FA::RTSpecialName), 0x0400u);
  EXPECT_EQ(md::raw(FA::HasFieldMarshal), 0x1000u);
  EXPECT_EQ(md::raw(FA::HasDefault), 0x8000u);
  EXPECT_EQ(md::raw(FA::HasFieldRVA), 0x0100u);
  using FiA = md::FileAttributes;  // II.23.1.6
  EXPECT_EQ(md::raw(FiA::ContainsMetaData), 0x0000u);
  EXPECT_EQ(md::raw(FiA::ContainsNoMetaData), 0x0001u);
  using GA = md::GenericParamAttributes;  // II.23.1.7
  EXPECT_EQ(md::raw(GA::VarianceMask), 0x0003u);
  EXPECT_EQ(md::raw(GA::None), 0x0000u);
  EXPECT_EQ(md::raw(GA::Covariant), 0x0001u);
  EXPECT_EQ(md::raw(GA::Contravariant), 0x0002u);
  EXPECT_EQ(md::raw(GA::SpecialConstraintMask), 0x001Cu);
  EXPECT_EQ(md::raw(GA::ReferenceTypeConstraint), 0x0004u);
  EXPECT_EQ(md::raw(GA::NotNullableValueTypeConstraint), 0x0008u);
  EXPECT_EQ(md::raw(GA::DefaultConstructorConstraint), 0x0010u);
  EXPECT_EQ(md::raw(GA::AllowByRefLike), 0x0020u);  // CLR (.NET 9)
  using PI = md::PInvokeAttributes;  // II.23.1.8
  EXPECT_EQ(md::raw(PI::NoMangle), 0x0001u);
  EXPECT_EQ(md::raw(PI::CharSetMask), 0x0006u);
  EXPECT_EQ(md::raw(PI::CharSetNotSpec), 0x0000u);
  EXPECT_EQ(md::raw(PI::CharSetAnsi), 0x0002u);
  EXPECT_EQ(md::raw(PI::CharSetUnicode), 0x0004u);
  EXPECT_EQ(md::raw(PI::CharSetAuto), 0x0006u);
  EXPECT_EQ(md::raw(PI::SupportsLastError), 0x0040u);
  EXPECT_EQ(md::raw(PI::CallConvMask), 0x0700u);
  EXPECT_EQ(md::raw(PI::CallConvPlatformapi), 0x0100u);
  EXPECT_EQ(md::raw(PI::CallConvCdecl), 0x0200u);
  EXPECT_EQ(md::raw(PI::CallConvStdcall), 0x0300u);
  EXPECT_EQ(md::raw(PI::CallConvThiscall), 0x0400u);
  EXPECT_EQ(md::raw(PI::CallConvFastcall), 0x0500u);
  EXPECT_EQ(md::raw(PI::BestFitMask), 0x0030u);                    // CLR
  EXPECT_EQ(md::raw(PI::BestFitEnabled), 0x0010u);                 // CLR
  EXPECT_EQ(md::raw(PI::BestFitDisabled), 0x0020u);                // CLR
  EXPECT_EQ(md::raw(PI::ThrowOnUnmappableCharMask), 0x3000u);      // CLR
  EXPECT_EQ(md::raw(PI::ThrowOnUnmappableCharEnabled), 0x1000u);   // CLR
  EXPECT_EQ(md::raw(PI::ThrowOnUnmappableCharDisabled), 0x2000u);  // CLR
  using MR = md::ManifestResourceAttributes;  // II.23.1.9
  EXPECT_EQ(md::raw(MR::VisibilityMask), 0x0007u);
  EXPECT_EQ(md::raw(MR::Public), 0x0001u);
  EXPECT_EQ(md::raw(MR::Private), 0x0002u);
  using MA = md::MethodAttributes;  // II.23.1.10
  EXPECT_EQ(md::raw(MA::MemberAccessMask), 0x0007u);
  EXPECT_EQ(md::raw(MA::CompilerControlled), 0x0000u);
  EXPECT_EQ(md::raw(MA::Private), 0x0001u);
  EXPECT_EQ(md::raw(MA::FamANDAssem), 0x0002u);
  EXPECT_EQ(md::raw(MA::Assem), 0x0003u);
  EXPECT_EQ(md::raw(MA::Family), 0x0004u);
  EXPECT_EQ(md::raw(MA::FamORAssem), 0x0005u);
  EXPECT_EQ(md::raw(MA::Public), 0x0006u);
  EXPECT_EQ(md::raw(MA::Static), 0x0010u);
  EXPECT_EQ(md::raw(MA::Final), 0x0020u);
  EXPECT_EQ(md::raw(MA::Virtual), 0x0040u);
  EXPECT_EQ(md::raw(MA::HideBySig), 0x0080u);
  EXPECT_EQ(md::raw(MA::VtableLayoutMask), 0x0100u);
  EXPECT_EQ(md::raw(MA::ReuseSlot), 0x0000u);
  EXPECT_EQ(md::raw(MA::NewSlot), 0x0100u);
  EXPECT_EQ(md::raw(MA::Strict), 0x0200u);
  EXPECT_EQ(md::raw(MA::Abstract), 0x0400u);
  EXPECT_EQ(md::raw(MA::SpecialName), 0x0800u);
  EXPECT_EQ(md::raw(MA::PInvokeImpl), 0x2000u);
  EXPECT_EQ(md::raw(MA::UnmanagedExport), 0x0008u);
  EXPECT_EQ(md::raw(MA::RTSpecialName), 0x1000u);
  EXPECT_EQ(md::raw(MA::HasSecurity), 0x4000u);
  EXPECT_EQ(md::raw(MA::RequireSecObject), 0x8000u);
  using MI = md::MethodImplAttributes;  // II.23.1.11
  EXPECT_EQ(md::raw(MI::CodeTypeMask), 0x0003u);
  EXPECT_EQ(md::raw(MI::IL), 0x0000u);
  EXPECT_EQ(md::raw(MI::Native), 0x0001u);
  EXPECT_EQ(md::raw(MI::OPTIL), 0x0002u);
  EXPECT_EQ(md::raw(MI::Runtime), 0x0003u);
  EXPECT_EQ(md::raw(MI::ManagedMask), 0x0004u);
  EXPECT_EQ(md::raw(MI::Unmanaged), 0x0004u);
  EXPECT_EQ(md::raw(MI::Managed), 0x0000u);
  EXPECT_EQ(md::raw(MI::ForwardRef), 0x0010u);
  EXPECT_EQ(md::raw(MI::PreserveSig), 0x0080u);
  EXPECT_EQ(md::raw(MI::InternalCall), 0x1000u);
  EXPECT_EQ(md::raw(MI::Synchronized), 0x0020u);
  EXPECT_EQ(md::raw(MI::NoInlining), 0x0008u);
  EXPECT_EQ(md::raw(MI::MaxMethodImplVal), 0xFFFFu);
  EXPECT_EQ(md::raw(MI::NoOptimization), 0x0040u);
  EXPECT_EQ(md::raw(MI::AggressiveInlining), 0x0100u);      // CLR
  EXPECT_EQ(md::raw(MI::AggressiveOptimization), 0x0200u);  // CLR
  using MS = md::MethodSemanticsAttributes;  // II.23.1.12
  EXPECT_EQ(md::raw(MS::Setter), 0x0001u);
  EXPECT_EQ(md::raw(MS::Getter), 0x0002u);
  EXPECT_EQ(md::raw(MS::Other), 0x0004u);
  EXPECT_EQ(md::raw(MS::AddOn), 0x0008u);
  EXPECT_EQ(md::raw(MS::RemoveOn), 0x0010u);
  EXPECT_EQ(md::raw(MS::Fire), 0x0020u);
  using PA = md::ParamAttributes;  // II.23.1.13
  EXPECT_EQ(md::raw(PA::In), 0x0001u);
  EXPECT_EQ(md::raw(PA::Out), 0x0002u);
  EXPECT_EQ(md::raw(PA::Optional), 0x0010u);
  EXPECT_EQ(md::raw(PA::HasDefault), 0x1000u);
  EXPECT_EQ(md::raw(PA::HasFieldMarshal), 0x2000u);
  EXPECT_EQ(md::raw(PA::Unused), 0xCFE0u);
  using PrA = md::PropertyAttributes;  // II.23.1.14
  EXPECT_EQ(md::raw(PrA::SpecialName), 0x0200u);
  EXPECT_EQ(md::raw(PrA::RTSpecialName), 0x0400u);
  EXPECT_EQ(md::raw(PrA::HasDefault), 0x1000u);
  EXPECT_EQ(md::raw(PrA::Unused), 0xE9FFu);
  using TA = md::TypeAttributes;  // II.23.1.15
  EXPECT_EQ(md::raw(TA::VisibilityMask), 0x00000007u);
  EXPECT_EQ(md::raw(TA::NotPublic), 0x00000000u);
  EXPECT_EQ(md::raw(TA::Public), 0x00000001u);
  EXPECT_EQ(md::raw(TA::NestedPublic), 0x00000002u);
  EXPECT_EQ(md::raw(TA::NestedPrivate), 0x00000003u);
  EXPECT_EQ(md::raw(TA::NestedFamily), 0x00000004u);
  EXPECT_EQ(md::raw(TA::NestedAssembly), 0x00000005u);
  EXPECT_EQ(md::raw(TA::NestedFamANDAssem), 0x00000006u);
  EXPECT_EQ(md::raw(TA::NestedFamORAssem), 0x00000007u);
  EXPECT_EQ(md::raw(TA::LayoutMask), 0x00000018u);
  EXPECT_EQ(md::raw(TA::AutoLayout), 0x00000000u);
  EXPECT_EQ(md::raw(TA::SequentialLayout), 0x00000008u);
  EXPECT_EQ(md::raw(TA::ExplicitLayout), 0x00000010u);
  EXPECT_EQ(md::raw(TA::ClassSemanticsMask), 0x00000020u);
  EXPECT_EQ(md::raw(TA::Class), 0x00000000u);
  EXPECT_EQ(md::raw(TA::Interface), 0x00000020u);
  EXPECT_EQ(md::raw(TA::Abstract), 0x00000080u);
  EXPECT_EQ(md::raw(TA::Sealed), 0x00000100u);
  EXPECT_EQ(md::raw(TA::SpecialName), 0x00000400u);
  EXPECT_EQ(md::raw(TA::Import), 0x00001000u);
  EXPECT_EQ(md::raw(TA::Serializable), 0x00002000u);
  EXPECT_EQ(md::raw(TA::StringFormatMask), 0x00030000u);
  EXPECT_EQ(md::raw(TA::AnsiClass), 0x00000000u);
  EXPECT_EQ(md::raw(TA::UnicodeClass), 0x00010000u);
  EXPECT_EQ(md::raw(TA::AutoClass), 0x00020000u);
  EXPECT_EQ(md::raw(TA::CustomFormatClass), 0x00030000u);
  EXPECT_EQ(md::raw(TA::CustomStringFormatMask), 0x00C00000u);
  EXPECT_EQ(md::raw(TA::BeforeFieldInit), 0x00100000u);
  EXPECT_EQ(md::raw(TA::RTSpecialName), 0x00000800u);
  EXPECT_EQ(md::raw(TA::HasSecurity), 0x00040000u);
  EXPECT_EQ(md::raw(TA::IsTypeForwarder), 0x00200000u);
  EXPECT_EQ(md::raw(TA::WindowsRuntime), 0x00004000u);  // CLR
}

TEST(TypedRows, FlagOperations) {
  using MA = md::MethodAttributes;
  constexpr MA cctor = MA::Private | MA::Static | MA::HideBySig | MA::SpecialName | MA::RTSpecialName;
  static_assert(md::raw(cctor) == 0x1891);
  EXPECT_TRUE(md::has(cctor, MA::Static | MA::HideBySig));
  EXPECT_FALSE(md::has(cctor, MA::Static | MA::Virtual));
  EXPECT_EQ(cctor & MA::MemberAccessMask, MA::Private);
  EXPECT_EQ(cctor & ~MA::MemberAccessMask, MA::Static | MA::HideBySig | MA::SpecialName | MA::RTSpecialName);
  MA flags = MA::Public;
  flags |= MA::Virtual;
  flags &= ~MA::Public;
  EXPECT_EQ(flags, MA::Virtual);
  EXPECT_EQ(MA::Abstract ^ MA::Abstract, MA{});
  // The widths of the columns that hold them (II.22).
  static_assert(sizeof(md::TypeAttributes) == 4 && sizeof(md::MethodAttributes) == 2 &&
                sizeof(md::MethodImplAttributes) == 2 && sizeof(md::FieldAttributes) == 2 &&
                sizeof(md::ParamAttributes) == 2 && sizeof(md::AssemblyFlags) == 4 &&
                sizeof(md::PInvokeAttributes) == 2 && sizeof(md::MethodSemanticsAttributes) == 2);
}

}  // namespace
}  // namespace cil
