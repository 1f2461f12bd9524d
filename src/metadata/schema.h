// The metadata schema as data: table ids, column kinds, coded indexes, and tokens. Generated from
// tables.def and coded_indexes.def; row sizes, reading, writing and dumping all read it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "metadata/ids.h"
#include "metadata/table_id.h"

namespace cil::md {

inline constexpr unsigned kTableSlots = 64;  ///< the Valid bit vector has 64 bits

/// Column indexes per table: col::TypeDef::MethodList and so on.
namespace col {
#define CIL_TABLE(id, Table) namespace Table { enum Column : uint8_t {
#define CIL_COLUMN(Table, Column, field, Kind, Arg) Column,
#define CIL_TABLE_END(Table) kColumnCount }; }
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END
}  // namespace col

enum class CodedIndex : uint8_t {
#define CIL_CODED(Name, bits, ...) Name,
#include "metadata/coded_indexes.def"
#undef CIL_CODED
};

enum class ColumnKind : uint8_t { U16, U32, String, Guid, Blob, Table, Coded };

struct ColumnSchema {
  std::string_view name;
  ColumnKind kind;
  uint8_t target;  ///< TableId for Table columns, CodedIndex for Coded columns
};

struct TableSchema {
  std::string_view name;
  TableId id;
  std::span<const ColumnSchema> columns;
  bool defined() const { return !columns.empty(); }
};

struct CodedIndexSchema {
  std::string_view name;
  uint8_t tag_bits;
  std::span<const TableId> tables;  ///< in tag order; TableId::Unused where a tag names no table
};

/// The schema of table slot `id` (0..63); undefined slots have no columns.
const TableSchema& table_schema(uint8_t id);
inline const TableSchema& table_schema(TableId id) { return table_schema(static_cast<uint8_t>(id)); }
const CodedIndexSchema& coded_index_schema(CodedIndex kind);
std::span<const CodedIndexSchema> coded_index_schemas();

/// Tokens (II.22 and III.1.9): table id in the high byte, 1-based row id below (metadata/ids.h).
inline constexpr Token make_token(TableId table, uint32_t rid) { return Token(table, rid); }
inline constexpr uint8_t token_type(Token token) { return token.type(); }
inline constexpr TableId token_table(Token token) { return token.table(); }
inline constexpr uint32_t token_rid(Token token) { return token.row(); }

}  // namespace cil::md
