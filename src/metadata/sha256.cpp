// SHA-256 through libcrypto's EVP interface. An allocation failure of the context is the only
// way it can fail; it aborts, as running out of memory does anywhere else in the tool.
#include "metadata/sha256.h"

#include <algorithm>
#include <cstdlib>

#include <openssl/evp.h>

namespace cil::md {

namespace {

EVP_MD_CTX* context(void* p) { return static_cast<EVP_MD_CTX*>(p); }

}  // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(context(context_), EVP_sha256(), nullptr) != 1) std::abort();
}

Sha256::~Sha256() { EVP_MD_CTX_free(context(context_)); }

void Sha256::update(std::span<const uint8_t> data) {
  if (!data.empty() && EVP_DigestUpdate(context(context_), data.data(), data.size()) != 1) std::abort();
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
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(context(context_), out.data(), &size) != 1 || size != out.size()) std::abort();
  return out;
}

Sha256Digest sha256(std::span<const uint8_t> data) {
  Sha256 h;
  h.update(data);
  return h.finish();
}

}  // namespace cil::md
