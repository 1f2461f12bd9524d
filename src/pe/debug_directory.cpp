// Reading debug directory entries and the payloads of the kinds the tool reports.
#include "pe/debug_directory.h"

#include <fmt/format.h>

namespace cil::pe {

const char* debug_type_name(uint32_t type) {
  switch (type) {
    case 1: return "COFF";
    case kDebugTypeCodeView: return "CodeView";
    case 3: return "FPO";
    case 4: return "Misc";
    case 9: return "Borland";
    case 13: return "POGO";
    case 14: return "ILTCG";
    case kDebugTypeReproducible: return "Reproducible";
    case kDebugTypeEmbeddedPortablePdb: return "EmbeddedPortablePdb";
    case kDebugTypePdbChecksum: return "PdbChecksum";
    case 20: return "ExtendedDllCharacteristics";
    default: return nullptr;
  }
}

namespace {

// The payload is located by its file pointer; the loader does not map debug data.
Expected<ByteReader> payload_reader(const PeImage& image, const DebugEntry& e) {
  ByteReader file = image.file_reader("debug data");
  return file.sub(e.data_file_offset, e.data_size, "debug data");
}

Status decode_payload(const PeImage& image, DebugEntry& e) {
  if (e.data_size == 0) return ok();
  switch (e.type) {
    case kDebugTypeCodeView: {
      ByteReader r = CIL_TRY(payload_reader(image, e));
      if (CIL_TRY(r.u32()) != kCodeViewRsdsSignature) return ok();  // old NB10 records: not decoded
      CodeViewInfo cv;
      auto guid = CIL_TRY(r.bytes(16));
      std::copy(guid.begin(), guid.end(), cv.guid.begin());
      cv.age = CIL_TRY(r.u32());
      cv.path = std::string(CIL_TRY(r.c_string(r.remaining())));
      e.codeview = std::move(cv);
      return ok();
    }
    case kDebugTypeEmbeddedPortablePdb: {
      ByteReader r = CIL_TRY(payload_reader(image, e));
      if (CIL_TRY(r.u32()) != kEmbeddedPdbSignature)
        return r.error_at(0, "embedded portable PDB does not start with 'MPDB'");
      EmbeddedPdbInfo info;
      info.uncompressed_size = CIL_TRY(r.u32());
      info.compressed_size = static_cast<uint32_t>(r.remaining());
      e.embedded_pdb = info;
      return ok();
    }
    case kDebugTypePdbChecksum: {
      ByteReader r = CIL_TRY(payload_reader(image, e));
      PdbChecksumInfo info;
      info.algorithm = std::string(CIL_TRY(r.c_string(r.remaining())));
      auto rest = CIL_TRY(r.bytes(r.remaining()));
      info.checksum.assign(rest.begin(), rest.end());
      e.pdb_checksum = std::move(info);
      return ok();
    }
    default:
      return ok();
  }
}

}  // namespace

Expected<std::vector<DebugEntry>> read_debug_directory(const PeImage& image) {
  std::vector<DebugEntry> entries;
  DataDirectory dir = image.directory(kDebugDirectory);
  if (!dir.present()) return entries;
  ByteReader r = CIL_TRY(image.reader_at(dir.rva, dir.size, "debug directory"));
  uint32_t count = dir.size / kDebugEntrySize;
  if (count > kMaxDebugEntries)
    return make_error(ErrorKind::Limit, "debug directory",
                      fmt::format("{} entries exceed the limit of {}", count, kMaxDebugEntries), r.base_offset());
  for (uint32_t i = 0; i < count; ++i) {
    DebugEntry e;
    e.entry_offset = static_cast<uint32_t>(r.file_offset());
    e.characteristics = CIL_TRY(r.u32());
    e.timestamp = CIL_TRY(r.u32());
    e.major_version = CIL_TRY(r.u16());
    e.minor_version = CIL_TRY(r.u16());
    e.type = CIL_TRY(r.u32());
    e.data_size = CIL_TRY(r.u32());
    e.data_rva = CIL_TRY(r.u32());
    e.data_file_offset = CIL_TRY(r.u32());
    CIL_TRY(decode_payload(image, e));
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace cil::pe
