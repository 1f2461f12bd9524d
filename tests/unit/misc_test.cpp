// Glob patterns, identifier quoting, string escaping and JSON quoting.
#include <gtest/gtest.h>

#include "cli/json_writer.h"
#include "metadata/name_pattern.h"
#include "metadata/printer.h"

namespace cil {
namespace {

TEST(Glob, Matches) {
  using md::glob_match;
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*", "Ns.Type::M"));
  EXPECT_TRUE(glob_match("Ns.*::M", "Ns.Outer/Inner::M"));
  EXPECT_TRUE(glob_match("*::.ctor", "A.B::.ctor"));
  EXPECT_FALSE(glob_match("*::.ctor", "A.B::.cctor"));
  EXPECT_TRUE(glob_match("A?C", "ABC"));
  EXPECT_FALSE(glob_match("A?C", "AC"));
  EXPECT_TRUE(glob_match("*a*b*c*", "xxaxxbxxcxx"));
  EXPECT_FALSE(glob_match("*a*b*c*d", "xxaxxbxxcxx"));
  EXPECT_TRUE(glob_match("Program::Main", "Program::Main"));
  EXPECT_FALSE(glob_match("Program::Main", "Program::MainX"));
  // Pathological patterns stay fast (the matcher is O(n*m) without recursion).
  std::string text(2000, 'a');
  EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*b", text));
}

TEST(Glob, Filter) {
  md::MethodFilter f;
  EXPECT_TRUE(f.selects("X::Y"));
  f.include = {"App.*"};
  f.exclude = {"*::get_*"};
  EXPECT_TRUE(f.selects("App.Foo::Bar"));
  EXPECT_FALSE(f.selects("App.Foo::get_Bar"));
  EXPECT_FALSE(f.selects("Lib.Foo::Bar"));
}

TEST(Printer, QuoteIdentifier) {
  EXPECT_EQ(md::quote_identifier("Main"), "Main");
  EXPECT_EQ(md::quote_identifier(".ctor"), ".ctor");
  EXPECT_EQ(md::quote_identifier("List`1"), "List`1");
  EXPECT_EQ(md::quote_identifier("<Main>$"), "'<Main>$'");
  EXPECT_EQ(md::quote_identifier("it's"), "'it\\'s'");
  EXPECT_EQ(md::quote_identifier("1st"), "'1st'");
  EXPECT_EQ(md::quote_identifier(""), "''");
}

TEST(Printer, EscapeString) {
  EXPECT_EQ(md::escape_string(u"a\"b\\c\n"), "a\\\"b\\\\c\\n");
  EXPECT_EQ(md::escape_string(u"\u00e9\u0001"), "\\u00E9\\u0001");
}

TEST(Json, QuoteAndStructure) {
  EXPECT_EQ(cli::json_quote("a\"\\\n\x01"), "\"a\\\"\\\\\\n\\u0001\"");
  cli::JsonWriter j;
  j.begin_object();
  j.key("a").value(1);
  j.key("b").begin_array(true);
  j.value("x");
  j.null();
  j.end_array();
  j.key("c").begin_object();
  j.end_object();
  j.end_object();
  EXPECT_EQ(j.text(), "{\n  \"a\": 1,\n  \"b\": [\"x\", null],\n  \"c\": {}\n}\n");
}

}  // namespace
}  // namespace cil

namespace cil {
namespace {

TEST(Json, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(cli::json_quote("a\xff" "b"), "\"a\xEF\xBF\xBD" "b\"");
  EXPECT_EQ(cli::json_quote("\xC3\xA9"), "\"\xC3\xA9\"") << "valid UTF-8 passes through";
  EXPECT_EQ(cli::json_quote("\xE2\x82"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"") << "truncated sequence";
  EXPECT_EQ(cli::json_quote("\xED\xA0\x80"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"") << "surrogate";
}

}  // namespace
}  // namespace cil
