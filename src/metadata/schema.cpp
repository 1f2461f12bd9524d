// The schema arrays, expanded from tables.def and coded_indexes.def.
#include "metadata/schema.h"

namespace cil::md {

namespace {

#define CIL_ARG_None(Arg) 0
#define CIL_ARG_Table(Arg) static_cast<uint8_t>(TableId::Arg)
#define CIL_ARG_Coded(Arg) static_cast<uint8_t>(CodedIndex::Arg)
#define CIL_ARG_U16(Arg) 0
#define CIL_ARG_U32(Arg) 0
#define CIL_ARG_String(Arg) 0
#define CIL_ARG_Guid(Arg) 0
#define CIL_ARG_Blob(Arg) 0

#define CIL_TABLE(id, Table) constexpr ColumnSchema k##Table##Columns[] = {
#define CIL_COLUMN(Table, Column, field, Kind, Arg) {#Column, ColumnKind::Kind, CIL_ARG_##Kind(Arg)},
#define CIL_TABLE_END(Table) };
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END

constexpr std::array<TableSchema, kTableSlots> make_tables() {
  std::array<TableSchema, kTableSlots> tables{};
  for (unsigned i = 0; i < kTableSlots; ++i) tables[i] = TableSchema{"", static_cast<TableId>(i), {}};
#define CIL_TABLE(id, Table) tables[id] = TableSchema{#Table, TableId::Table, k##Table##Columns};
#define CIL_COLUMN(Table, Column, field, Kind, Arg)
#define CIL_TABLE_END(Table)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
  return tables;
}

constexpr std::array<TableSchema, kTableSlots> kTables = make_tables();

// The tables of each coded index, spelled by their bare names: the enumerators are in scope here
// only (at namespace scope they would hide the Module class from the files a unity build puts
// beside this one).
namespace coded_tables {
using enum TableId;
#define CIL_CODED(Name, bits, ...) constexpr TableId k##Name##Tables[] = {__VA_ARGS__};
#include "metadata/coded_indexes.def"
#undef CIL_CODED
}  // namespace coded_tables

constexpr CodedIndexSchema kCodedIndexes[] = {
#define CIL_CODED(Name, bits, ...) {#Name, bits, coded_tables::k##Name##Tables},
#include "metadata/coded_indexes.def"
#undef CIL_CODED
};

}  // namespace

const TableSchema& table_schema(uint8_t id) { return kTables[id & (kTableSlots - 1)]; }

const CodedIndexSchema& coded_index_schema(CodedIndex kind) {
  return kCodedIndexes[static_cast<uint8_t>(kind)];
}

std::span<const CodedIndexSchema> coded_index_schemas() { return kCodedIndexes; }

}  // namespace cil::md
