// The live file of count and coverage mode (runtime_contract.h): the counters of a running or
// killed program, mapped, with the text of the counts file it stands for. `report` reads it as
// that counts file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.h"

namespace cil::cli {

/// True when `bytes` start as a live file does (contract::kLiveMagic).
bool is_live_file(std::span<const uint8_t> bytes);

/// The counts (or hits) file text that a live file stands for: the header text, each slot's text
/// and its count in decimal, the tail. Errors have structure "live file" and the offset at fault;
/// a file whose state byte still says "writing" (its process ended while making it, before
/// counting anything) is an error too.
Expected<std::string> live_file_text(std::span<const uint8_t> bytes);

/// The name of the counts or hits file a live file's name stands for ("X.12.counts.live" ->
/// "X.12.counts.json"); empty when `name` is not a live file's.
std::string live_file_counterpart(std::string_view name);

/// `files` without the counts and hits files whose live file is in `files` too (same folder):
/// the live file is at least as recent (a periodic flush, or a final write that the process was
/// killed after, before it could delete the live file).
std::vector<std::string> without_superseded(const std::vector<std::string>& files);

/// True when `name` is a counts, hits or live file's name.
bool is_counter_file_name(std::string_view name);
/// The counts, hits and live files directly in `dir`, sorted (none when it cannot be read).
std::vector<std::string> counter_files_in(const std::string& dir);

}  // namespace cil::cli
