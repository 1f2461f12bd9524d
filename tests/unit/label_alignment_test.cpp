// Label alignment for `diff`: the new listing's labels take the old names of the instructions
// they align with; new labels get numbers no old label has; the renaming is one to one.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "cli/label_alignment.h"

namespace cil::cli {
namespace {

// Fib before and after wrap mode (as `dump` lists them with normalized labels).
constexpr const char* kOld =
    ".method private hidebysig static int32 Fib(int32 n) cil managed\n"
    "{\n"
    "  .maxstack 8\n"
    "        ldarg.0\n"
    "        ldc.i4.2\n"
    "        blt.s L1\n"
    "        ldarg.0\n"
    "        ret\n"
    "  L1:   ldarg.0\n"
    "        ret\n"
    "}\n";
constexpr const char* kNew =
    ".method private hidebysig static int32 Fib(int32 n) cil managed\n"
    "{\n"
    "  .maxstack 8\n"
    "  .locals init (int32 V_0)\n"
    "  L1:   ldarg.0\n"
    "        ldc.i4.2\n"
    "        blt.s L2\n"
    "        ldarg.0\n"
    "        stloc.0\n"
    "        leave.s L5\n"
    "  L2:   ldarg.0\n"
    "        stloc.0\n"
    "        leave.s L5\n"
    "  L3:   pop\n"
    "        rethrow\n"
    "  L4:   nop\n"
    "        endfinally\n"
    "  L5:   nop\n"
    "        ldloc.0\n"
    "        ret\n"
    "  .try L1 to L3 catch [System.Private.CoreLib]System.Exception handler L3 to L4\n"
    "  .try L1 to L4 finally handler L4 to L5\n"
    "}\n";

TEST(LabelAlignment, OldBranchesKeepTheirNamesAndNewLabelsGetFreshOnes) {
  std::string aligned = align_labels(kOld, kNew);
  EXPECT_EQ(aligned,
            ".method private hidebysig static int32 Fib(int32 n) cil managed\n"
            "{\n"
            "  .maxstack 8\n"
            "  .locals init (int32 V_0)\n"
            "  L2:   ldarg.0\n"
            "        ldc.i4.2\n"
            "        blt.s L1\n"
            "        ldarg.0\n"
            "        stloc.0\n"
            "        leave.s L3\n"
            "  L1:   ldarg.0\n"
            "        stloc.0\n"
            "        leave.s L3\n"
            "  L4:   pop\n"
            "        rethrow\n"
            "  L5:   nop\n"
            "        endfinally\n"
            "  L3:   nop\n"
            "        ldloc.0\n"
            "        ret\n"
            "  .try L2 to L4 catch [System.Private.CoreLib]System.Exception handler L4 to L5\n"
            "  .try L2 to L5 finally handler L5 to L3\n"
            "}\n");
}

TEST(LabelAlignment, IdenticalListingsAndListingsWithoutLabelsAreUnchanged) {
  EXPECT_EQ(align_labels(kOld, kOld), kOld);
  EXPECT_EQ(align_labels(kNew, kNew), kNew);
  const char* plain = "{\n        ldarg.0\n        ret\n}\n";
  EXPECT_EQ(align_labels(plain, plain), plain);
  EXPECT_EQ(align_labels("", kOld), kOld);
}

TEST(LabelAlignment, SwitchesFiltersAndWideLabels) {
  std::string old_text =
      "        switch (L1, L2, L10000)\n"
      "  L1:   ldc.i4.1\n"
      "  L2:   ldc.i4.2\n"
      "  L10000: ldc.i4.3\n"
      "        ret\n"
      "  .try L1 to L2 filter L10000 handler L2 to L10000\n";
  std::string new_text =
      "  L1:   nop\n"
      "        switch (L2, L3, L4)\n"
      "  L2:   ldc.i4.1\n"
      "  L3:   ldc.i4.2\n"
      "  L4:   ldc.i4.3\n"
      "        ret\n"
      "  .try L2 to L3 filter L4 handler L3 to L4\n";
  EXPECT_EQ(align_labels(old_text, new_text),
            "  L10001: nop\n"
            "        switch (L1, L2, L10000)\n"
            "  L1:   ldc.i4.1\n"
            "  L2:   ldc.i4.2\n"
            "  L10000: ldc.i4.3\n"
            "        ret\n"
            "  .try L1 to L2 filter L10000 handler L2 to L10000\n");
}

TEST(LabelAlignment, NamesThatOnlyLookLikeLabelsAreLeftAlone) {
  // A type named L1 in a catch clause, a method named L2 in a call, a string "L3".
  std::string old_text =
      "        call void N.C::L2()\n"
      "        ldstr \"L3\"\n"
      "        br.s L1\n"
      "  L1:   ret\n"
      "  .try L1 to L1 catch N.L1 handler L1 to L1\n";
  std::string new_text =
      "        nop\n"
      "        call void N.C::L2()\n"
      "        ldstr \"L3\"\n"
      "        br.s L1\n"
      "  L1:   ret\n"
      "  .try L1 to L1 catch N.L1 handler L1 to L1\n";
  EXPECT_EQ(align_labels(old_text, new_text), new_text);
  // Renamed labels do not touch the look-alikes either.
  std::string renumbered =
      "  L1:   nop\n"
      "        call void N.C::L2()\n"
      "        ldstr \"L3\"\n"
      "        br.s L2\n"
      "  L2:   ret\n"
      "  .try L2 to L2 catch N.L1 handler L2 to L2\n";
  EXPECT_EQ(align_labels(old_text, renumbered),
            "  L2:   nop\n"
            "        call void N.C::L2()\n"
            "        ldstr \"L3\"\n"
            "        br.s L1\n"
            "  L1:   ret\n"
            "  .try L1 to L1 catch N.L1 handler L1 to L1\n");
  // A catch type whose name holds the clause line's own keywords and a label look-alike.
  std::string odd_old = "  L1:   ret\n  .try L1 to L1 catch 'x to L1 filter L1 handler L1' handler L1 to L1\n";
  std::string odd_new = "  L1:   nop\n  L2:   ret\n  .try L2 to L2 catch 'x to L1 filter L1 handler L1' handler L2 to L2\n";
  EXPECT_EQ(align_labels(odd_old, odd_new),
            "  L2:   nop\n  L1:   ret\n  .try L1 to L1 catch 'x to L1 filter L1 handler L1' handler L1 to L1\n");
}

/// The labels defined in `text`.
std::set<std::string> defined_labels(const std::string& text) {
  std::set<std::string> out;
  std::regex def("(^|\n)  (L[0-9]+):");
  for (std::sregex_iterator it(text.begin(), text.end(), def), end; it != end; ++it) out.insert((*it)[2]);
  return out;
}

TEST(LabelAlignment, TheRenamingIsOneToOne) {
  std::string aligned = align_labels(kOld, kNew);
  std::set<std::string> before = defined_labels(kNew), after = defined_labels(aligned);
  EXPECT_EQ(before.size(), after.size());
  // Same structure: replacing every label by a placeholder gives the same text.
  auto mask = [](const std::string& s) { return std::regex_replace(s, std::regex("L[0-9]+"), "L"); };
  std::string masked_new = mask(kNew), masked_aligned = mask(aligned);
  // Label definitions change width only when numbers do; compare without padding.
  auto squeeze = [](std::string s) { return std::regex_replace(s, std::regex(" +"), " "); };
  EXPECT_EQ(squeeze(masked_new), squeeze(masked_aligned));
}

}  // namespace
}  // namespace cil::cli
