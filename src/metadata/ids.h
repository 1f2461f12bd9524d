// Typed ids, after SRM's handles (MethodDefinitionHandle, EntityHandle): a row of one table is a
// RowId<T> (MethodDefId, TypeDefId, ...), so the compiler refuses a TypeDef row where a MethodDef
// row is meant; a token is a Token, made from a raw integer only on purpose. Both hold one
// uint32_t and cost nothing over it.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include <fmt/core.h>

#include "metadata/table_id.h"

namespace cil::md {

inline constexpr uint32_t kMaxRid = 0x00FFFFFF;
inline constexpr uint8_t kUserStringTokenType = 0x70;

template <TableId T>
class RowId;

/// A metadata token (II.22 and III.1.9): table id in the high byte, 1-based row id below (or a
/// #US offset for type 0x70). Neither way is implicit: a raw integer becomes a Token only as
/// Token(value), and the raw value (operand bytes, coded indexes) is asked for as value(), so a
/// token cannot pass where a row, an offset or a count is meant.
class Token {
 public:
  constexpr Token() = default;
  constexpr explicit Token(uint32_t value) : value_(value) {}
  constexpr Token(TableId table, uint32_t row) : value_((uint32_t{static_cast<uint8_t>(table)} << 24) | row) {}

  constexpr uint32_t value() const { return value_; }
  /// False for token 0, "none" (not found, no local signature): `if (Token found = ...)`.
  constexpr explicit operator bool() const { return value_ != 0; }
  friend constexpr bool operator==(Token, Token) = default;
  friend constexpr auto operator<=>(Token, Token) = default;
  /// The high byte: a TableId, or kUserStringTokenType.
  constexpr uint8_t type() const { return static_cast<uint8_t>(value_ >> 24); }
  constexpr TableId table() const { return static_cast<TableId>(value_ >> 24); }
  constexpr uint32_t row() const { return value_ & kMaxRid; }
  /// The row when the token names table T (any row, 0 included; not checked against the tables).
  template <TableId T>
  constexpr std::optional<RowId<T>> as() const;

 private:
  uint32_t value_ = 0;
};

/// A 1-based row of table T; 0 is the nil row ("none"). Made from a raw row number only
/// explicitly; rows of different tables do not convert into each other.
template <TableId T>
class RowId {
 public:
  static constexpr TableId kTable = T;
  constexpr RowId() = default;
  constexpr explicit RowId(uint32_t value) : value_(value) {}

  constexpr uint32_t value() const { return value_; }
  constexpr bool is_nil() const { return value_ == 0; }
  constexpr Token token() const { return Token(T, value_); }
  friend constexpr bool operator==(RowId, RowId) = default;
  friend constexpr auto operator<=>(RowId, RowId) = default;

 private:
  uint32_t value_ = 0;
};

/// Rows 1 to n of table T, for walks over a whole table: for (MethodDefId method : m.ids<TableId::MethodDef>()).
template <TableId T>
class RowRange {
 public:
  class iterator {
   public:
    using value_type = RowId<T>;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr explicit iterator(uint32_t row) : row_(row) {}
    constexpr RowId<T> operator*() const { return RowId<T>(row_); }
    constexpr iterator& operator++() {
      ++row_;
      return *this;
    }
    constexpr iterator operator++(int) { return iterator(row_++); }
    friend constexpr bool operator==(iterator, iterator) = default;

   private:
    uint32_t row_ = 1;
  };
  constexpr explicit RowRange(uint32_t rows) : rows_(rows) {}
  constexpr iterator begin() const { return iterator(1); }
  constexpr iterator end() const { return iterator(rows_ + 1); }
  constexpr uint32_t size() const { return rows_; }

 private:
  uint32_t rows_;  ///< at most kMaxRid, so rows_ + 1 does not wrap
};

template <TableId T>
constexpr std::optional<RowId<T>> Token::as() const {
  if (table() != T) return std::nullopt;
  return RowId<T>(row());
}

// MethodDefId, TypeDefId, FieldId, ... one alias per table.
#define CIL_TABLE(id, Table) using Table##Id = RowId<TableId::Table>;
#define CIL_COLUMN(Table, Column, field, Kind, Arg)
#define CIL_TABLE_END(Table)
#include "metadata/tables.def"
#undef CIL_TABLE
#undef CIL_COLUMN
#undef CIL_TABLE_END

static_assert(sizeof(Token) == 4 && sizeof(MethodDefId) == 4, "ids are one uint32_t");

}  // namespace cil::md

template <>
struct std::hash<cil::md::Token> {
  size_t operator()(cil::md::Token t) const noexcept { return std::hash<uint32_t>{}(t.value()); }
};
template <cil::md::TableId T>
struct std::hash<cil::md::RowId<T>> {
  size_t operator()(cil::md::RowId<T> r) const noexcept { return std::hash<uint32_t>{}(r.value()); }
};
// A Token formats as its raw value: fmt::format("0x{:08X}", token).
template <>
struct fmt::formatter<cil::md::Token> : fmt::formatter<uint32_t> {
  template <class Context>
  auto format(cil::md::Token t, Context& ctx) const {
    return fmt::formatter<uint32_t>::format(t.value(), ctx);
  }
};
