// Reads the live file (live_file.h).
#include "cli/results/live_file.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "instrument/runtime_contract.h"
#include "support/byte_reader.h"

namespace cil::cli {

namespace {

constexpr std::string_view kStructure = "live file";

Error live_error(uint64_t offset, std::string message) {
  return make_error(ErrorKind::Format, std::string(kStructure), std::move(message), offset);
}

}  // namespace

bool is_live_file(std::span<const uint8_t> bytes) {
  const auto& magic = contract::kLiveMagic;
  return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin());
}

Expected<std::string> live_file_text(std::span<const uint8_t> bytes) {
  if (!is_live_file(bytes)) return live_error(0, "no live file signature");
  ByteReader r(bytes, 0, kStructure);
  CIL_TRY(r.skip(contract::kLiveStateOffset));
  auto state = CIL_TRY(r.u8());
  if (state == static_cast<uint8_t>(contract::kLiveWriting))
    return live_error(contract::kLiveStateOffset, "incomplete: its process ended while making it, before counting");
  if (state != static_cast<uint8_t>(contract::kLiveCounting))
    return live_error(contract::kLiveStateOffset, fmt::format("unknown state byte 0x{:02X}", state));
  uint32_t version = CIL_TRY(r.u32());
  if (version != contract::kLiveVersion) return live_error(8, fmt::format("version {} (this tool reads {})", version, contract::kLiveVersion));
  uint32_t slots = CIL_TRY(r.u32());
  uint32_t header_size = CIL_TRY(r.u32());
  uint32_t text_size = CIL_TRY(r.u32());
  uint32_t tail_size = CIL_TRY(r.u32());
  CIL_TRY(r.seek(contract::kLiveHeaderSize));
  uint64_t expected = uint64_t{contract::kLiveHeaderSize} + uint64_t{slots} * 12 + header_size + text_size + tail_size;
  if (expected != bytes.size())
    return live_error(12, fmt::format("the sizes it gives make {} bytes, but the file has {}", expected, bytes.size()));
  ByteReader counters = CIL_TRY(r.sub(contract::kLiveHeaderSize, size_t{slots} * 8, "live file counters"));
  size_t at = contract::kLiveHeaderSize + size_t{slots} * 8;
  ByteReader header = CIL_TRY(r.sub(at, header_size, "live file header text"));
  ByteReader text = CIL_TRY(r.sub(at + header_size, text_size, "live file method text"));
  ByteReader lengths = CIL_TRY(r.sub(at + header_size + text_size, size_t{slots} * 4, "live file lengths"));
  ByteReader tail = CIL_TRY(r.sub(at + header_size + text_size + size_t{slots} * 4, tail_size, "live file tail text"));

  auto as_text = [](std::span<const uint8_t> s) { return std::string_view(reinterpret_cast<const char*>(s.data()), s.size()); };
  std::string out;
  out.reserve(header_size + text_size + tail_size + size_t{slots} * 4);
  out += as_text(CIL_TRY(header.bytes(header_size)));
  for (uint32_t slot = 0; slot < slots; ++slot) {
    uint32_t length = CIL_TRY(lengths.u32());
    if (length > text.remaining())
      return live_error(lengths.file_offset() - 4, fmt::format("slot {}'s text runs past the method text", slot));
    out += as_text(CIL_TRY(text.bytes(length)));
    fmt::format_to(std::back_inserter(out), "{}", CIL_TRY(counters.u64()));
  }
  if (!text.at_end()) return live_error(text.file_offset(), "method text left over after the last slot");
  out += as_text(CIL_TRY(tail.bytes(tail_size)));
  return out;
}

std::string live_file_counterpart(std::string_view name) {
  if (name.ends_with(contract::kCountsLiveSuffix))
    return std::string(name.substr(0, name.size() - contract::kCountsLiveSuffix.size())) + std::string(contract::kCountsFileSuffix);
  if (name.ends_with(contract::kHitsLiveSuffix))
    return std::string(name.substr(0, name.size() - contract::kHitsLiveSuffix.size())) + std::string(contract::kHitsFileSuffix);
  return "";
}

std::vector<std::string> without_superseded(const std::vector<std::string>& files) {
  // Compared as normal paths, so that "./d/A.1.counts.json" and "d/A.1.counts.live" pair.
  std::set<std::filesystem::path> superseded;
  for (const std::string& file : files) {
    std::filesystem::path path = std::filesystem::path(file).lexically_normal();
    std::string counterpart = live_file_counterpart(path.filename().string());
    if (!counterpart.empty()) superseded.insert(path.parent_path() / counterpart);
  }
  std::vector<std::string> kept;
  for (const std::string& file : files)
    if (!superseded.count(std::filesystem::path(file).lexically_normal())) kept.push_back(file);
  return kept;
}

bool is_counter_file_name(std::string_view name) {
  for (std::string_view suffix :
       {contract::kCountsFileSuffix, contract::kHitsFileSuffix, contract::kCountsLiveSuffix, contract::kHitsLiveSuffix})
    if (name.size() > suffix.size() && name.ends_with(suffix)) return true;
  return false;
}

std::vector<std::string> counter_files_in(const std::string& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (is_counter_file_name(entry.path().filename().string()) && entry.is_regular_file(ec)) found.push_back(entry.path().string());
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace cil::cli
