// The metadata root (II.24.2.1), its stream headers, and the streams chosen as the CLR chooses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "metadata/heaps.h"
#include "metadata/pdb_stream.h"
#include "metadata/tables_stream.h"
#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::md {

inline constexpr uint32_t kMetadataSignature = 0x424A5342;  // "BSJB"
inline constexpr uint32_t kMaxStreams = 64;
inline constexpr uint32_t kMaxVersionLength = 255;

struct StreamHeader {
  std::string name;
  uint32_t offset = 0;  ///< relative to the metadata root
  uint32_t size = 0;
  uint32_t header_file_offset = 0;
  bool used = false;    ///< chosen as the stream of its kind (duplicates and unknown names are not)
};

class Metadata {
 public:
  /// Parses the root and the streams inside `root` (the metadata directory's bytes).
  static Expected<Metadata> parse(ByteReader root);

  uint16_t major_version() const { return major_; }
  uint16_t minor_version() const { return minor_; }
  const std::string& version() const { return version_; }
  uint16_t flags() const { return flags_; }
  const std::vector<StreamHeader>& streams() const { return streams_; }
  /// True for uncompressed (#-, edit-and-continue) metadata, which may carry Ptr tables.
  bool uncompressed() const { return uncompressed_; }
  uint64_t file_offset() const { return file_offset_; }
  uint32_t size() const { return size_; }

  const StringHeap& strings() const { return strings_; }
  const BlobHeap& blobs() const { return blobs_; }
  const UserStringHeap& user_strings() const { return user_strings_; }
  const GuidHeap& guids() const { return guids_; }
  const TablesStream& tables() const { return tables_; }
  /// The #Pdb stream, present in standalone portable PDB metadata only.
  const std::optional<PdbStream>& pdb_stream() const { return pdb_; }
  /// Index of the chosen stream in streams(), or -1.
  int tables_stream_index() const { return tables_index_; }
  int stream_index(std::string_view heap_name) const;

 private:
  /// Fails on the first #Strings, #Blob or #GUID index in a table that lies past its heap.
  Status check_heap_indexes() const;

  uint16_t major_ = 0, minor_ = 0, flags_ = 0;
  std::string version_;
  std::vector<StreamHeader> streams_;
  bool uncompressed_ = false;
  uint64_t file_offset_ = 0;
  uint32_t size_ = 0;
  int tables_index_ = -1;
  int strings_index_ = -1, blobs_index_ = -1, us_index_ = -1, guids_index_ = -1, pdb_index_ = -1;
  StringHeap strings_;
  BlobHeap blobs_;
  UserStringHeap user_strings_;
  GuidHeap guids_;
  TablesStream tables_;
  std::optional<PdbStream> pdb_;
};

}  // namespace cil::md
