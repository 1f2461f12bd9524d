// Pairing the methods of two builds for `diff`: by token, then by name and signature, then by
// name, so that inserted methods and reordered overloads pair as a reader expects.
#include <gtest/gtest.h>

#include "cli/output/method_pairing.h"

namespace cil::cli {
namespace {

using Pairs = std::vector<std::pair<size_t, size_t>>;
using Indexes = std::vector<size_t>;

TEST(MethodPairing, SameTokens) {
  std::vector<MethodKey> a = {{md::Token(0x06000001), "P::A", "a"}, {md::Token(0x06000002), "P::B", "b"}};
  MethodPairing p = pair_methods(a, a);
  EXPECT_EQ(p.pairs, (Pairs{{0, 0}, {1, 1}}));
  EXPECT_TRUE(p.only_old.empty() && p.only_new.empty());
}

TEST(MethodPairing, InsertedMethodShiftsTokens) {
  std::vector<MethodKey> a = {{md::Token(0x06000001), "P::Main", "m"}, {md::Token(0x06000002), "P::F", "f(int)"}, {md::Token(0x06000003), "P::F", "f(string)"}};
  std::vector<MethodKey> b = {{md::Token(0x06000001), "P::Main", "m"}, {md::Token(0x06000002), "P::New", "n"}, {md::Token(0x06000003), "P::F", "f(int)"},
                              {md::Token(0x06000004), "P::F", "f(string)"}};
  MethodPairing p = pair_methods(a, b);
  EXPECT_EQ(p.pairs, (Pairs{{0, 0}, {1, 2}, {2, 3}}));
  EXPECT_TRUE(p.only_old.empty());
  EXPECT_EQ(p.only_new, (Indexes{1}));
}

TEST(MethodPairing, OverloadsPairBySignatureFirst) {
  // The overloads swapped places: the token of each now holds the other.
  std::vector<MethodKey> a = {{md::Token(0x06000001), "P::F", "f(int)"}, {md::Token(0x06000002), "P::F", "f(string)"}};
  std::vector<MethodKey> b = {{md::Token(0x06000001), "P::F", "f(string)"}, {md::Token(0x06000002), "P::F", "f(int)"}};
  EXPECT_EQ(pair_methods(a, b).pairs, (Pairs{{0, 1}, {1, 0}}));
}

TEST(MethodPairing, SignatureChangeStillPairsByName) {
  std::vector<MethodKey> a = {{md::Token(0x06000001), "P::F", "f(int)"}, {md::Token(0x06000002), "P::G", "g"}};
  std::vector<MethodKey> b = {{md::Token(0x06000001), "P::X", "x"}, {md::Token(0x06000002), "P::F", "f(long)"}, {md::Token(0x06000003), "P::G", "g"}};
  MethodPairing p = pair_methods(a, b);
  EXPECT_EQ(p.pairs, (Pairs{{0, 1}, {1, 2}}));
  EXPECT_EQ(p.only_new, (Indexes{0}));
}

TEST(MethodPairing, RenamedIsOnlyInEach) {
  std::vector<MethodKey> a = {{md::Token(0x06000001), "P::Old", "m"}};
  std::vector<MethodKey> b = {{md::Token(0x06000001), "P::New", "m"}};
  MethodPairing p = pair_methods(a, b);
  EXPECT_TRUE(p.pairs.empty());
  EXPECT_EQ(p.only_old, (Indexes{0}));
  EXPECT_EQ(p.only_new, (Indexes{0}));
}

}  // namespace
}  // namespace cil::cli
