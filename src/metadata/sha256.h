// SHA-256 (FIPS 180-4), for portable PDB ids and the PdbChecksum debug directory entry.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cil::md {

using Sha256Digest = std::array<uint8_t, 32>;

/// An incremental SHA-256: update() any number of times, then finish() once.
class Sha256 {
 public:
  void update(std::span<const uint8_t> data);
  /// `count` zero bytes (a field hashed as zero without copying the data around it).
  void update_zeros(uint64_t count);
  Sha256Digest finish();

 private:
  void block(const uint8_t* p);
  std::array<uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t length_ = 0;
};

Sha256Digest sha256(std::span<const uint8_t> data);

}  // namespace cil::md
