// SHA-1 (FIPS 180-4), for public key tokens: the last 8 bytes of a public key's hash, reversed
// (II.6.2.1.3).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace cil::md {

std::array<uint8_t, 20> sha1(std::span<const uint8_t> data);

/// The public key token of a strong-name public key (empty for an empty key).
std::vector<uint8_t> public_key_token(std::span<const uint8_t> public_key);

}  // namespace cil::md
