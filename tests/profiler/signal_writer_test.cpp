// SignalWriter in child processes (it installs process-wide handlers once per process): the
// write runs before the signal ends the process, the previous disposition decides the ending
// (default: killed by the signal; a handler: called; ignored: stays ignored), the periodic write
// runs, and stop() ends the writes. CIL_INSTRUMENT_FLUSH_SECONDS is parsed as offline count mode
// parses it.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include "instrument/runtime_contract.h"
#include "profiler/config.h"
#include "profiler/signal_writer.h"

using namespace cil;
using namespace cil::profiler;

namespace {

/// A file the child writes to; the parent reads it after the child ended.
std::string marker_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("cil_signal_writer_") + name + "." + std::to_string(::getpid())))
      .string();
}

void append(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0) return;
  ssize_t ignored = ::write(fd, text.data(), text.size());
  (void)ignored;
  ::close(fd);
}

std::string read_text(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buffer[256];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    std::fclose(f);
  }
  return text;
}

std::string g_previous_marker;
void previous_handler(int signal) {
  append(g_previous_marker, "previous " + std::to_string(signal) + "\n");
  ::_exit(42);
}

class SignalWriterTest : public ::testing::Test {
 protected:
  // "fast": the child is a fork of this (single-threaded) process, with the marker path the
  // parent computed; the writer thread only ever runs in children.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "fast"); }
};

}  // namespace

TEST_F(SignalWriterTest, WritesThenEndsByTheSignal) {
  for (int signal : SignalWriter::kSignals) {
    std::string marker = marker_path(SignalWriter::name(signal));
    std::remove(marker.c_str());
    EXPECT_EXIT(
        {
          std::signal(signal, SIG_DFL);
          ASSERT_TRUE(SignalWriter::start([&](int s) { append(marker, "write " + std::to_string(s) + "\n"); }, 0));
          ::raise(signal);
          for (;;) ::pause();
        },
        ::testing::KilledBySignal(signal), "");
    EXPECT_EQ(read_text(marker), "write " + std::to_string(signal) + "\n") << SignalWriter::name(signal);
    std::remove(marker.c_str());
  }
}

TEST_F(SignalWriterTest, ChainsToThePreviousHandler) {
  std::string marker = marker_path("chain");
  std::remove(marker.c_str());
  EXPECT_EXIT(
      {
        g_previous_marker = marker;
        std::signal(SIGTERM, previous_handler);
        ASSERT_TRUE(SignalWriter::start([&](int s) { append(marker, "write " + std::to_string(s) + "\n"); }, 0));
        ::kill(::getpid(), SIGTERM);
        for (;;) ::pause();
      },
      ::testing::ExitedWithCode(42), "");
  EXPECT_EQ(read_text(marker), "write 15\nprevious 15\n");
  std::remove(marker.c_str());
}

TEST_F(SignalWriterTest, IgnoredStaysIgnored) {
  std::string marker = marker_path("ignored");
  std::remove(marker.c_str());
  EXPECT_EXIT(
      {
        std::signal(SIGINT, SIG_IGN);
        ASSERT_TRUE(SignalWriter::start([&](int s) { append(marker, "write " + std::to_string(s) + "\n"); }, 0));
        ::raise(SIGINT);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ::_exit(7);
      },
      ::testing::ExitedWithCode(7), "");
  EXPECT_EQ(read_text(marker), "");
  std::remove(marker.c_str());
}

TEST_F(SignalWriterTest, PeriodicWritesThenStop) {
  std::string marker = marker_path("periodic");
  std::remove(marker.c_str());
  EXPECT_EXIT(
      {
        ASSERT_TRUE(SignalWriter::start([&](int s) { append(marker, "write " + std::to_string(s) + "\n"); }, 1));
        // A second start is refused: the dispositions are the process's.
        if (SignalWriter::start([](int) {}, 1)) ::_exit(1);
        // Work done, not time: wait for two writes (each a second apart), however long it takes.
        while (read_text(marker).size() < 2 * std::string("write 0\n").size())
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        SignalWriter::stop();
        ::raise(SIGTERM);  // after stop(): no write, still the signal's ending
        for (;;) ::pause();
      },
      ::testing::KilledBySignal(SIGTERM), "");
  std::string text = read_text(marker);
  EXPECT_EQ(text.rfind("write 0\nwrite 0\n", 0), 0u) << text;
  EXPECT_EQ(text.find("write 15"), std::string::npos) << text;
  std::remove(marker.c_str());
}

TEST(ProfilerConfig, FlushSeconds) {
  EXPECT_EQ(flush_period(nullptr), 0u);
  EXPECT_EQ(flush_period(""), 0u);
  EXPECT_EQ(flush_period("0"), 0u);
  EXPECT_EQ(flush_period("-5"), 0u);
  EXPECT_EQ(flush_period("1.5"), 0u);
  EXPECT_EQ(flush_period("ten"), 0u);
  EXPECT_EQ(flush_period("99999999999"), 0u);  // past Int32: TryParse fails
  EXPECT_EQ(flush_period("1"), 1u);
  EXPECT_EQ(flush_period(" 30 "), 30u);
  EXPECT_EQ(flush_period("+7"), 7u);
  EXPECT_EQ(flush_period("2147483647"), contract::kMaxFlushSeconds);
  auto config = read_config(
      [](const char* name) -> const char* {
        return std::string_view(name) == contract::kEnvFlushSeconds ? "5" : nullptr;
      },
      "/tmp");
  ASSERT_TRUE(config);
  EXPECT_EQ(config->flush_seconds, 5u);
}
