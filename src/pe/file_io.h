// Whole-file reads and atomic whole-file writes (temporary file, then rename).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pe/error.h"

namespace cil {

/// Largest input accepted; a PE image's fields are 32-bit, so nothing valid is larger.
inline constexpr uint64_t kMaxInputSize = 0x7FFFFFFF;

Expected<std::vector<uint8_t>> read_file(const std::string& path);

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so a
/// failure never leaves a partial file behind.
Status write_file_atomic(const std::string& path, std::span<const uint8_t> bytes);
/// The same for a file given as consecutive pieces.
Status write_file_atomic(const std::string& path, std::span<const std::span<const uint8_t>> pieces);

}  // namespace cil
