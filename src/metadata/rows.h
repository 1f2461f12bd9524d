// Typed rows, generated from tables.def: for each table a read-only view of one row with an
// accessor per column (Module::row<TableId::MethodDef>(rid).flags()) and a builder with a named
// field per column (ModuleEditor::add(MethodDefRow{.flags = ..., .name = ...})). A column of
// another table does not compile, and flags columns have their enum of metadata/flags.h.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "metadata/flags.h"
#include "metadata/metadata.h"
#include "metadata/schema.h"

namespace cil::md {

/// What every row view holds: the metadata and a row id. The row id must be valid (1 to the
/// table's row count): views read cells as TablesStream::get does, without a check. A module's
/// rows come from Module::row; a view of other metadata (a portable PDB's) is made directly:
/// LocalScopeView(pdb_metadata, rid).
class RowView {
 public:
  RowView(const Metadata& metadata, uint32_t rid) : metadata_(&metadata), rid_(rid) {}
  uint32_t rid() const { return rid_; }

 protected:
  uint32_t cell(TableId table, uint8_t column) const { return metadata_->tables().get(table, rid_, column); }
  std::string_view string_at(uint32_t index) const { return metadata_->strings().get_or_placeholder(index); }
  Expected<std::span<const uint8_t>> blob_at(uint32_t index) const { return metadata_->blobs().get(index); }
  Expected<ByteReader> blob_reader(uint32_t index, std::string_view structure) const {
    return metadata_->blobs().reader(index, structure);
  }
  Expected<Guid> guid_at(uint32_t index) const { return metadata_->guids().get(index); }
  Token coded(CodedIndex kind, uint32_t value) const { return metadata_->tables().decode(kind, value); }

 private:
  const Metadata* metadata_;
  uint32_t rid_;
};

// Views. Per column, by kind:
//   U16, U32  field(): the value, as the column's type (a flag enum, or an integer)
//   String    field(): the text (a placeholder for a bad index, as Module::string_or_placeholder);
//             field_index(): the #Strings index
//   Blob      field(): the bytes; field_index(); field_reader(structure): a reader over them
//   Guid      field(): the GUID; field_index()
//   Table     field(): the row id in the target table (not checked)
//   Coded     field(): the token (0 when the tag names no table; not checked)
#define CIL_VIEW_U16(Table, Column, field, Arg) \
  Arg field() const { return static_cast<Arg>(cell(kTable, col::Table::Column)); }
#define CIL_VIEW_U32(Table, Column, field, Arg) CIL_VIEW_U16(Table, Column, field, Arg)
#define CIL_VIEW_String(Table, Column, field, Arg)                          \
  uint32_t field##_index() const { return cell(kTable, col::Table::Column); } \
  std::string_view field() const { return string_at(field##_index()); }
#define CIL_VIEW_Blob(Table, Column, field, Arg)                                                   \
  uint32_t field##_index() const { return cell(kTable, col::Table::Column); }                        \
  Expected<std::span<const uint8_t>> field() const { return blob_at(field##_index()); }             \
  Expected<ByteReader> field##_reader(std::string_view structure) const {                          \
    return blob_reader(field##_index(), structure);                                                \
  }
#define CIL_VIEW_Guid(Table, Column, field, Arg)                            \
  uint32_t field##_index() const { return cell(kTable, col::Table::Column); } \
  Expected<Guid> field() const { return guid_at(field##_index()); }
#define CIL_VIEW_Table(Table, Column, field, Arg) \
  uint32_t field() const { return cell(kTable, col::Table::Column); }
#define CIL_VIEW_Coded(Table, Column, field, Arg) \
  Token field() const { return coded(CodedIndex::Arg, cell(kTable, col::Table::Column)); }

#define CIL_TABLE(table_id, Table)                   \
  class Table##View : public RowView {               \
   public:                                           \
    static constexpr TableId kTable = TableId::Table; \
    using RowView::RowView;                          \
    /** The row as a typed id. */                    \
    Table##Id id() const { return Table##Id(rid()); }
#define CIL_COLUMN(Table, Column, field, Kind, Arg) CIL_VIEW_##Kind(Table, Column, field, Arg)
#define CIL_TABLE_END(Table) };
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
#undef CIL_VIEW_U16
#undef CIL_VIEW_U32
#undef CIL_VIEW_String
#undef CIL_VIEW_Blob
#undef CIL_VIEW_Guid
#undef CIL_VIEW_Table
#undef CIL_VIEW_Coded

// Builders: one field per column, in schema order, for designated initializers. String and
// Blob fields are the content (added to the heap when the row is added; a span must outlive
// the add), Coded fields a token (encoded then; a nil token is 0), Table fields a row id, Guid
// fields a #GUID index.
#define CIL_FIELD_U16(Arg) Arg
#define CIL_FIELD_U32(Arg) Arg
#define CIL_FIELD_String(Arg) std::string_view
#define CIL_FIELD_Blob(Arg) std::span<const uint8_t>
#define CIL_FIELD_Guid(Arg) uint32_t
#define CIL_FIELD_Table(Arg) uint32_t
#define CIL_FIELD_Coded(Arg) Token

#define CIL_TABLE(id, Table) \
  struct Table##Row {        \
    static constexpr TableId kTable = TableId::Table;
#define CIL_COLUMN(Table, Column, field, Kind, Arg) CIL_FIELD_##Kind(Arg) field{};
#define CIL_TABLE_END(Table) };
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END

// A U16 or U32 column's type has the column's width (II.22: flags are 2 or 4 bytes).
#define CIL_TABLE(id, Table)
#define CIL_COLUMN(Table, Column, field, Kind, Arg) CIL_WIDTH_##Kind(Table, Column, Arg)
#define CIL_TABLE_END(Table)
#define CIL_WIDTH_U16(Table, Column, Arg) static_assert(sizeof(Arg) == 2, #Table "." #Column " is 2 bytes");
#define CIL_WIDTH_U32(Table, Column, Arg) static_assert(sizeof(Arg) == 4, #Table "." #Column " is 4 bytes");
#define CIL_WIDTH_String(Table, Column, Arg)
#define CIL_WIDTH_Blob(Table, Column, Arg)
#define CIL_WIDTH_Guid(Table, Column, Arg)
#define CIL_WIDTH_Table(Table, Column, Arg)
#define CIL_WIDTH_Coded(Table, Column, Arg)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
#undef CIL_WIDTH_U16
#undef CIL_WIDTH_U32
#undef CIL_WIDTH_String
#undef CIL_WIDTH_Blob
#undef CIL_WIDTH_Guid
#undef CIL_WIDTH_Table
#undef CIL_WIDTH_Coded

/// The view and builder types of table T: TableTypes<TableId::MethodDef>::View is MethodDefView.
template <TableId T>
struct TableTypes;
#define CIL_TABLE(id, Table)                  \
  template <>                                 \
  struct TableTypes<TableId::Table> {         \
    using View = Table##View;                 \
    using Row = Table##Row;                   \
  };
#define CIL_COLUMN(Table, Column, field, Kind, Arg)
#define CIL_TABLE_END(Table)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END

template <TableId T>
using RowViewOf = typename TableTypes<T>::View;

}  // namespace cil::md
