// SHA-256 (FIPS 180-4), for portable PDB ids and the PdbChecksum debug directory entry, through
// OpenSSL's libcrypto (already linked for strong names), which uses the CPU's SHA extensions
// where it has them. Its one-algorithm functions, not EVP: EVP loads OpenSSL's provider machinery,
// which cost 1.8 MB of peak memory (the `memory` test).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>

namespace cil::md {

using Sha256Digest = std::array<uint8_t, 32>;

/// An incremental SHA-256: update() any number of times, then finish() once.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::span<const uint8_t> data);
  /// `count` zero bytes (a field hashed as zero without copying the data around it).
  void update_zeros(uint64_t count);
  Sha256Digest finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

Sha256Digest sha256(std::span<const uint8_t> data);

}  // namespace cil::md
