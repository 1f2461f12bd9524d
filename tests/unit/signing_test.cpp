// Strong-name signing (pe/strong_name.h) checked from outside: the test finds the hashed ranges of
// a small signed image itself (headers through the section table with CheckSum and the
// certificate entry read as zeros, then every section's file bytes without the signature space,
// II.6.2.1.3), hashes them with OpenSSL's SHA-1, reads the key pair from the .snk with OpenSSL's
// own PRIVATEKEYBLOB reader, and verifies the signature with OpenSSL. The inputs are the signed
// fixtures of testdata/bin/signed: Signed.dll (signed by csc with keys/Test.snk) and
// Signed.Delay.dll (delay-signed with its public key). The tool's runs are in
// tests/scripts/signing_test.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "pe/strong_name.h"
#include "support/file_io.h"

namespace cil::pe {
namespace {

std::vector<uint8_t> fixture(const std::string& relative) {
  auto bytes = read_file(std::string(CIL_TESTDATA_DIR) + "/" + relative);
  EXPECT_TRUE(bytes) << relative;
  return bytes ? *bytes : std::vector<uint8_t>{};
}

uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t{b.at(at)} | uint32_t{b.at(at + 1)} << 8 | uint32_t{b.at(at + 2)} << 16 | uint32_t{b.at(at + 3)} << 24;
}
uint16_t u16(const std::vector<uint8_t>& b, size_t at) { return static_cast<uint16_t>(b.at(at) | b.at(at + 1) << 8); }

/// The strong-name hash's inputs, found from the PE/COFF headers alone (not through pe::).
struct Ranges {
  size_t headers_end = 0;
  size_t checksum = 0;        ///< optional header CheckSum
  size_t security_entry = 0;  ///< the certificate table's data directory entry
  size_t signature = 0;       ///< file offset of the signature space
  size_t signature_size = 0;
  std::vector<std::pair<size_t, size_t>> sections;  ///< file offset, size
};

Ranges ranges_of(const std::vector<uint8_t>& file) {
  Ranges r;
  size_t pe = u32(file, 0x3c);
  size_t sections = u16(file, pe + 6);
  size_t optional = pe + 24;
  bool pe32_plus = u16(file, optional) == 0x20b;
  size_t directories = optional + (pe32_plus ? 112 : 96);
  r.checksum = optional + 64;
  r.security_entry = directories + 4 * 8;
  size_t table = optional + u16(file, pe + 20);
  r.headers_end = table + sections * 40;
  auto to_offset = [&](uint32_t rva) -> size_t {
    for (size_t i = 0; i < sections; ++i) {
      size_t s = table + i * 40;
      uint32_t va = u32(file, s + 12), raw_size = u32(file, s + 16), raw = u32(file, s + 20);
      if (rva >= va && rva < va + raw_size) return raw + (rva - va);
    }
    ADD_FAILURE() << "RVA " << rva << " is in no section";
    return 0;
  };
  for (size_t i = 0; i < sections; ++i) r.sections.emplace_back(u32(file, table + i * 40 + 20), u32(file, table + i * 40 + 16));
  size_t cli = to_offset(u32(file, directories + 14 * 8));
  r.signature = to_offset(u32(file, cli + 32));  // the CLI header's StrongNameSignature (II.25.3.3)
  r.signature_size = u32(file, cli + 36);
  return r;
}

std::array<uint8_t, 20> openssl_hash(const std::vector<uint8_t>& file, const Ranges& r) {
  std::vector<uint8_t> hashed(file.begin(), file.begin() + static_cast<ptrdiff_t>(r.headers_end));
  std::fill_n(hashed.begin() + static_cast<ptrdiff_t>(r.checksum), 4, 0);
  std::fill_n(hashed.begin() + static_cast<ptrdiff_t>(r.security_entry), 8, 0);
  for (auto [offset, size] : r.sections)
    for (size_t at = offset; at < offset + size; ++at)
      if (at < r.signature || at >= r.signature + r.signature_size) hashed.push_back(file.at(at));
  std::array<uint8_t, 20> digest{};
  unsigned size = 0;
  EXPECT_EQ(EVP_Digest(hashed.data(), hashed.size(), digest.data(), &size, EVP_sha1(), nullptr), 1);
  return digest;
}

using Pkey = std::unique_ptr<EVP_PKEY, void (*)(EVP_PKEY*)>;

/// keys/Test.snk read by OpenSSL (a .snk is a PRIVATEKEYBLOB, which OpenSSL reads as "MSBLOB").
Pkey openssl_key() {
  std::vector<uint8_t> snk = fixture("keys/Test.snk");
  std::unique_ptr<BIO, int (*)(BIO*)> bio(BIO_new_mem_buf(snk.data(), static_cast<int>(snk.size())), BIO_free);
  return Pkey(b2i_PrivateKey_bio(bio.get()), EVP_PKEY_free);
}

/// Whether the signature space of `file` holds an RSA PKCS#1 v1.5 signature over `digest` by
/// Test.snk, the space holding it little-endian as the CLR does.
bool openssl_verifies(const std::vector<uint8_t>& file, const Ranges& r, const std::array<uint8_t, 20>& digest) {
  Pkey key = openssl_key();
  if (!key) {
    ADD_FAILURE() << "OpenSSL cannot read keys/Test.snk";
    return false;
  }
  std::vector<uint8_t> signature(file.begin() + static_cast<ptrdiff_t>(r.signature),
                                 file.begin() + static_cast<ptrdiff_t>(r.signature + r.signature_size));
  std::reverse(signature.begin(), signature.end());
  std::unique_ptr<EVP_PKEY_CTX, void (*)(EVP_PKEY_CTX*)> ctx(EVP_PKEY_CTX_new(key.get(), nullptr), EVP_PKEY_CTX_free);
  return ctx && EVP_PKEY_verify_init(ctx.get()) == 1 && EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING) == 1 &&
         EVP_PKEY_CTX_set_signature_md(ctx.get(), EVP_sha1()) == 1 &&
         EVP_PKEY_verify(ctx.get(), signature.data(), signature.size(), digest.data(), digest.size()) == 1;
}

StrongNameKey test_key() {
  auto key = parse_strong_name_key(fixture("keys/Test.snk"));
  EXPECT_TRUE(key) << key.error().to_string();
  return key ? *key : StrongNameKey{};
}

// The test's own ranges and hash against csc's signature: if they were wrong, nothing below
// would mean anything.
TEST(Signing, TheIndependentCheckAcceptsCscsSignature) {
  std::vector<uint8_t> file = fixture("bin/signed/Signed.dll");
  Ranges r = ranges_of(file);
  ASSERT_EQ(r.signature_size, 128u);
  EXPECT_TRUE(openssl_verifies(file, r, openssl_hash(file, r)));
}

// The same hashed ranges, and a signature OpenSSL accepts; PKCS#1 v1.5 is deterministic, so
// re-signing csc's output over a cleared space gives back csc's very bytes.
TEST(Signing, SignsTheHashedRangesAsCscDoes) {
  std::vector<uint8_t> file = fixture("bin/signed/Signed.dll");
  const std::vector<uint8_t> by_csc = file;
  Ranges r = ranges_of(file);
  auto layout = strong_name_layout(file);
  ASSERT_TRUE(layout) << layout.error().to_string();
  EXPECT_EQ(layout->signature_offset, r.signature);
  EXPECT_EQ(layout->signature_size, r.signature_size);
  EXPECT_EQ(layout->checksum_offset, r.checksum);
  auto hash = strong_name_hash(file, *layout);
  ASSERT_TRUE(hash) << hash.error().to_string();
  EXPECT_EQ(*hash, openssl_hash(file, r));

  std::fill_n(file.begin() + static_cast<ptrdiff_t>(r.signature), r.signature_size, 0xA5);
  Status signed_now = sign_strong_name(file, *layout, test_key());
  ASSERT_TRUE(signed_now) << signed_now.error().to_string();
  EXPECT_TRUE(openssl_verifies(file, r, openssl_hash(file, r)));
  EXPECT_EQ(file, by_csc);
  EXPECT_TRUE(verify_strong_name(file, *layout, test_key()));
}

// A delay-signed input (public key only, zeros in the space) fails verification until it is
// signed with the key pair; delay-signing again clears the space.
TEST(Signing, DelaySignedInput) {
  std::vector<uint8_t> file = fixture("bin/signed/Signed.Delay.dll");
  Ranges r = ranges_of(file);
  ASSERT_EQ(r.signature_size, 128u);
  auto layout = strong_name_layout(file);
  ASSERT_TRUE(layout) << layout.error().to_string();
  EXPECT_TRUE(std::all_of(file.begin() + static_cast<ptrdiff_t>(r.signature),
                          file.begin() + static_cast<ptrdiff_t>(r.signature + r.signature_size), [](uint8_t b) { return b == 0; }));
  EXPECT_FALSE(verify_strong_name(file, *layout, test_key()));
  EXPECT_FALSE(openssl_verifies(file, r, openssl_hash(file, r)));

  auto public_only = parse_strong_name_key(fixture("keys/Test.public.snk"));
  ASSERT_TRUE(public_only) << public_only.error().to_string();
  EXPECT_FALSE(sign_strong_name(file, *layout, *public_only)) << "a public key cannot sign";

  auto changed = finish_strong_name(file, test_key(), false);
  ASSERT_TRUE(changed) << changed.error().to_string();
  ASSERT_FALSE(changed->empty());
  EXPECT_EQ((*changed)[0].offset, r.signature);
  EXPECT_EQ((*changed)[0].size, r.signature_size);
  EXPECT_TRUE(openssl_verifies(file, r, openssl_hash(file, r)));
  EXPECT_TRUE(verify_strong_name(file, *layout, test_key()));

  auto cleared = finish_strong_name(file, *public_only, true);
  ASSERT_TRUE(cleared) << cleared.error().to_string();
  EXPECT_TRUE(std::all_of(file.begin() + static_cast<ptrdiff_t>(r.signature),
                          file.begin() + static_cast<ptrdiff_t>(r.signature + r.signature_size), [](uint8_t b) { return b == 0; }));
  EXPECT_FALSE(openssl_verifies(file, r, openssl_hash(file, r)));
}

}  // namespace
}  // namespace cil::pe
