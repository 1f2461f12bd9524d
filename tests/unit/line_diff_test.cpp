// The line diff: edit scripts that rebuild the new text and are minimal, unified-diff text as
// diff -u writes it, and speed on large and wholly different inputs.
#include <gtest/gtest.h>

#include <random>

#include "cli/output/line_diff.h"
#include "support/sanitizers.h"

namespace cil::cli {
namespace {

using Lines = std::vector<std::string_view>;

/// Applies `edits` to `a`, taking inserted lines from `b`; fails the test when the script does
/// not fit the inputs.
Lines apply(const std::vector<Edit>& edits, const Lines& a, const Lines& b) {
  Lines out;
  size_t i = 0, j = 0;
  for (const Edit& e : edits) {
    EXPECT_GT(e.count, 0u);
    switch (e.kind) {
      case EditKind::Equal:
        for (size_t k = 0; k < e.count; ++k) {
          EXPECT_EQ(a.at(i), b.at(j));
          out.push_back(a.at(i++));
          ++j;
        }
        break;
      case EditKind::Delete: i += e.count; break;
      case EditKind::Insert:
        for (size_t k = 0; k < e.count; ++k) out.push_back(b.at(j++));
        break;
    }
  }
  EXPECT_EQ(i, a.size());
  EXPECT_EQ(j, b.size());
  return out;
}

size_t edit_cost(const std::vector<Edit>& edits) {
  size_t cost = 0;
  for (const Edit& e : edits)
    if (e.kind != EditKind::Equal) cost += e.count;
  return cost;
}

/// N + M - 2 * LCS, by dynamic programming: the cost of a shortest script.
size_t shortest_cost(const Lines& a, const Lines& b) {
  std::vector<std::vector<size_t>> lcs(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  return a.size() + b.size() - 2 * lcs[0][0];
}

TEST(LineDiff, SplitLines) {
  EXPECT_TRUE(split_lines("").empty());
  EXPECT_EQ(split_lines("a"), (Lines{"a"}));
  EXPECT_EQ(split_lines("a\n"), (Lines{"a\n"}));
  EXPECT_EQ(split_lines("a\n\nb"), (Lines{"a\n", "\n", "b"}));
}

TEST(LineDiff, SimpleScripts) {
  EXPECT_TRUE(diff_lines(Lines{}, Lines{}).empty());
  EXPECT_EQ(diff_lines(Lines{"a"}, Lines{"a"}), (std::vector<Edit>{{EditKind::Equal, 1}}));
  EXPECT_EQ(diff_lines(Lines{}, Lines{"a", "b"}), (std::vector<Edit>{{EditKind::Insert, 2}}));
  EXPECT_EQ(diff_lines(Lines{"a", "b"}, Lines{}), (std::vector<Edit>{{EditKind::Delete, 2}}));
  EXPECT_EQ(diff_lines(Lines{"a", "b", "c"}, Lines{"a", "x", "c"}),
            (std::vector<Edit>{{EditKind::Equal, 1}, {EditKind::Delete, 1}, {EditKind::Insert, 1}, {EditKind::Equal, 1}}));
}

TEST(LineDiff, RandomScriptsAreCorrectAndMinimal) {
  std::mt19937 rng(12345);
  const std::vector<std::string> alphabet = {"a\n", "b\n", "c\n", "d\n", "e\n"};
  for (int round = 0; round < 2000; ++round) {
    Lines a, b;
    size_t n = rng() % 30, m = rng() % 30;
    size_t letters = 1 + rng() % alphabet.size();
    for (size_t i = 0; i < n; ++i) a.push_back(alphabet[rng() % letters]);
    for (size_t j = 0; j < m; ++j) b.push_back(alphabet[rng() % letters]);
    auto edits = diff_lines(a, b);
    ASSERT_EQ(apply(edits, a, b), b) << "round " << round;
    ASSERT_EQ(edit_cost(edits), shortest_cost(a, b)) << "round " << round;
  }
}

TEST(LineDiff, UnifiedFormat) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(unified_diff("", "x\n"), "@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(unified_diff("x\ny\n", ""), "@@ -1,2 +0,0 @@\n-x\n-y\n");
  EXPECT_EQ(unified_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n"),
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  // Two changes 6 lines apart share a hunk; 7 apart they do not.
  EXPECT_EQ(unified_diff("a\n1\n2\n3\n4\n5\n6\nb\n", "A\n1\n2\n3\n4\n5\n6\nB\n"),
            "@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n");
  EXPECT_EQ(unified_diff("a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n"),
            "@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B\n");
  // Insertion after line 2: the empty old range names the line before it.
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\nc\n", 0), "@@ -2,0 +3 @@\n+c\n");
  EXPECT_EQ(unified_diff("a\nb", "a\nb\n"), "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
}

TEST(LineDiff, LargeInputsStayFast) {
  // 200,000 lines with a change every 1,000 lines (20,000 under the sanitizers).
  const long lines = testing::sweep_size(200000);
  std::vector<std::string> storage_a, storage_b;
  for (long i = 0; i < lines; ++i) {
    storage_a.push_back("line " + std::to_string(i) + "\n");
    storage_b.push_back(i % 1000 == 7 ? "changed " + std::to_string(i) + "\n" : storage_a.back());
  }
  Lines a(storage_a.begin(), storage_a.end()), b(storage_b.begin(), storage_b.end());
  auto edits = diff_lines(a, b);
  EXPECT_EQ(apply(edits, a, b), b);
  EXPECT_EQ(edit_cost(edits), static_cast<size_t>(lines / 1000 * 2));

  // Wholly reordered text over a small alphabet: the cost cut-off must keep this quick, and
  // the script must still be correct.
  std::mt19937 rng(7);
  std::vector<std::string> alphabet;
  for (int i = 0; i < 50; ++i) alphabet.push_back("x" + std::to_string(i) + "\n");
  Lines c, d;
  for (long i = 0; i < testing::sweep_size(40000); ++i) c.push_back(alphabet[rng() % alphabet.size()]), d.push_back(alphabet[rng() % alphabet.size()]);
  auto shuffled = diff_lines(c, d);
  EXPECT_EQ(apply(shuffled, c, d), d);
}

}  // namespace
}  // namespace cil::cli
