// The self-check of an instrument output (instrument::check_output), on a fixture instrumented in memory:
// a good output passes, and its count of resolved tokens is what a separate decoding of every new
// body counts; a branch or switch that lands off an instruction, and a token that names nothing,
// are caught, and of two faults in one body the first in code order is the one named.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/instruction.h"
#include "instrument/instrumenter.h"
#include "instrument/output_check.h"
#include "metadata/module.h"

namespace cil::instrument {
namespace {

struct Instrumented {
  std::unique_ptr<md::Module> input;
  std::vector<uint8_t> bytes;
  std::vector<md::MethodDefId> rewritten;
  uint32_t input_methods = 0;
};

Instrumented instrument_fixture(const std::string& name) {
  Instrumented out;
  auto loaded = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
  EXPECT_TRUE(loaded);
  out.input = std::move(*loaded);
  InstrumentOptions options;
  options.pdb.mode = PdbOptions::Mode::None;
  auto report = instrument_module(*out.input, options);
  EXPECT_TRUE(report) << report.error().to_string();
  out.bytes = report->output.flatten();
  out.rewritten = report->instrumented;
  out.input_methods = out.input->tables().rows(md::TableId::MethodDef);
  return out;
}

Expected<OutputCheckStats> check(const Instrumented& job, const std::vector<uint8_t>& bytes) {
  OutputExpectations expect;
  expect.rewritten = job.rewritten;
  expect.input_methods = job.input_methods;
  return check_output(bytes, expect);
}

/// An instruction of a new body, where it is in the file.
struct Found {
  uint32_t rid = 0;
  Instruction in;
  uint64_t operand_at = 0;  ///< file offset of its operand
  uint32_t code_size = 0;
};

/// The methods whose bodies are new: those rewritten, and those the job added (the helper's).
std::vector<uint32_t> new_bodies(const Instrumented& job, const md::Module& output) {
  std::vector<uint32_t> rids;
  for (md::MethodDefId method : job.rewritten) rids.push_back(method.value());
  for (uint32_t rid = job.input_methods + 1; rid <= output.tables().rows(md::TableId::MethodDef); ++rid)
    if (has_il_body(output, md::MethodDefId(rid))) rids.push_back(rid);
  return rids;
}

/// Every instruction of every new body of the output, in order.
std::vector<Found> instructions(const Instrumented& job) {
  std::vector<Found> out;
  auto parsed = md::Module::parse(job.bytes);
  EXPECT_TRUE(parsed);
  for (uint32_t rid : new_bodies(job, **parsed)) {
    auto body = read_body(**parsed, md::MethodDefId(rid));
    EXPECT_TRUE(body);
    auto code = decode_code(body->code, body->code_file_offset);
    EXPECT_TRUE(code);
    for (const auto& in : code->instructions)
      out.push_back({rid, in, body->code_file_offset + in.offset + in.info().opcode_size(), body->code_size});
  }
  return out;
}

bool is_token(Operand operand) {
  return operand == Operand::Method || operand == Operand::Field || operand == Operand::Type || operand == Operand::Sig ||
         operand == Operand::Tok || operand == Operand::String;
}

TEST(OutputCheck, GoodOutputPassesAndEveryTokenIsCounted) {
  for (const char* name : {"Control.dll", "Basics.dll", "il/IlOps.exe", "il/IlEh.exe"}) {
    SCOPED_TRACE(name);
    Instrumented job = instrument_fixture(name);
    auto stats = check(job, job.bytes);
    ASSERT_TRUE(stats) << stats.error().to_string();
    auto parsed = md::Module::parse(job.bytes);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(stats->bodies, new_bodies(job, **parsed).size());
    EXPECT_GT(job.rewritten.size(), 5u);
    // Tokens in code, local signatures and catch clauses, counted by a separate decoding.
    uint64_t tokens = 0;
    for (const Found& f : instructions(job)) tokens += is_token(operand_of(f.in.op));
    for (uint32_t rid : new_bodies(job, **parsed)) {
      auto body = read_body(**parsed, md::MethodDefId(rid));
      ASSERT_TRUE(body);
      tokens += static_cast<bool>(body->local_sig_token);
      for (const auto& c : body->clauses) tokens += c.kind == ClauseKind::Catch;
    }
    EXPECT_EQ(stats->tokens, tokens);
  }
}

void put_u32(std::vector<uint8_t>& bytes, uint64_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

TEST(OutputCheck, BranchesOffAnInstructionAndTokensNamingNothingAreCaught) {
  Instrumented job = instrument_fixture("Control.dll");
  std::vector<Found> all = instructions(job);
  auto first_of = [&](auto pred) -> const Found* {
    for (const Found& f : all)
      if (pred(f)) return &f;
    return nullptr;
  };
  auto message = [&](const std::vector<uint8_t>& bytes) {
    auto result = check(job, bytes);
    return result ? std::string("passed") : result.error().to_string();
  };

  // A long branch that jumps past the end of its code.
  const Found* br = first_of([](const Found& f) { return operand_of(f.in.op) == Operand::Br; });
  const Found* short_br = first_of([](const Found& f) { return operand_of(f.in.op) == Operand::ShortBr; });
  ASSERT_TRUE(br || short_br);
  {
    std::vector<uint8_t> bytes = job.bytes;
    if (short_br) bytes[short_br->operand_at] = 0x7F;  // 127 bytes on: past a short body's end, or inside one
    else put_u32(bytes, br->operand_at, 0x10000);
    const Found& f = short_br ? *short_br : *br;
    int64_t target = f.in.offset + f.in.size + (short_br ? 0x7F : 0x10000);
    bool lands_on_instruction = false;
    for (const Found& g : all)
      if (g.rid == f.rid && g.in.offset == target) lands_on_instruction = true;
    if (!lands_on_instruction) {
      EXPECT_NE(message(bytes).find(fmt::format("at IL_{:04x} jumps to {}, not an instruction", f.in.offset, target)), std::string::npos)
          << message(bytes);
    }
  }
  // A switch target off an instruction.
  if (const Found* sw = first_of([](const Found& f) { return operand_of(f.in.op) == Operand::Switch; })) {
    std::vector<uint8_t> bytes = job.bytes;
    put_u32(bytes, sw->operand_at + 4, 0x40000000);
    EXPECT_NE(message(bytes).find("switch at IL_"), std::string::npos) << message(bytes);
  }
  // A call naming a table a method cannot be in.
  const Found* call = first_of([](const Found& f) { return operand_of(f.in.op) == Operand::Method; });
  ASSERT_TRUE(call);
  {
    std::vector<uint8_t> bytes = job.bytes;
    put_u32(bytes, call->operand_at, 0x02000001);  // a TypeDef
    EXPECT_NE(message(bytes).find(fmt::format("at IL_{:04x}: token 0x02000001 names no row it may name", call->in.offset)), std::string::npos)
        << message(bytes);
  }
  // Two faults in one body: the one earlier in the code is named, whichever kind it is.
  for (const Found& jump : all) {
    // A long branch 1 GiB on, or a short one 128 bytes back from near the start: off the code.
    bool long_branch = operand_of(jump.in.op) == Operand::Br;
    if (!long_branch && (operand_of(jump.in.op) != Operand::ShortBr || jump.in.offset + jump.in.size >= 128)) continue;
    const Found* before = nullptr;
    const Found* after = nullptr;
    for (const Found& f : all) {
      if (f.rid != jump.rid || operand_of(f.in.op) != Operand::Method) continue;
      if (f.in.offset < jump.in.offset) before = &f;
      else if (!after) after = &f;
    }
    auto broken = [&](const Found& token) {
      std::vector<uint8_t> bytes = job.bytes;
      put_u32(bytes, token.operand_at, 0x02000001);
      if (long_branch) put_u32(bytes, jump.operand_at, 0x40000000);
      else bytes[jump.operand_at] = 0x80;
      return bytes;
    };
    if (before) {
      EXPECT_NE(message(broken(*before)).find(fmt::format("IL_{:04x}: token", before->in.offset)), std::string::npos);
    }
    if (after) {
      EXPECT_NE(message(broken(*after)).find(fmt::format("IL_{:04x} jumps to", jump.in.offset)), std::string::npos);
    }
    if (before && after) return;
  }
  ADD_FAILURE() << "no body with calls before and after a branch";
}

}  // namespace
}  // namespace cil::instrument
