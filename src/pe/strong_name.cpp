// Strong-name keys, the strong-name hash of a PE file, and RSA signing through OpenSSL's libcrypto.
#include "pe/strong_name.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include "pe/cli_header.h"
#include "pe/image_writer.h"
#include "pe/pe_image.h"
#include "support/byte_reader.h"

namespace cil::pe {

namespace {

// CryptoAPI blob constants (the .snk format is a CryptoAPI key blob).
constexpr uint8_t kPublicKeyBlob = 0x06, kPrivateKeyBlob = 0x07, kBlobVersion = 0x02;
constexpr uint32_t kMagicRsa1 = 0x31415352, kMagicRsa2 = 0x32415352;  // 'RSA1', 'RSA2'
constexpr uint32_t kCalgRsaSign = 0x00002400, kCalgSha1 = 0x00008004;
constexpr size_t kBlobHeaderSize = 8, kRsaPubKeySize = 12, kPublicKeyHeaderSize = 12;
// Keys from 384 to 16384 bits, in whole bytes (sn -k makes 1024 to 16384-bit keys).
constexpr uint32_t kMinKeyBits = 384, kMaxKeyBits = 16384;
// II.6.2.1.3: the ECMA standard key, which the runtime maps to a real one.
constexpr std::array<uint8_t, 16> kEcmaKey = {0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0};

Error key_error(std::string message, std::optional<uint64_t> offset = std::nullopt) {
  return make_error(ErrorKind::Format, "strong-name key", std::move(message), offset);
}
Error signature_error(ErrorKind kind, std::string message, std::optional<uint64_t> offset = std::nullopt) {
  return make_error(kind, "strong-name signature", std::move(message), offset);
}

/// OpenSSL without the system's openssl.cnf: its settings must not change what is signed.
void init_crypto() { OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr); }

/// Reads a PUBLICKEYBLOB or PRIVATEKEYBLOB starting at `r`'s position (BLOBHEADER, RSAPUBKEY, parts).
Expected<StrongNameKey> read_key_blob(ByteReader& r) {
  uint64_t at = r.position();
  uint8_t type = CIL_TRY(r.u8());
  uint8_t version = CIL_TRY(r.u8());
  CIL_TRY(r.skip(2));
  CIL_TRY(r.u32());  // aiKeyAlg: CALG_RSA_SIGN or CALG_RSA_KEYX; both sign the same way
  if ((type != kPublicKeyBlob && type != kPrivateKeyBlob) || version != kBlobVersion)
    return key_error(fmt::format("blob type {:#x} version {} is neither a public nor a private RSA key blob", type, version), at);
  uint32_t magic = CIL_TRY(r.u32());
  if (magic != (type == kPrivateKeyBlob ? kMagicRsa2 : kMagicRsa1))
    return key_error(fmt::format("magic {:#010x} is not '{}'", magic, type == kPrivateKeyBlob ? "RSA2" : "RSA1"), at + kBlobHeaderSize);
  StrongNameKey key;
  key.bit_length = CIL_TRY(r.u32());
  key.public_exponent = CIL_TRY(r.u32());
  if (key.bit_length < kMinKeyBits || key.bit_length > kMaxKeyBits || key.bit_length % 16)
    return key_error(fmt::format("a {}-bit key is not supported ({} to {} bits, a multiple of 16)", key.bit_length, kMinKeyBits, kMaxKeyBits),
                     at + kBlobHeaderSize + 4);
  if (key.public_exponent == 0) return key_error("the public exponent is zero", at + kBlobHeaderSize + 8);
  auto take = [&](std::vector<uint8_t>& out, uint32_t size) -> Status {
    auto bytes = CIL_TRY(r.bytes(size));
    out.assign(bytes.begin(), bytes.end());
    return ok();
  };
  uint32_t full = key.bit_length / 8, half = key.bit_length / 16;
  CIL_TRY(take(key.modulus, full));
  if (type == kPrivateKeyBlob) {
    CIL_TRY(take(key.prime1, half));
    CIL_TRY(take(key.prime2, half));
    CIL_TRY(take(key.exponent1, half));
    CIL_TRY(take(key.exponent2, half));
    CIL_TRY(take(key.coefficient, half));
    CIL_TRY(take(key.private_exponent, full));
  }
  return key;
}

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
struct ParamBldFree {
  void operator()(OSSL_PARAM_BLD* b) const { OSSL_PARAM_BLD_free(b); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;

/// The key as an OpenSSL RSA key; the private parts only when `with_private`.
Expected<Pkey> make_pkey(const StrongNameKey& key, bool with_private) {
  init_crypto();
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> build(OSSL_PARAM_BLD_new());
  std::vector<std::unique_ptr<BIGNUM, BnFree>> numbers;
  bool pushed = static_cast<bool>(build);
  auto push = [&](const char* name, const std::vector<uint8_t>& little_endian) {
    numbers.emplace_back(BN_lebin2bn(little_endian.data(), static_cast<int>(little_endian.size()), nullptr));
    pushed = pushed && numbers.back() && OSSL_PARAM_BLD_push_BN(build.get(), name, numbers.back().get());
  };
  push(OSSL_PKEY_PARAM_RSA_N, key.modulus);
  uint8_t e[4];
  store_le<uint32_t>(e, key.public_exponent);
  push(OSSL_PKEY_PARAM_RSA_E, std::vector<uint8_t>(e, e + 4));
  if (with_private) {
    push(OSSL_PKEY_PARAM_RSA_D, key.private_exponent);
    push(OSSL_PKEY_PARAM_RSA_FACTOR1, key.prime1);
    push(OSSL_PKEY_PARAM_RSA_FACTOR2, key.prime2);
    push(OSSL_PKEY_PARAM_RSA_EXPONENT1, key.exponent1);
    push(OSSL_PKEY_PARAM_RSA_EXPONENT2, key.exponent2);
    push(OSSL_PKEY_PARAM_RSA_COEFFICIENT1, key.coefficient);
  }
  std::unique_ptr<OSSL_PARAM, ParamFree> params(pushed ? OSSL_PARAM_BLD_to_param(build.get()) : nullptr);
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
  EVP_PKEY* made = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
      EVP_PKEY_fromdata(ctx.get(), &made, with_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params.get()) <= 0)
    return key_error("OpenSSL does not accept the RSA key");
  return Pkey(made);
}

/// A context for PKCS#1 v1.5 signatures over a SHA-1 digest, for signing or verifying.
Expected<PkeyCtx> rsa_sha1_context(EVP_PKEY* pkey, bool sign) {
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey, nullptr));
  if (!ctx || (sign ? EVP_PKEY_sign_init(ctx.get()) : EVP_PKEY_verify_init(ctx.get())) <= 0 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_PADDING) <= 0 || EVP_PKEY_CTX_set_signature_md(ctx.get(), EVP_sha1()) <= 0)
    return signature_error(ErrorKind::Unsupported, "OpenSSL cannot make RSA PKCS#1 v1.5 SHA-1 signatures");
  return ctx;
}

}  // namespace

std::vector<uint8_t> StrongNameKey::assembly_public_key() const {
  if (ecma) return {kEcmaKey.begin(), kEcmaKey.end()};
  std::vector<uint8_t> out(kPublicKeyHeaderSize + kBlobHeaderSize + kRsaPubKeySize);
  uint8_t* p = out.data();
  store_le<uint32_t>(p, kCalgRsaSign);
  store_le<uint32_t>(p + 4, kCalgSha1);
  store_le<uint32_t>(p + 8, static_cast<uint32_t>(kBlobHeaderSize + kRsaPubKeySize + modulus.size()));
  p += kPublicKeyHeaderSize;
  p[0] = kPublicKeyBlob;
  p[1] = kBlobVersion;
  store_le<uint32_t>(p + 4, kCalgRsaSign);
  store_le<uint32_t>(p + 8, kMagicRsa1);
  store_le<uint32_t>(p + 12, bit_length);
  store_le<uint32_t>(p + 16, public_exponent);
  out.insert(out.end(), modulus.begin(), modulus.end());
  return out;
}

bool StrongNameKey::same_public_key(std::span<const uint8_t> blob) const {
  auto other = parse_strong_name_key(blob);
  if (!other) return false;
  if (ecma || other->ecma) return ecma == other->ecma;
  return bit_length == other->bit_length && public_exponent == other->public_exponent && modulus == other->modulus;
}

Expected<StrongNameKey> parse_strong_name_key(std::span<const uint8_t> blob) {
  if (blob.size() == kEcmaKey.size() && std::equal(blob.begin(), blob.end(), kEcmaKey.begin())) {
    StrongNameKey key;
    key.ecma = true;
    return key;
  }
  ByteReader r(blob, 0, "strong-name key");
  if (blob.empty()) return key_error("the file is empty");
  // A bare key blob starts with its type byte; a public key as assemblies hold it starts with
  // SigAlgID, HashAlgID and the blob's size (II.6.2.1.3).
  if (blob[0] != kPublicKeyBlob && blob[0] != kPrivateKeyBlob) {
    CIL_TRY(r.u32());
    CIL_TRY(r.u32());
    uint32_t size = CIL_TRY(r.u32());
    if (size != blob.size() - std::min<size_t>(blob.size(), kPublicKeyHeaderSize))
      return key_error(fmt::format("the public key header gives a {}-byte key blob, {} bytes follow", size, blob.size() - kPublicKeyHeaderSize), 8);
  }
  StrongNameKey key = CIL_TRY(read_key_blob(r));
  if (r.remaining()) return key_error(fmt::format("{} bytes follow the key", r.remaining()), r.position());
  return key;
}

Expected<StrongNameLayout> strong_name_layout(std::span<const uint8_t> file) {
  PeImage image = CIL_TRY(PeImage::parse(file));
  CliHeader cli = CIL_TRY(read_cli_header(image));
  const auto& h = image.headers();
  StrongNameLayout layout;
  layout.checksum_offset = h.optional_header_offset + kOptCheckSum;
  if (h.directory_count > kSecurityDirectory) layout.security_entry_offset = h.directories_offset + kSecurityDirectory * kDataDirectoryEntrySize;
  layout.cli_flags_offset = cli.file_offset + cli_field::kFlags;
  if (!cli.strong_name_signature.present())
    return signature_error(ErrorKind::Unsupported, "the CLI header has no space for a signature (its StrongNameSignature directory is empty)");
  layout.signature_size = cli.strong_name_signature.size;
  layout.signature_offset = CIL_TRY(image.rva_to_offset(cli.strong_name_signature.rva, cli.strong_name_signature.size, "strong-name signature"));
  return layout;
}

Expected<std::array<uint8_t, 20>> strong_name_hash(std::span<const uint8_t> file, const StrongNameLayout& layout) {
  init_crypto();
  PeImage image = CIL_TRY(PeImage::parse(file));
  const auto& h = image.headers();
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha1(), nullptr) != 1)
    return signature_error(ErrorKind::Unsupported, "OpenSSL cannot compute SHA-1");
  bool hashed = true;
  auto add = [&](uint64_t from, uint64_t to) { hashed = hashed && (to <= from || EVP_DigestUpdate(ctx.get(), file.data() + from, to - from) == 1); };
  // The headers through the section table (II.25.2), the two fields read as zeros.
  uint64_t headers_end = uint64_t{h.section_table_offset} + uint64_t{h.section_count} * 40;
  if (headers_end > file.size()) return signature_error(ErrorKind::Format, "the section table runs past the end of the file", h.section_table_offset);
  std::vector<uint8_t> headers(file.begin(), file.begin() + static_cast<ptrdiff_t>(headers_end));
  std::fill_n(headers.begin() + static_cast<ptrdiff_t>(layout.checksum_offset), 4, 0);
  if (layout.security_entry_offset) std::fill_n(headers.begin() + static_cast<ptrdiff_t>(layout.security_entry_offset), kDataDirectoryEntrySize, 0);
  hashed = hashed && EVP_DigestUpdate(ctx.get(), headers.data(), headers.size()) == 1;
  uint64_t sig_begin = layout.signature_offset, sig_end = sig_begin + layout.signature_size;
  for (const auto& s : image.sections()) {
    uint64_t begin = s.raw_offset, end = begin + s.raw_size;
    if (end > file.size())
      return signature_error(ErrorKind::Format, fmt::format("section {}'s file bytes run past the end of the file", s.name), begin);
    if (sig_begin >= begin && sig_end <= end) {
      add(begin, sig_begin);
      add(sig_end, end);
    } else {
      add(begin, end);
    }
  }
  std::array<uint8_t, 20> digest{};
  unsigned size = 0;
  if (!hashed || EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1 || size != digest.size())
    return signature_error(ErrorKind::Unsupported, "OpenSSL could not compute the SHA-1");
  return digest;
}

Status sign_strong_name(std::span<uint8_t> file, const StrongNameLayout& layout, const StrongNameKey& key) {
  if (!key.has_private_key()) return key_error("the key has no private key to sign with (a public key only delay-signs)");
  if (key.signature_size() != layout.signature_size)
    return signature_error(ErrorKind::Unsupported,
                           fmt::format("the key makes {}-byte signatures; the assembly has room for {}", key.signature_size(), layout.signature_size),
                           layout.signature_offset);
  // The space is zero while hashing, as a compiler leaves it before it signs.
  std::fill_n(file.begin() + static_cast<ptrdiff_t>(layout.signature_offset), layout.signature_size, 0);
  auto digest = CIL_TRY(strong_name_hash(file, layout));
  Pkey pkey = CIL_TRY(make_pkey(key, true));
  PkeyCtx ctx = CIL_TRY(rsa_sha1_context(pkey.get(), true));
  std::vector<uint8_t> signature(key.signature_size());
  size_t size = signature.size();
  if (EVP_PKEY_sign(ctx.get(), signature.data(), &size, digest.data(), digest.size()) <= 0 || size != signature.size())
    return signature_error(ErrorKind::Unsupported, "OpenSSL could not sign with the key (is it a consistent RSA key pair?)");
  // The CLR stores the signature little-endian, OpenSSL gives it big-endian.
  std::reverse_copy(signature.begin(), signature.end(), file.begin() + static_cast<ptrdiff_t>(layout.signature_offset));
  return ok();
}

Status verify_strong_name(std::span<const uint8_t> file, const StrongNameLayout& layout, const StrongNameKey& key) {
  if (key.ecma) return signature_error(ErrorKind::Unsupported, "a signature made for the ECMA key cannot be checked here");
  if (key.signature_size() != layout.signature_size)
    return signature_error(ErrorKind::Format, fmt::format("the space holds {} bytes, the key's signatures have {}", layout.signature_size, key.signature_size()),
                           layout.signature_offset);
  auto digest = CIL_TRY(strong_name_hash(file, layout));
  Pkey pkey = CIL_TRY(make_pkey(key, false));
  PkeyCtx ctx = CIL_TRY(rsa_sha1_context(pkey.get(), false));
  auto stored = file.subspan(layout.signature_offset, layout.signature_size);
  std::vector<uint8_t> signature(stored.rbegin(), stored.rend());
  if (EVP_PKEY_verify(ctx.get(), signature.data(), signature.size(), digest.data(), digest.size()) != 1)
    return signature_error(ErrorKind::Format, "the signature does not match the file's hash and the public key", layout.signature_offset);
  return ok();
}

Expected<std::vector<ChangedRange>> finish_strong_name(std::span<uint8_t> file, const StrongNameKey& key, bool delay_sign) {
  StrongNameLayout layout = CIL_TRY(strong_name_layout(file));
  if (key.signature_size() != layout.signature_size)
    return signature_error(ErrorKind::Unsupported,
                           fmt::format("the key makes {}-byte signatures; the assembly has room for {}", key.signature_size(), layout.signature_size),
                           layout.signature_offset);
  if (delay_sign)
    std::fill_n(file.begin() + static_cast<ptrdiff_t>(layout.signature_offset), layout.signature_size, 0);
  else
    CIL_TRY(sign_strong_name(file, layout, key));
  std::vector<ChangedRange> changed{{layout.signature_offset, layout.signature_size}};
  if (load_le<uint32_t>(file.data() + layout.checksum_offset) != 0) {
    store_le<uint32_t>(file.data() + layout.checksum_offset, pe_checksum(file, layout.checksum_offset));
    changed.push_back({layout.checksum_offset, 4});
  }
  return changed;
}

uint32_t pe_checksum(std::span<const uint8_t> file, uint64_t checksum_offset) {
  OutputImage image;
  image.append_view(file);
  // A view's checksum cannot fail: only pieces written ahead can lie at odd offsets.
  auto sum = image.checksum(checksum_offset);
  return sum ? *sum : 0;
}

}  // namespace cil::pe
