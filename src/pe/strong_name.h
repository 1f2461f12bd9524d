// Strong-name keys (.snk blobs) and the strong-name signature of a PE file: what is hashed,
// signing and verifying (RSA PKCS#1 v1.5 over SHA-1, ECMA-335 II.6.2.1.3).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "support/error.h"

namespace cil::pe {

/// A strong-name key read from a .snk file: a full key pair (PRIVATEKEYBLOB, 'RSA2'), a public
/// key (PUBLICKEYBLOB, 'RSA1', with or without the 12-byte header `sn -p` writes), or the
/// 16-byte ECMA standard key.
struct StrongNameKey {
  bool ecma = false;         ///< the ECMA standard key: no RSA key of its own, 128-byte signatures
  uint32_t bit_length = 0;   ///< modulus size in bits
  uint32_t public_exponent = 0;
  std::vector<uint8_t> modulus;  ///< little-endian, as stored in the blob (bit_length / 8 bytes)
  /// The private parts, little-endian as stored (empty for a public key): p, q, d mod (p-1),
  /// d mod (q-1), q^-1 mod p (bit_length / 16 bytes each), then d (bit_length / 8 bytes).
  std::vector<uint8_t> prime1, prime2, exponent1, exponent2, coefficient, private_exponent;

  bool has_private_key() const { return !private_exponent.empty(); }
  /// Bytes of a signature made with this key: the modulus size (128 for the ECMA key).
  uint32_t signature_size() const { return ecma ? 128 : bit_length / 8; }
  /// The key as an Assembly row's PublicKey blob holds it (II.6.2.1.3): SigAlgID, HashAlgID,
  /// the size of the PUBLICKEYBLOB, then the blob; the ECMA key as its 16 bytes.
  std::vector<uint8_t> assembly_public_key() const;
  /// True when `blob` (an Assembly row's PublicKey) names the same public key: the same RSA
  /// modulus and exponent (the headers' algorithm ids may differ), or both the ECMA key.
  bool same_public_key(std::span<const uint8_t> blob) const;
};

/// Reads a .snk file's bytes (or an Assembly row's PublicKey blob). Errors name "strong-name key".
Expected<StrongNameKey> parse_strong_name_key(std::span<const uint8_t> blob);

/// Where the strong-name signature lies in a file (the CLI header's StrongNameSignature
/// directory, II.25.3.3), and the fields the hash leaves out.
struct StrongNameLayout {
  uint64_t signature_offset = 0;
  uint32_t signature_size = 0;
  uint64_t checksum_offset = 0;       ///< the optional header's CheckSum
  uint64_t security_entry_offset = 0; ///< the certificate table's data directory entry
  uint64_t cli_flags_offset = 0;      ///< the CLI header's Flags
};

/// Finds the signature space of `file`; fails when it has none (no CLI header, an empty
/// StrongNameSignature directory) or when it lies outside one section's file bytes.
Expected<StrongNameLayout> strong_name_layout(std::span<const uint8_t> file);

/// The SHA-1 the signature signs, as the CLR and `sn` compute it: the headers up to the end of the
/// section table (CheckSum and the certificate table entry read as zeros), then each section's
/// file bytes in section-table order without the signature space. Padding after the section
/// table and bytes after the last section are not hashed.
Expected<std::array<uint8_t, 20>> strong_name_hash(std::span<const uint8_t> file, const StrongNameLayout& layout);

/// Signs `file` in place with `key` (which must hold a private key whose signature fits the
/// space exactly): writes the signature, little-endian as the CLR stores it, over the signature
/// space. The caller updates the PE checksum afterwards (it covers the signature).
Status sign_strong_name(std::span<uint8_t> file, const StrongNameLayout& layout, const StrongNameKey& key);

/// Checks the signature of `file` against `key`'s public key; an error says why it is invalid.
Status verify_strong_name(std::span<const uint8_t> file, const StrongNameLayout& layout, const StrongNameKey& key);

/// A range of a file that a finishing step changed, to be written to the file.
struct ChangedRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// Finishes the strong name of a complete file in place: the signature space zeroed
/// (`delay_sign`, any key) or signed with `key`'s private key, then the PE checksum updated
/// when the file has one (it covers the signature). Returns the ranges it changed.
Expected<std::vector<ChangedRange>> finish_strong_name(std::span<uint8_t> file, const StrongNameKey& key, bool delay_sign);

/// The PE checksum of `file` (the CheckSum field at `checksum_offset` read as zero): IMAGEHLP's
/// CheckSumMappedFile, as pe::OutputImage::checksum computes it over pieces.
uint32_t pe_checksum(std::span<const uint8_t> file, uint64_t checksum_offset);

}  // namespace cil::pe
