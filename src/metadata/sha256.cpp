// SHA-256 through libcrypto's SHA256_* functions (deprecated in OpenSSL 3 in favour of EVP, which
// would load the provider machinery for one hash; see sha256.h). They cannot fail on valid input.
#include "metadata/sha256.h"

#define OPENSSL_SUPPRESS_DEPRECATED
#include <algorithm>

#include <openssl/sha.h>

namespace cil::md {

struct Sha256::State {
  SHA256_CTX context;
};

Sha256::Sha256() : state_(std::make_unique<State>()) { SHA256_Init(&state_->context); }

Sha256::~Sha256() = default;

void Sha256::update(std::span<const uint8_t> data) {
  if (!data.empty()) SHA256_Update(&state_->context, data.data(), data.size());
}

void Sha256::update_zeros(uint64_t count) {
  static constexpr uint8_t kZeros[256] = {};
  while (count) {
    size_t take = static_cast<size_t>(std::min<uint64_t>(count, sizeof kZeros));
    update(std::span<const uint8_t>(kZeros, take));
    count -= take;
  }
}

Sha256Digest Sha256::finish() {
  Sha256Digest out{};
  SHA256_Final(out.data(), &state_->context);
  return out;
}

Sha256Digest sha256(std::span<const uint8_t> data) {
  Sha256 h;
  h.update(data);
  return h.finish();
}

}  // namespace cil::md
