// The decoder's fast loop held to its checked path (every read bounds-checked, as the decoder
// worked before the fast loop): the same instructions, switch targets and errors on every method
// body of the installed .NET framework, on those bodies cut short and with bytes changed, and on
// random bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "il/body_reader.h"
#include "il/instruction.h"
#include "metadata/module.h"
#include "support/sanitizers.h"

namespace cil::il {
namespace {

/// The branches and switches of `code`, found by looking at every instruction.
std::vector<uint32_t> jumps_of(const DecodedCode& code) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < code.instructions.size(); ++i) {
    Operand operand = operand_of(code.instructions[i].op);
    if (is_branch_operand(operand) || operand == Operand::Switch) out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

bool same_instructions(const DecodedCode& a, const DecodedCode& b) {
  if (a.instructions.size() != b.instructions.size() || a.switch_targets != b.switch_targets) return false;
  // Both paths list every branch and switch, and only those.
  if (a.jumps != jumps_of(a) || b.jumps != jumps_of(b)) return false;
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    const Instruction &x = a.instructions[i], &y = b.instructions[i];
    if (x.offset != y.offset || x.size != y.size || x.value != y.value || x.count != y.count || x.op != y.op) return false;
  }
  return true;
}

/// Decodes `code` both ways and says what differs, or "" when they agree.
std::string compare_paths(std::span<const uint8_t> code, uint64_t file_offset) {
  DecodedCode fast, checked;
  Status f = decode_code_into(code, file_offset, fast);
  Status c = decode_code_checked_into(code, file_offset, checked);
  if (static_cast<bool>(f) != static_cast<bool>(c)) return f ? "only the checked path failed" : "only the fast loop failed";
  if (!f) {
    if (f.error().message != c.error().message || f.error().offset != c.error().offset)
      return "different errors: " + f.error().message + " / " + c.error().message;
    return "";
  }
  return same_instructions(fast, checked) ? "" : "different instructions";
}

/// A version folder's name as numbers ("10.0.12" -> {10, 0, 12}), to find the newest.
std::vector<unsigned long> version_of(const std::filesystem::path& dir) {
  std::vector<unsigned long> parts;
  std::string name = dir.filename().string();
  for (size_t at = 0; at < name.size();) {
    size_t dot = name.find('.', at);
    parts.push_back(std::strtoul(name.substr(at, dot - at).c_str(), nullptr, 10));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  return parts;
}

/// The installed .NET's shared framework (its newest version), whose assemblies hold a large
/// variety of real IL.
std::filesystem::path framework_dir() {
  std::vector<std::filesystem::path> roots;
  if (const char* root = std::getenv("DOTNET_ROOT")) roots.emplace_back(root);
  roots.emplace_back("/usr/share/dotnet");
  roots.emplace_back("/usr/lib/dotnet");
  for (const auto& root : roots) {
    std::error_code ec;
    std::filesystem::path best;
    for (const auto& entry : std::filesystem::directory_iterator(root / "shared" / "Microsoft.NETCore.App", ec))
      if (std::filesystem::exists(entry.path() / "System.Private.CoreLib.dll") && (best.empty() || version_of(entry.path()) > version_of(best)))
        best = entry.path();
    if (!best.empty()) return best;
  }
  return {};
}

TEST(Decoder, FastLoopAgreesWithCheckedPathOnTheFramework) {
  std::filesystem::path dir = framework_dir();
  if (dir.empty()) GTEST_SKIP() << "no .NET shared framework installed";
  std::mt19937 random(18);
  size_t bodies = 0, switches = 0, variants = 0, instructions = 0, checked = 0, switch_instructions = 0;
  // Under the sanitizers, CoreLib alone: its bodies hold every opcode and shape the sweep needs.
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".dll") continue;
    if (testing::kSanitized && entry.path().filename() != "System.Private.CoreLib.dll") continue;
    auto module = md::Module::load(entry.path().string());
    if (!module) continue;  // native libraries
    const md::Module& m = **module;
    for (uint32_t rid = 1; rid <= m.tables().rows(md::TableId::MethodDef); ++rid) {
      if (!has_il_body(m, md::MethodDefId(rid))) continue;
      auto body = read_body(m, md::MethodDefId(rid));
      if (!body) continue;
      std::span<const uint8_t> code = body->code;
      ++bodies;
      ASSERT_EQ(compare_paths(code, body->code_file_offset), "") << entry.path().filename() << " method " << rid;
      DecodedCode d;
      ASSERT_TRUE(decode_code_into(code, 0, d));
      switches += d.switch_targets.empty() ? 0 : 1;
      instructions += d.instructions.size();
      checked += d.checked;
      for (const Instruction& in : d.instructions) switch_instructions += in.op == Op::Switch ? 1 : 0;
      // Every tenth body also cut short at a random point and with a random byte changed: the
      // errors (truncated operands, unknown opcodes) must be the same, at the same offsets.
      if (rid % 10 || code.empty()) continue;
      std::vector<uint8_t> cut(code.begin(), code.begin() + static_cast<long>(random() % code.size()));
      ASSERT_EQ(compare_paths(cut, 0x1000), "") << entry.path().filename() << " method " << rid << " cut to " << cut.size();
      std::vector<uint8_t> changed(code.begin(), code.end());
      changed[random() % changed.size()] = static_cast<uint8_t>(random());
      ASSERT_EQ(compare_paths(changed, 0x1000), "") << entry.path().filename() << " method " << rid << " changed";
      variants += 2;
    }
  }
  EXPECT_GT(bodies, testing::kSanitized ? 20000u : 50000u) << "the framework's assemblies hold well over 50,000 method bodies";
  EXPECT_GT(switches, 100u);
  EXPECT_GT(variants, testing::kSanitized ? 4000u : 10000u);
  // The fast loop does the work: only switches go through the checked path in valid code.
  EXPECT_EQ(checked, switch_instructions) << "of " << instructions << " instructions";
  EXPECT_GT(instructions, testing::kSanitized ? 400000u : 1000000u);
}

TEST(Decoder, FastLoopAgreesWithCheckedPathOnRandomBytes) {
  std::mt19937 random(2026);
  size_t failures = 0;
  const long cases = testing::sweep_size(200000);
  for (long i = 0; i < cases; ++i) {
    std::vector<uint8_t> code(random() % 40);
    for (auto& b : code) {
      // Mostly assigned one-byte opcodes and small operands, some 0xFE prefixes and switches.
      uint32_t pick = random() % 16;
      b = pick == 0 ? 0xFE : pick == 1 ? 0x45 : static_cast<uint8_t>(random() % (pick < 8 ? 0xE1 : 0x100));
    }
    ASSERT_EQ(compare_paths(code, 0x2000), "") << "case " << i;
    DecodedCode d;
    failures += decode_code_into(code, 0, d) ? 0 : 1;
  }
  EXPECT_GT(failures, static_cast<size_t>(cases / 200)) << "the cases must reach the errors";
  EXPECT_LT(failures, static_cast<size_t>(cases - cases / 200)) << "and must decode too";
}

TEST(Decoder, FastLoopKeepsEveryOperandKind) {
  // One instruction of each operand kind, the whole code and every prefix of it: each kind is
  // decoded far from the end (the fast loop on the code itself), near it (the zero-padded copy)
  // and cut short (the checked path's error).
  std::vector<uint8_t> code{
      0x1F, 0x80,                                      // ldc.i4.s -128
      0x20, 0xFF, 0xFF, 0xFF, 0xFF,                    // ldc.i4 -1
      0x21, 1, 2, 3, 4, 5, 6, 7, 0x88,                 // ldc.i8
      0x22, 0, 0, 0x80, 0xBF,                          // ldc.r4 -1.0 (its bits, not sign-extended)
      0x23, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F,              // ldc.r8 1.0
      0x2B, 0x80,                                      // br.s -128
      0x38, 0xFE, 0xFF, 0xFF, 0xFF,                    // br -2
      0x0E, 0xFF,                                      // ldarg.s 255
      0xFE, 0x09, 0xFF, 0xFF,                          // ldarg 65535
      0xFE, 0x12, 0x81,                                // unaligned. 0x81 (unsigned)
      0x28, 0x01, 0x00, 0x00, 0x0A,                    // call
      0xD0, 0x02, 0x00, 0x00, 0xF2,                    // ldtoken, a token with its high bit set
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // nops
  };
  for (size_t end = 0; end <= code.size(); ++end) {
    std::span<const uint8_t> part(code.data(), end);
    ASSERT_EQ(compare_paths(part, 0), "") << end;
  }
  auto d = decode_code(code, 0);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->instructions[0].value, -128);
  EXPECT_EQ(d->instructions[1].value, -1);
  EXPECT_EQ(static_cast<uint64_t>(d->instructions[2].value), 0x8807060504030201u);
  EXPECT_EQ(d->instructions[3].value, 0xBF800000);
  EXPECT_EQ(d->instructions[4].real(), 1.0);
  EXPECT_EQ(d->instructions[5].value, 32 - 128);  // from the end of br.s at 30
  EXPECT_EQ(d->instructions[6].value, 37 - 2);  // from the end of br at 32
  EXPECT_EQ(d->instructions[7].value, 255);
  EXPECT_EQ(d->instructions[8].value, 65535);
  EXPECT_EQ(d->instructions[9].value, 0x81);
  EXPECT_EQ(d->instructions[10].value, 0x0A000001);
  EXPECT_EQ(d->instructions[11].value, 0xF2000002);
}

}  // namespace
}  // namespace cil::il
