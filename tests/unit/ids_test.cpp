// Typed ids (metadata/ids.h): a row of one table does not pass for a row of another, a raw
// integer becomes a token or a row only explicitly, and both cost one uint32_t. The static
// asserts are the compile-fail checks: each names a mix-up the compiler must refuse.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>
#include <unordered_set>

#include <fmt/format.h>

#include "metadata/ids.h"
#include "metadata/module.h"

namespace cil {
namespace {

using md::FieldId;
using md::MethodDefId;
using md::TableId;
using md::Token;
using md::TypeDefId;

// Rows of different tables do not convert into each other, either way.
static_assert(!std::is_convertible_v<TypeDefId, MethodDefId>);
static_assert(!std::is_convertible_v<MethodDefId, TypeDefId>);
static_assert(!std::is_constructible_v<MethodDefId, TypeDefId>);
static_assert(!std::is_convertible_v<FieldId, MethodDefId>);
// A raw number, or a token, is a row only when said so.
static_assert(!std::is_convertible_v<uint32_t, MethodDefId>);
static_assert(!std::is_convertible_v<Token, MethodDefId>);
static_assert(std::is_constructible_v<MethodDefId, uint32_t>);
// A raw number is a token only when said so, and a token a raw number only as value().
static_assert(!std::is_convertible_v<uint32_t, Token>);
static_assert(!std::is_convertible_v<int, Token>);
static_assert(!std::is_convertible_v<Token, uint32_t>);
// A row is not a raw number either: its value() is asked for.
static_assert(!std::is_convertible_v<MethodDefId, uint32_t>);
// Zero cost: one uint32_t, copied as one.
static_assert(sizeof(Token) == sizeof(uint32_t) && sizeof(MethodDefId) == sizeof(uint32_t));
static_assert(std::is_trivially_copyable_v<Token> && std::is_trivially_copyable_v<MethodDefId>);

// The Module API takes and gives rows of the table it names.
static_assert(std::is_same_v<decltype(std::declval<md::Module>().method_owner(MethodDefId(1))), TypeDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Module::method_owner), const md::Module&, TypeDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Module::methods_of), const md::Module&, MethodDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Module::field_owner), const md::Module&, MethodDefId>);

TEST(Ids, TokenParts) {
  constexpr Token t(TableId::MethodDef, 0x12);
  static_assert(t.value() == 0x06000012);
  EXPECT_EQ(t.table(), TableId::MethodDef);
  EXPECT_EQ(t.type(), 0x06);
  EXPECT_EQ(t.row(), 0x12u);
  EXPECT_EQ(Token(0x0A000003).table(), TableId::MemberRef);
  EXPECT_EQ(Token().value(), 0u);
  EXPECT_EQ(fmt::format("0x{:08X}", t), "0x06000012");
}

TEST(Ids, CheckedConversion) {
  Token method(TableId::MethodDef, 7);
  ASSERT_TRUE(method.as<TableId::MethodDef>().has_value());
  EXPECT_EQ(*method.as<TableId::MethodDef>(), MethodDefId(7));
  EXPECT_FALSE(method.as<TableId::TypeDef>().has_value());
  EXPECT_FALSE(Token(TableId::MemberRef, 7).as<TableId::MethodDef>().has_value());
  EXPECT_EQ(MethodDefId(7).token(), method);
  EXPECT_EQ(TypeDefId(2).token().value(), 0x02000002u);
}

TEST(Ids, RowsCompareAndHash) {
  EXPECT_TRUE(MethodDefId().is_nil());
  EXPECT_FALSE(MethodDefId(1).is_nil());
  EXPECT_LT(MethodDefId(1), MethodDefId(2));
  EXPECT_NE(MethodDefId(1), MethodDefId(2));
  std::unordered_set<MethodDefId> rows{MethodDefId(1), MethodDefId(1), MethodDefId(3)};
  EXPECT_EQ(rows.size(), 2u);
  std::unordered_set<Token> tokens{Token(1), Token(1)};
  EXPECT_EQ(tokens.size(), 1u);
}

}  // namespace
}  // namespace cil
