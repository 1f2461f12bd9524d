// `report --path-map` and `--source-root`: prefixes match on whole components, the longest FROM
// wins, separators follow TO, bad values are usage errors.
#include <gtest/gtest.h>

#include "cli/results/source_paths.h"

namespace cil::cli {
namespace {

PathMap map_of(std::initializer_list<const char*> mappings) {
  PathMap map;
  for (const char* m : mappings) EXPECT_TRUE(static_cast<bool>(map.add(m))) << m;
  return map;
}

TEST(PathMap, MatchesWholeComponentsOnly) {
  PathMap map = map_of({"/_/src=/home/me/src"});
  EXPECT_EQ(map.apply("/_/src/A.cs"), "/home/me/src/A.cs");
  EXPECT_EQ(map.apply("/_/src"), "/home/me/src");
  EXPECT_EQ(map.apply("/_/srcx/A.cs"), "/_/srcx/A.cs");
  EXPECT_EQ(map.apply("/other/_/src/A.cs"), "/other/_/src/A.cs");
}

TEST(PathMap, LongestFromWinsWhateverTheOrder) {
  for (auto map : {map_of({"/_=/a", "/_/src/lib=/b", "/_/src=/c"}), map_of({"/_/src/lib=/b", "/_/src=/c", "/_=/a"})}) {
    EXPECT_EQ(map.apply("/_/src/lib/X.cs"), "/b/X.cs");
    EXPECT_EQ(map.apply("/_/src/Y.cs"), "/c/Y.cs");
    EXPECT_EQ(map.apply("/_/Z.cs"), "/a/Z.cs");
  }
}

TEST(PathMap, TrailingSeparatorsAndSeparatorStyle) {
  EXPECT_EQ(map_of({"/_/src/=/home/me/"}).apply("/_/src/A.cs"), "/home/me/A.cs");
  EXPECT_EQ(map_of({"C:\\build\\src=/home/me/src"}).apply("C:\\build\\src\\Lib\\A.cs"), "/home/me/src/Lib/A.cs");
  EXPECT_EQ(map_of({"/_=D:\\work"}).apply("/_/Lib/A.cs"), "D:\\work\\Lib\\A.cs");
  EXPECT_EQ(map_of({"/_=/"}).apply("/_/A.cs"), "/A.cs");
  EXPECT_EQ(map_of({"/_/src="}).apply("/_/src/Lib/A.cs"), "Lib/A.cs");
  EXPECT_EQ(map_of({"/_/src=a=b"}).apply("/_/src/A.cs"), "a=b/A.cs");  // split at the first '='
}

TEST(PathMap, BadValuesAreUsageErrors) {
  PathMap map;
  for (const char* bad : {"/_/src", "=/x", ""}) {
    Status added = map.add(bad);
    ASSERT_FALSE(static_cast<bool>(added)) << bad;
    EXPECT_EQ(added.error().kind, ErrorKind::Usage);
  }
  EXPECT_TRUE(map.empty());
}

TEST(RelativeTo, UnderTheRootOnly) {
  EXPECT_EQ(relative_to("/home/me/src/Lib/A.cs", "/home/me/src"), "Lib/A.cs");
  EXPECT_EQ(relative_to("/home/me/src/Lib/A.cs", "/home/me/src/"), "Lib/A.cs");
  EXPECT_EQ(relative_to("/home/me/srcx/A.cs", "/home/me/src"), std::nullopt);
  EXPECT_EQ(relative_to("/home/me/src", "/home/me/src"), std::nullopt);
  EXPECT_EQ(relative_to("/A.cs", "/"), "A.cs");
}

}  // namespace
}  // namespace cil::cli
