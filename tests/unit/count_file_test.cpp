// Count files: the shape checks and their messages, and the merge of several runs.
#include <gtest/gtest.h>

#include "cli/results/count_file.h"

namespace cil::cli {
namespace {

constexpr std::string_view kMvid = "0F8FAD5B-D9CB-469F-A165-70867728950E";

std::string count_file(std::string_view assembly, std::string_view mvid, std::string_view methods) {
  return std::string("{\"assembly\": \"") + std::string(assembly) + "\", \"mvid\": \"" + std::string(mvid) + "\", \"methods\": [" +
         std::string(methods) + "]}";
}

std::string shape_error(std::string_view methods) {
  auto f = parse_count_file(count_file("App", kMvid, methods));
  EXPECT_FALSE(f) << methods;
  return f ? "" : f.error().to_string();
}

TEST(CountFile, Parses) {
  auto f = parse_count_file(count_file("App", kMvid,
                                       R"({"token": "0x06000001", "name": "App.P::Main", "count": 1},
                                          {"token": "0x0600000a", "name": "App.P::M", "count": 0, "extra": [1]})"));
  ASSERT_TRUE(f) << f.error().to_string();
  EXPECT_EQ(f->assembly, "App");
  EXPECT_EQ(f->mvid, "0f8fad5b-d9cb-469f-a165-70867728950e");
  ASSERT_EQ(f->methods.size(), 2u);
  EXPECT_EQ(f->methods[1].token, md::Token(0x0600000A));
  EXPECT_EQ(f->methods[1].name, "App.P::M");
  EXPECT_EQ(f->methods[0].count, 1u);
}

TEST(CountFile, ShapeErrors) {
  EXPECT_EQ(parse_count_file("[]").error().to_string(), "count file: the top level must be an object, not an array");
  EXPECT_EQ(parse_count_file(R"({"mvid": "x", "methods": []})").error().to_string(), "count file: missing \"assembly\"");
  EXPECT_EQ(parse_count_file(count_file("App", "1234", "")).error().to_string(),
            "count file: \"mvid\" must be a GUID like 01234567-89ab-cdef-0123-456789abcdef, not \"1234\"");
  EXPECT_EQ(shape_error("1"), "count file: methods[0] must be an object, not a number");
  EXPECT_EQ(shape_error(R"({"name": "M", "count": 1})"), "count file: methods[0]: missing \"token\"");
  EXPECT_EQ(shape_error(R"({"token": 100663297, "name": "M", "count": 1})"),
            "count file: methods[0]: \"token\" must be a string, not a number");
  EXPECT_EQ(shape_error(R"({"token": "0x02000001", "name": "M", "count": 1})"),
            "count file: methods[0]: \"token\" must be a MethodDef token like \"0x06000001\", not \"0x02000001\"");
  EXPECT_NE(shape_error(R"({"token": "0x06000000", "name": "M", "count": 1})").find("MethodDef token"), std::string::npos);
  EXPECT_EQ(shape_error(R"({"token": "0x06000001", "name": "M", "count": -1})"),
            "count file: methods[0]: \"count\" must be an integer from 0 to 18446744073709551615, not -1");
  EXPECT_NE(shape_error(R"({"token": "0x06000001", "name": "M", "count": 18446744073709551616})").find("not 18446744073709551616"),
            std::string::npos);
  EXPECT_NE(shape_error(R"({"token": "0x06000001", "name": "M", "count": 1.5})").find("not 1.5"), std::string::npos);
  EXPECT_EQ(shape_error(R"({"token": "0x06000001", "name": "M", "count": 1}, {"token": "0x06000001", "name": "M", "count": 2})"),
            "count file: methods[1]: token 0x06000001 is listed twice (also methods[0])");
  EXPECT_EQ(parse_count_file("{").error().structure, "JSON");
}

CountFile make(std::string assembly, std::string mvid, std::vector<MethodCount> methods) {
  return CountFile{std::move(assembly), std::move(mvid), std::move(methods)};
}

TEST(CountFile, MergeSumsAndSorts) {
  const std::string mvid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  CountMerger merger;
  auto w1 = merger.add("a.json", make("App", mvid, {{md::Token(0x06000001), "App.P::Main", 1}, {md::Token(0x06000002), "App.P::B", 5}, {md::Token(0x06000003), "App.P::A", 0}}));
  ASSERT_TRUE(w1);
  EXPECT_TRUE(w1->empty());
  auto w2 = merger.add("b.json", make("App", mvid, {{md::Token(0x06000001), "App.P::Main", 1}, {md::Token(0x06000003), "App.P::A", 5}, {md::Token(0x06000004), "App.P::C", 0}}));
  ASSERT_TRUE(w2);
  EXPECT_TRUE(w2->empty());
  auto result = merger.result();
  ASSERT_EQ(result.size(), 1u);
  const AssemblyCounts& a = result[0];
  EXPECT_EQ(a.files, 2u);
  EXPECT_EQ(a.called, 3u);
  EXPECT_EQ(a.total_calls, 12u);
  ASSERT_EQ(a.methods.size(), 4u);
  // By count descending, then name: A and B tie at 5.
  EXPECT_EQ(a.methods[0].name, "App.P::A");
  EXPECT_EQ(a.methods[1].name, "App.P::B");
  EXPECT_EQ(a.methods[2].name, "App.P::Main");
  EXPECT_EQ(a.methods[2].count, 2u);
  EXPECT_EQ(a.methods[3].name, "App.P::C");
}

TEST(CountFile, MergeKeepsBuildsApart) {
  CountMerger merger;
  ASSERT_TRUE(merger.add("z.json", make("Zed", "00000000-0000-0000-0000-000000000001", {{md::Token(0x06000001), "Z::M", 1}})));
  ASSERT_TRUE(merger.add("a1.json", make("App", "00000000-0000-0000-0000-000000000002", {{md::Token(0x06000001), "A::M", 1}})));
  auto w = merger.add("a2.json", make("App", "00000000-0000-0000-0000-000000000001", {{md::Token(0x06000001), "A::N", 1}}));
  ASSERT_TRUE(w);
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0],
            "assembly \"App\" has mvid 00000000-0000-0000-0000-000000000001 here but 00000000-0000-0000-0000-000000000002 in "
            "a1.json: a different build, reported separately");
  auto result = merger.result();
  ASSERT_EQ(result.size(), 3u);
  EXPECT_EQ(result[0].assembly, "App");
  EXPECT_EQ(result[0].mvid, "00000000-0000-0000-0000-000000000001");
  EXPECT_EQ(result[1].assembly, "App");
  EXPECT_EQ(result[2].assembly, "Zed");
}

TEST(CountFile, MergeWarnsOnRenameAndRefusesOverflow) {
  const std::string mvid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  CountMerger merger;
  ASSERT_TRUE(merger.add("a.json", make("App", mvid, {{md::Token(0x06000001), "App.P::Main", UINT64_MAX - 1}})));
  auto w = merger.add("b.json", make("App", mvid, {{md::Token(0x06000001), "App.P::Other", 1}}));
  ASSERT_TRUE(w);
  ASSERT_EQ(w->size(), 1u);
  EXPECT_EQ((*w)[0], "0x06000001 is named \"App.P::Other\" here but \"App.P::Main\" in a.json; keeping the first name");
  auto overflow = merger.add("c.json", make("App", mvid, {{md::Token(0x06000001), "App.P::Main", 1}}));
  ASSERT_FALSE(overflow);
  EXPECT_NE(overflow.error().message.find("add up to more than"), std::string::npos);
  auto result = merger.result();
  EXPECT_EQ(result[0].files, 2u);  // the refused file changed nothing
  EXPECT_EQ(result[0].methods[0].count, UINT64_MAX);
}

}  // namespace
}  // namespace cil::cli
