// The live file (cli/results/live_file.h): the counts file text it stands for, and one error naming the
// structure and offset for each way it can be wrong. The bytes are built here to the layout of
// runtime_contract.h; that the helper's IL writes that layout is checked on the runtime by
// tests/scripts/signal_test.sh (SIGKILL leaves a live file that report reads with exact counts).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "cli/results/count_file.h"
#include "cli/results/live_file.h"
#include "instrument/runtime_contract.h"

namespace cil::cli {
namespace {

struct Live {
  std::string header = R"({"assembly": "App", "mvid": "0f8fad5b-d9cb-469f-a165-70867728950e", "methods": [)";
  std::vector<std::string> pieces = {R"({"token": "0x06000001", "name": "App.P::Main", "count": )",
                                     R"(}, {"token": "0x06000002", "name": "App.P::M", "count": )"};
  std::vector<uint64_t> counts = {1, 18446744073709551615ull};
  std::string tail = "}]}\n";
  char state = contract::kLiveCounting;

  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out(contract::kLiveMagic.begin(), contract::kLiveMagic.end());
    out.push_back(static_cast<uint8_t>(state));
    std::string text;
    for (const auto& p : pieces) text += p;
    auto u32 = [&out](uint32_t v) {
      for (int s = 0; s < 32; s += 8) out.push_back(static_cast<uint8_t>(v >> s));
    };
    u32(contract::kLiveVersion);
    u32(static_cast<uint32_t>(counts.size()));
    u32(static_cast<uint32_t>(header.size()));
    u32(static_cast<uint32_t>(text.size()));
    u32(static_cast<uint32_t>(tail.size()));
    u32(0);
    for (uint64_t c : counts)
      for (int s = 0; s < 64; s += 8) out.push_back(static_cast<uint8_t>(c >> s));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), text.begin(), text.end());
    for (const auto& p : pieces) u32(static_cast<uint32_t>(p.size()));
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  }
};

TEST(LiveFile, StandsForItsCountsFile) {
  std::vector<uint8_t> bytes = Live{}.bytes();
  ASSERT_TRUE(is_live_file(bytes));
  auto text = live_file_text(bytes);
  ASSERT_TRUE(text) << text.error().to_string();
  EXPECT_EQ(*text, R"({"assembly": "App", "mvid": "0f8fad5b-d9cb-469f-a165-70867728950e", "methods": [)"
                   R"({"token": "0x06000001", "name": "App.P::Main", "count": 1}, )"
                   R"({"token": "0x06000002", "name": "App.P::M", "count": 18446744073709551615}]})"
                   "\n");
  auto parsed = parse_count_file(*text);
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(parsed->methods.size(), 2u);
}

TEST(LiveFile, NoCounters) {
  Live live;
  live.pieces.clear();
  live.counts.clear();
  live.tail = "]}\n";
  auto text = live_file_text(live.bytes());
  ASSERT_TRUE(text) << text.error().to_string();
  auto parsed = parse_count_file(*text);
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_TRUE(parsed->methods.empty());
}

std::string error_of(const std::vector<uint8_t>& bytes) {
  auto text = live_file_text(bytes);
  EXPECT_FALSE(text);
  return text ? "" : text.error().to_string();
}

TEST(LiveFile, StillBeingWritten) {
  Live live;
  live.state = contract::kLiveWriting;
  EXPECT_EQ(error_of(live.bytes()), "live file: incomplete: its process ended while making it, before counting (offset 0x7)");
}

TEST(LiveFile, EveryTruncationIsOneError) {
  std::vector<uint8_t> bytes = Live{}.bytes();
  for (size_t size = 0; size < bytes.size(); ++size) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    std::string e = error_of(cut);
    EXPECT_TRUE(e.starts_with("live file")) << size << ": " << e;
    EXPECT_NE(e.find("offset"), std::string::npos) << size << ": " << e;
  }
}

TEST(LiveFile, LengthsThatDisagreeWithTheText) {
  Live live;
  std::vector<uint8_t> bytes = live.bytes();
  // The first slot's length, one past the method text.
  size_t lengths = contract::kLiveHeaderSize + 2 * 8 + live.header.size() + live.pieces[0].size() + live.pieces[1].size();
  bytes[lengths] = static_cast<uint8_t>(bytes[lengths] + live.pieces[1].size() + 1);
  EXPECT_EQ(error_of(bytes), fmt::format("live file: slot 0's text runs past the method text (offset {:#x})", lengths));
  bytes = live.bytes();
  bytes[lengths] = static_cast<uint8_t>(bytes[lengths] - 1);
  EXPECT_NE(error_of(bytes).find("method text left over"), std::string::npos);
  bytes = live.bytes();
  bytes[8] = 2;  // version
  EXPECT_EQ(error_of(bytes), "live file: version 2 (this tool reads 1) (offset 0x8)");
  bytes = live.bytes();
  bytes[7] = 'x';
  EXPECT_EQ(error_of(bytes), "live file: unknown state byte 0x78 (offset 0x7)");
}

TEST(LiveFile, Counterparts) {
  EXPECT_EQ(live_file_counterpart("App.12.counts.live"), "App.12.counts.json");
  EXPECT_EQ(live_file_counterpart("App.12.2.hits.live"), "App.12.2.hits.json");
  EXPECT_EQ(live_file_counterpart("App.12.counts.json"), "");
  EXPECT_EQ(without_superseded({"d/A.1.counts.json", "d/A.1.counts.live", "d/A.2.counts.json", "e/A.3.counts.json"}),
            (std::vector<std::string>{"d/A.1.counts.live", "d/A.2.counts.json", "e/A.3.counts.json"}));
  EXPECT_EQ(without_superseded({"./d/A.1.counts.json", "d//A.1.counts.live", "A.2.hits.json", "./A.2.hits.live"}),
            (std::vector<std::string>{"d//A.1.counts.live", "./A.2.hits.live"}));
  EXPECT_TRUE(is_counter_file_name("A.1.hits.live"));
  EXPECT_FALSE(is_counter_file_name(".counts.json"));
  EXPECT_FALSE(is_counter_file_name("A.1.counts.json.tmp"));
}

}  // namespace
}  // namespace cil::cli
