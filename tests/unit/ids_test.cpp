// Typed ids (metadata/ids.h): a row of one table does not pass for a row of another, a raw
// integer becomes a token or a row only explicitly, and both cost one uint32_t. The static
// asserts are the compile-fail checks: each names a mix-up the compiler must refuse.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>
#include <unordered_set>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/code_builder.h"
#include "il/disassembler.h"
#include "instrument/coverage_mode.h"
#include "metadata/ids.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "metadata/printer.h"

namespace cil {
namespace {

using md::DocumentId;
using md::FieldId;
using md::MemberRefId;
using md::MethodDefId;
using md::ParamId;
using md::TableId;
using md::Token;
using md::TypeDefId;

// Rows of different tables do not convert into each other, either way.
static_assert(!std::is_convertible_v<TypeDefId, MethodDefId>);
static_assert(!std::is_convertible_v<MethodDefId, TypeDefId>);
static_assert(!std::is_constructible_v<MethodDefId, TypeDefId>);
static_assert(!std::is_convertible_v<FieldId, MethodDefId>);
static_assert(!std::is_convertible_v<MemberRefId, MethodDefId>);
static_assert(!std::is_convertible_v<ParamId, FieldId>);
static_assert(!std::is_convertible_v<DocumentId, MethodDefId>);
static_assert(!std::is_constructible_v<TypeDefId, FieldId>);
// A raw number, or a token, is a row only when said so.
static_assert(!std::is_convertible_v<uint32_t, MethodDefId>);
static_assert(!std::is_convertible_v<Token, MethodDefId>);
static_assert(std::is_constructible_v<MethodDefId, uint32_t>);
// A raw number is a token only when said so, and a token a raw number only as value(): not
// implicitly, not by a cast, not through its test for "none".
static_assert(!std::is_convertible_v<uint32_t, Token>);
static_assert(!std::is_convertible_v<int, Token>);
static_assert(!std::is_convertible_v<Token, uint32_t>);
static_assert(!std::is_convertible_v<Token, int64_t>);
static_assert(!std::is_constructible_v<uint32_t, Token>);
static_assert(!std::is_convertible_v<Token, bool>);
static_assert(std::is_constructible_v<bool, Token>);  // if (token), explicitly
static_assert(std::is_same_v<decltype(Token().value()), uint32_t>);
// Tokens compare with tokens, not with numbers.
template <class A, class B>
concept EqualityComparable = requires(A a, B b) { a == b; };
static_assert(EqualityComparable<Token, Token>);
static_assert(!EqualityComparable<Token, uint32_t>);
static_assert(!EqualityComparable<Token, int>);
static_assert(!EqualityComparable<MethodDefId, TypeDefId>);
static_assert(!EqualityComparable<MethodDefId, uint32_t>);
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
// So do the readers and printers above it: a body, a name, sequence points of a MethodDef row
// only; a raw number or another table's row does not compile.
static_assert(std::is_invocable_v<decltype(&il::has_il_body), const md::Module&, MethodDefId>);
static_assert(!std::is_invocable_v<decltype(&il::has_il_body), const md::Module&, TypeDefId>);
static_assert(!std::is_invocable_v<decltype(&il::has_il_body), const md::Module&, uint32_t>);
static_assert(!std::is_invocable_v<decltype(static_cast<Expected<il::MethodBody> (*)(const md::Module&, MethodDefId)>(&il::read_body)),
                                   const md::Module&, uint32_t>);
static_assert(std::is_invocable_v<decltype(&md::Printer::method_name), md::Printer&, MethodDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Printer::method_name), md::Printer&, TypeDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Printer::method_name), md::Printer&, uint32_t>);
static_assert(!std::is_invocable_v<decltype(&md::Printer::type_def_name), md::Printer&, MethodDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Printer::field_name), md::Printer&, MethodDefId>);
static_assert(!std::is_invocable_v<decltype(&md::Printer::method_header), md::Printer&, uint32_t>);
static_assert(!std::is_invocable_v<decltype(&md::PortablePdb::scopes_of), const md::PortablePdb&, uint32_t>);
static_assert(!std::is_invocable_v<decltype(&md::PortablePdb::document_name), const md::PortablePdb&, MethodDefId>);
static_assert(std::is_invocable_v<decltype(&md::PortablePdb::document_name), const md::PortablePdb&, DocumentId>);
static_assert(!std::is_invocable_v<decltype(&instrument::CoveragePlan::excluded), instrument::CoveragePlan&, uint32_t>);
static_assert(std::is_same_v<decltype(std::declval<const instrument::CoveragePlan&>().attributed(MethodDefId(1))), MethodDefId>);
// Token fields and operands are Tokens: a count or an offset does not pass for one.
static_assert(std::is_same_v<decltype(il::MethodBody::local_sig_token), Token>);
static_assert(std::is_same_v<decltype(il::ExceptionClause::class_token), Token>);
static_assert(std::is_same_v<decltype(il::MethodListing::token), Token>);
static_assert(!std::is_invocable_v<decltype(&il::CodeBuilder::call), il::CodeBuilder&, uint32_t>);
static_assert(std::is_invocable_v<decltype(&il::CodeBuilder::call), il::CodeBuilder&, Token>);

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

TEST(Ids, NoneTestsFalse) {
  EXPECT_FALSE(Token());
  EXPECT_FALSE(Token(0));
  EXPECT_TRUE(Token(TableId::MethodDef, 1));
  EXPECT_TRUE(Token(0x70000001));  // a #US offset
  EXPECT_EQ(Token(0x06000001), MethodDefId(1).token());
  EXPECT_LT(Token(0x02000001), Token(0x06000001));
}

TEST(Ids, RowsOfATable) {
  std::vector<uint32_t> seen;
  for (MethodDefId method : md::RowRange<TableId::MethodDef>(3)) seen.push_back(method.value());
  EXPECT_EQ(seen, (std::vector<uint32_t>{1, 2, 3}));
  md::RowRange<TableId::Field> none(0);
  EXPECT_EQ(none.begin(), none.end());
  EXPECT_EQ(none.size(), 0u);
}

TEST(Ids, CheckedConversion) {
  Token method(TableId::MethodDef, 7);
  ASSERT_TRUE(method.as<TableId::MethodDef>().has_value());
  EXPECT_EQ(*method.as<TableId::MethodDef>(), MethodDefId(7));
  EXPECT_FALSE(method.as<TableId::TypeDef>().has_value());
  EXPECT_FALSE(Token(TableId::MemberRef, 7).as<TableId::MethodDef>().has_value());
  EXPECT_EQ(MethodDefId(7).token(), method);
  EXPECT_EQ(TypeDefId(2).token().value(), 0x02000002u);
  // Row 0 of the right table converts (nil, "none"); a user string is no table's row.
  ASSERT_TRUE(Token(TableId::MethodDef, 0).as<TableId::MethodDef>().has_value());
  EXPECT_TRUE(Token(TableId::MethodDef, 0).as<TableId::MethodDef>()->is_nil());
  EXPECT_FALSE(Token(0x70000010).as<TableId::MethodDef>().has_value());
  EXPECT_FALSE(Token().as<TableId::MethodDef>().has_value());  // table 0 is Module
  EXPECT_TRUE(Token().as<TableId::Module>().has_value());
  // The row keeps the 24 bits below the table.
  EXPECT_EQ(Token(0x06FFFFFF).as<TableId::MethodDef>()->value(), md::kMaxRid);
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
