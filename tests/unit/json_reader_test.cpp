// The JSON reader: the grammar, escapes and UTF-8, numbers up to 2^64-1, and malformed input
// (truncated, too deep, bad escapes) failing with a message instead of crashing.
#include <gtest/gtest.h>

#include "cli/output/json_reader.h"

namespace cil::cli {
namespace {

JsonValue parse_ok(std::string_view text) {
  auto v = parse_json(text);
  EXPECT_TRUE(v) << text << ": " << (v ? "" : v.error().to_string());
  return v ? *v : JsonValue{};
}

/// The error message for `text`, which must not parse.
std::string parse_error(std::string_view text) {
  auto v = parse_json(text);
  EXPECT_FALSE(v) << text;
  return v ? "" : v.error().to_string();
}

TEST(JsonReader, Values) {
  JsonValue v = parse_ok(R"( {"a": [1, -2.5e3, true, false, null, "x"], "b": {}} )");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.members().size(), 2u);
  const JsonValue* a = v.find("a");
  ASSERT_TRUE(a && a->is_array());
  ASSERT_EQ(a->items().size(), 6u);
  EXPECT_EQ(a->items()[0].as_uint64(), 1u);
  EXPECT_EQ(a->items()[1].text(), "-2.5e3");
  EXPECT_FALSE(a->items()[1].as_uint64());
  EXPECT_TRUE(a->items()[2].is_bool() && a->items()[2].boolean());
  EXPECT_TRUE(a->items()[3].is_bool() && !a->items()[3].boolean());
  EXPECT_TRUE(a->items()[4].is_null());
  EXPECT_EQ(a->items()[5].text(), "x");
  EXPECT_TRUE(v.find("b")->is_object());
  EXPECT_EQ(v.find("c"), nullptr);
  EXPECT_TRUE(parse_ok("[]").items().empty());
  EXPECT_EQ(parse_ok("\xEF\xBB\xBF\"bom\"").text(), "bom");
}

TEST(JsonReader, Numbers) {
  EXPECT_EQ(parse_ok("0").as_uint64(), 0u);
  EXPECT_EQ(parse_ok("18446744073709551615").as_uint64(), UINT64_MAX);
  EXPECT_FALSE(parse_ok("18446744073709551616").as_uint64());
  EXPECT_FALSE(parse_ok("100000000000000000000000000000").as_uint64());
  EXPECT_FALSE(parse_ok("-1").as_uint64());
  EXPECT_FALSE(parse_ok("1.0").as_uint64());
  EXPECT_FALSE(parse_ok("1e3").as_uint64());
  EXPECT_EQ(parse_ok("1e400").text(), "1e400");
  EXPECT_EQ(parse_ok(std::string(5000, '9')).text().size(), 5000u);
  EXPECT_NE(parse_error("01").find("leading zero"), std::string::npos);
  EXPECT_NE(parse_error("-").find("expected a digit"), std::string::npos);
  EXPECT_NE(parse_error("1.").find("after '.'"), std::string::npos);
  EXPECT_NE(parse_error("1e").find("exponent"), std::string::npos);
  parse_error("+1");
  parse_error(".5");
  parse_error("0x10");
}

TEST(JsonReader, Strings) {
  EXPECT_EQ(parse_ok(R"("a\"b\\c\/d\b\f\n\r\t")").text(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(parse_ok(R"("\u0041\u00e9\u20AC")").text(), "A\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(parse_ok(R"("\ud83d\ude00")").text(), "\xF0\x9F\x98\x80");  // U+1F600
  EXPECT_EQ(parse_ok(R"("\u0000")").text(), std::string(1, '\0'));
  EXPECT_EQ(parse_ok("\"\xC3\xA9\xF0\x9F\x98\x80\"").text(), "\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_NE(parse_error(R"("\x")").find("invalid escape"), std::string::npos);
  EXPECT_NE(parse_error(R"("\u12")").find("4 hexadecimal digits"), std::string::npos);
  EXPECT_NE(parse_error(R"("\u12G4")").find("4 hexadecimal digits"), std::string::npos);
  EXPECT_NE(parse_error(R"("\ud83d")").find("not followed by a low surrogate"), std::string::npos);
  EXPECT_NE(parse_error(R"("\ud83dx")").find("not followed by a low surrogate"), std::string::npos);
  EXPECT_NE(parse_error(R"("\ud83d\u0041")").find("not a low surrogate"), std::string::npos);
  EXPECT_NE(parse_error(R"("\ude00")").find("low surrogate"), std::string::npos);
  EXPECT_NE(parse_error("\"a\tb\"").find("control character 0x09"), std::string::npos);
  EXPECT_NE(parse_error("\"\xC0\xAF\"").find("invalid UTF-8"), std::string::npos);       // overlong
  EXPECT_NE(parse_error("\"\xED\xA0\x80\"").find("invalid UTF-8"), std::string::npos);   // surrogate
  EXPECT_NE(parse_error("\"\xF4\x90\x80\x80\"").find("invalid UTF-8"), std::string::npos);  // > U+10FFFF
  EXPECT_NE(parse_error("\"\xE2\x82\"").find("invalid UTF-8"), std::string::npos);       // truncated
  EXPECT_NE(parse_error("\"abc").find("not terminated"), std::string::npos);
  EXPECT_NE(parse_error("\"abc\\").find("invalid escape"), std::string::npos);
}

TEST(JsonReader, Truncated) {
  const std::string doc = R"({"assembly": "App", "methods": [{"token": "0x06000001", "count": 12}], "x": [true, null]})";
  parse_ok(doc);
  // Every proper prefix is an error, never a crash.
  for (size_t n = 0; n < doc.size(); ++n) parse_error(doc.substr(0, n));
  EXPECT_EQ(parse_error(""), "JSON: line 1, column 1: unexpected end of input, expected a value");
  EXPECT_EQ(parse_error("{\n  \"a\": 1,\n  \"b\" 2}"), "JSON: line 3, column 7: unexpected character '2', expected ':' after an object key");
}

TEST(JsonReader, Structure) {
  EXPECT_NE(parse_error("[1,]").find("expected a value"), std::string::npos);
  EXPECT_NE(parse_error("[1 2]").find("expected ',' or ']'"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\" 1}").find("expected ':'"), std::string::npos);
  EXPECT_NE(parse_error("{a: 1}").find("expected a string key"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\": 1,}").find("expected a string key"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\": 1 \"b\": 2}").find("expected ',' or '}'"), std::string::npos);
  EXPECT_NE(parse_error("{\"a\": 1, \"b\": 2, \"a\": 3}").find("duplicate key \"a\""), std::string::npos);
  EXPECT_NE(parse_error("[] []").find("after the JSON value"), std::string::npos);
  EXPECT_EQ(parse_error("tru"), "JSON: line 1, column 1: invalid literal 'tru', expected a value ('true'?)");
  EXPECT_NE(parse_error("nullx").find("invalid literal 'nullx'"), std::string::npos);
  EXPECT_NE(parse_error("nul").find("invalid literal 'nul'"), std::string::npos);
  EXPECT_NE(parse_error("'a'").find("byte 0x27"), std::string::npos);
  EXPECT_NE(parse_error("\x01").find("byte 0x01"), std::string::npos);
}

TEST(JsonReader, DepthAndCountLimits) {
  // 10000 levels must fail cleanly, not overflow the stack.
  for (const char* open : {"[", "{\"a\":"}) {
    std::string deep;
    for (int i = 0; i < 10000; ++i) deep += open;
    auto v = parse_json(deep);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().kind, ErrorKind::Limit);
    EXPECT_NE(v.error().message.find("nested deeper than 256 levels"), std::string::npos);
  }
  std::string ok_depth = std::string(256, '[') + std::string(256, ']');
  parse_ok(ok_depth);
  parse_error(std::string(257, '[') + std::string(257, ']'));

  JsonLimits small;
  small.max_values = 3;
  EXPECT_TRUE(parse_json("[1, 2]", small));
  auto v = parse_json("[1, 2, 3]", small);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().kind, ErrorKind::Limit);
}

}  // namespace
}  // namespace cil::cli
