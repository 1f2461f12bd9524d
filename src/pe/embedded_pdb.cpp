// Inflating and deflating embedded portable PDBs with zlib (raw deflate streams).
#include "pe/embedded_pdb.h"

#include <climits>

#include <fmt/format.h>
#include <zlib.h>

namespace cil::pe {

namespace {

// Raw deflate, no zlib header: negative window bits (zlib.h, inflateInit2).
constexpr int kRawDeflateWindow = -15;

Error embedded_error(std::string message, uint64_t offset) {
  return make_error(ErrorKind::Format, "embedded portable PDB", std::move(message), offset);
}

}  // namespace

Expected<std::vector<uint8_t>> inflate_embedded_pdb(std::span<const uint8_t> payload, uint64_t file_offset) {
  ByteReader r(payload, file_offset, "embedded portable PDB");
  if (CIL_TRY(r.u32()) != kEmbeddedPdbSignature) return r.error_at(0, "does not start with 'MPDB'");
  uint32_t size = CIL_TRY(r.u32());
  if (size > kMaxEmbeddedPdbSize)
    return make_error(ErrorKind::Limit, "embedded portable PDB",
                      fmt::format("{} bytes once inflated exceed the limit of {}", size, kMaxEmbeddedPdbSize), file_offset + 4);
  std::span<const uint8_t> compressed = payload.subspan(8);
  std::vector<uint8_t> out(size);
  z_stream z{};
  if (inflateInit2(&z, kRawDeflateWindow) != Z_OK) return make_error(ErrorKind::Io, "zlib", "inflateInit2 failed");
  // A deflate stream may be longer than UINT_MAX in principle; payloads here are under 2 GiB.
  z.next_in = const_cast<Bytef*>(compressed.data());
  z.avail_in = static_cast<uInt>(std::min<size_t>(compressed.size(), UINT_MAX));
  z.next_out = out.data();
  z.avail_out = size;
  int status = inflate(&z, Z_FINISH);
  uint64_t produced = z.total_out;
  uint64_t consumed = z.total_in;
  if (status == Z_BUF_ERROR && z.avail_out == 0) {
    // The output is full: the stream must end exactly here.
    uint8_t probe = 0;
    z.next_out = &probe;
    z.avail_out = 1;
    status = inflate(&z, Z_FINISH);
    if (status != Z_STREAM_END || z.total_out != produced) status = Z_DATA_ERROR;
  }
  inflateEnd(&z);
  if (status != Z_STREAM_END)
    return embedded_error(produced == size ? fmt::format("the deflate stream holds more than the declared {} bytes", size)
                                           : fmt::format("the deflate stream is corrupt after {} bytes (zlib {})", consumed, status),
                          file_offset + 8 + consumed);
  if (produced != size)
    return embedded_error(fmt::format("inflates to {} bytes, not the declared {}", produced, size), file_offset + 4);
  return out;
}

Expected<std::vector<uint8_t>> read_embedded_pdb(const PeImage& image, const DebugEntry& entry) {
  ByteReader file = image.file_reader("debug data");
  ByteReader payload = CIL_TRY(file.sub(entry.data_file_offset, entry.data_size, "embedded portable PDB"));
  return inflate_embedded_pdb(payload.data(), payload.base_offset());
}

Expected<std::vector<uint8_t>> embedded_pdb_payload(const OutputImage& pdb) {
  if (!pdb.complete()) return make_error(ErrorKind::Usage, "embedded portable PDB", "a piece of the PDB is not in memory");
  if (pdb.size() > kMaxEmbeddedPdbSize)
    return make_error(ErrorKind::Limit, "embedded portable PDB", fmt::format("{} bytes exceed the limit of {}", pdb.size(), kMaxEmbeddedPdbSize));
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kRawDeflateWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return make_error(ErrorKind::Io, "zlib", "deflateInit2 failed");
  uLong bound = deflateBound(&z, static_cast<uLong>(pdb.size()));
  std::vector<uint8_t> out(8 + bound);
  store_le<uint32_t>(out.data(), kEmbeddedPdbSignature);
  store_le<uint32_t>(out.data() + 4, static_cast<uint32_t>(pdb.size()));
  z.next_out = out.data() + 8;
  z.avail_out = static_cast<uInt>(bound);
  // One deflate stream over the pieces in order, as if they were one buffer.
  auto pieces = pdb.pieces();
  int status = Z_OK;
  for (size_t i = 0; i < pieces.size() && status == Z_OK; ++i) {
    z.next_in = const_cast<Bytef*>(pieces[i].bytes.data());
    z.avail_in = static_cast<uInt>(pieces[i].bytes.size());
    status = deflate(&z, i + 1 == pieces.size() ? Z_FINISH : Z_NO_FLUSH);
    if (status == Z_OK && z.avail_in != 0) status = Z_BUF_ERROR;
  }
  if (pieces.empty()) status = deflate(&z, Z_FINISH);
  uint64_t written = z.total_out;
  deflateEnd(&z);
  if (status != Z_STREAM_END) return make_error(ErrorKind::Io, "zlib", fmt::format("deflate failed ({})", status));
  out.resize(8 + written);
  return out;
}

Expected<std::vector<uint8_t>> embedded_pdb_payload(std::span<const uint8_t> pdb) {
  OutputImage image;
  image.append_view(pdb);
  return embedded_pdb_payload(image);
}

}  // namespace cil::pe
