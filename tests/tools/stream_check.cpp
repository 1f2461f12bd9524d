// The new section streamed through a sink must give the same file as the section held in memory.
// For each file and mode (count, wrap), the tool instruments twice: once without a sink (the
// whole output in memory, flattened), once with a sink that records every write at its file
// offset, with the output's remaining pieces laid around them as the command-line tool does.
// Both files must be byte-identical, checksum included. Then a sink that fails part-way must make
// the job fail with the sink's error.
//   cil_stream_check CHUNK FILE...     (CHUNK: bytes the editor buffers; 0 = the default)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "instrument/instrumenter.h"
#include "metadata/module.h"

using namespace cil;

namespace {

/// A file image in memory that writes land in at their offsets.
class MemorySink final : public pe::SectionSink {
 public:
  Status write(uint64_t file_offset, std::span<const uint8_t> bytes) override {
    if (fail_after_ && writes_ == fail_after_) return make_error(ErrorKind::Io, "", "the disk is full (simulated)");
    ++writes_;
    if (file_.size() < file_offset + bytes.size()) file_.resize(file_offset + bytes.size());
    std::memcpy(file_.data() + file_offset, bytes.data(), bytes.size());
    streamed_ += bytes.size();
    return ok();
  }
  Status move_down(uint64_t file_offset, uint64_t to, uint64_t size) override {
    if (file_offset + size > file_.size() || to > file_offset) return make_error(ErrorKind::Io, "", "moves bytes never written");
    std::memmove(file_.data() + to, file_.data() + file_offset, size);
    return ok();
  }
  /// Lays the pieces out from offset 0, skipping those in place (OutputFile::write_pieces).
  void finish(const pe::OutputImage& image) {
    uint64_t at = 0;
    for (const auto& piece : image.pieces()) {
      if (!piece.in_place) {
        if (file_.size() < at + piece.bytes.size()) file_.resize(at + piece.bytes.size());
        std::memcpy(file_.data() + at, piece.bytes.data(), piece.bytes.size());
      }
      at += piece.size();
    }
    file_.resize(at);
  }
  void fail_after(uint64_t writes) { fail_after_ = writes; }
  const std::vector<uint8_t>& file() const { return file_; }
  uint64_t writes() const { return writes_; }
  uint64_t streamed() const { return streamed_; }

 private:
  std::vector<uint8_t> file_;
  uint64_t writes_ = 0, streamed_ = 0, fail_after_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: cil_stream_check CHUNK FILE...\n");
    return 2;
  }
  size_t chunk = std::strtoull(argv[1], nullptr, 10);
  if (chunk == 0) chunk = md::ModuleEditor::kSinkChunk;
  int failures = 0;
  uint64_t compared = 0, identical = 0, writes = 0;
  for (int i = 2; i < argc; ++i) {
    auto loaded = md::Module::load(argv[i]);
    if (!loaded) {
      fmt::print(stderr, "{}: {}\n", argv[i], loaded.error().to_string());
      ++failures;
      continue;
    }
    for (instrument::Mode mode : {instrument::Mode::Count, instrument::Mode::Wrap}) {
      const char* mode_name = mode == instrument::Mode::Count ? "count" : "wrap";
      instrument::InstrumentOptions options;
      options.mode = mode;
      auto held = instrument::instrument_module(**loaded, options);
      if (!held) {
        // Refused inputs (mixed-mode, already instrumented) are refused with a sink too.
        MemorySink sink;
        options.sink = &sink;
        options.sink_chunk = chunk;
        auto streamed = instrument::instrument_module(**loaded, options);
        if (streamed || streamed.error().to_string() != held.error().to_string()) {
          fmt::print(stderr, "{} ({}): refused without a sink ({}) but not the same way with one\n", argv[i], mode_name,
                     held.error().to_string());
          ++failures;
        }
        continue;
      }
      if (!held->output.complete()) {
        fmt::print(stderr, "{} ({}): output without a sink has pieces in place\n", argv[i], mode_name);
        ++failures;
        continue;
      }
      std::vector<uint8_t> expected = held->output.flatten();

      MemorySink sink;
      options.sink = &sink;
      options.sink_chunk = chunk;
      auto streamed = instrument::instrument_module(**loaded, options);
      if (!streamed) {
        fmt::print(stderr, "{} ({}): fails with a sink: {}\n", argv[i], mode_name, streamed.error().to_string());
        ++failures;
        continue;
      }
      sink.finish(streamed->output);
      ++compared;
      writes += sink.writes();
      if (sink.file() != expected) {
        size_t at = 0;
        while (at < expected.size() && at < sink.file().size() && expected[at] == sink.file()[at]) ++at;
        fmt::print(stderr, "{} ({}): streamed file differs at offset {:#x} (sizes {} and {})\n", argv[i], mode_name, at,
                   sink.file().size(), expected.size());
        ++failures;
        continue;
      }
      ++identical;
      if (!held->instrumented.empty() && sink.streamed() == 0) {
        fmt::print(stderr, "{} ({}): nothing went through the sink\n", argv[i], mode_name);
        ++failures;
      }

      // A sink that fails on its second write: the job fails with its error.
      if (sink.writes() >= 2) {
        MemorySink failing;
        failing.fail_after(1);
        options.sink = &failing;
        auto failed = instrument::instrument_module(**loaded, options);
        if (failed || failed.error().to_string().find("simulated") == std::string::npos) {
          fmt::print(stderr, "{} ({}): a failing sink did not fail the job{}\n", argv[i], mode_name,
                     failed ? "" : ": " + failed.error().to_string());
          ++failures;
        }
      }
    }
  }
  fmt::print("{} outputs streamed in chunks of {} bytes ({} sink writes): {} identical to the output held in memory, "
             "{} failure{}\n",
             compared, chunk, writes, identical, failures, failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
