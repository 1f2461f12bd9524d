// The payload of an EmbeddedPortablePdb debug directory entry: 'MPDB', the PDB's size, and the
// PDB compressed with deflate (RFC 1951). zlib does the compression.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pe/debug_directory.h"
#include "pe/image_writer.h"
#include "pe/pe_image.h"
#include "support/error.h"

namespace cil::pe {

/// Cap on the size of an embedded PDB once inflated.
inline constexpr uint32_t kMaxEmbeddedPdbSize = 512u << 20;

/// The PDB inside an EmbeddedPortablePdb entry. Fails when the payload is not 'MPDB', the
/// declared size is over the cap, or the deflate stream is corrupt or gives another size.
Expected<std::vector<uint8_t>> read_embedded_pdb(const PeImage& image, const DebugEntry& entry);

/// Inflates an EmbeddedPortablePdb payload (what read_embedded_pdb reads from the image).
Expected<std::vector<uint8_t>> inflate_embedded_pdb(std::span<const uint8_t> payload, uint64_t file_offset);

/// The EmbeddedPortablePdb payload for `pdb`.
Expected<std::vector<uint8_t>> embedded_pdb_payload(std::span<const uint8_t> pdb);
/// The same for a PDB held as pieces (every byte present: no piece in place).
Expected<std::vector<uint8_t>> embedded_pdb_payload(const OutputImage& pdb);

}  // namespace cil::pe
