// Edits to a standalone portable PDB and its writer: the same rows under the same ids (token-
// preserving, like the assembly), appended rows and blobs, and a new PDB id derived from the
// content as Roslyn's deterministic builds derive it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "metadata/heap_builder.h"
#include "metadata/metadata_writer.h"
#include "metadata/pdb_stream.h"
#include "metadata/portable_pdb.h"
#include "metadata/sha256.h"
#include "support/error.h"

namespace cil::md {

/// A PDB as written: its pieces (views of the original PDB's bytes, which must outlive them, and
/// bytes of their own: nothing is copied to hold the whole file at once), its id, and the hash the
/// id was derived from (SHA-256 of the file with the id zeroed: what a PdbChecksum debug
/// directory entry records).
struct WrittenPdb {
  pe::OutputImage image;
  PdbId id{};
  Sha256Digest checksum{};
  /// The whole file in one buffer (tests, small PDBs).
  std::vector<uint8_t> bytes() const { return image.flatten(); }
};

/// The id of a PDB whose content hash is `hash`: the first 16 bytes made a version-4 GUID, the
/// next 4 a stamp with its top bit set (System.Reflection.Metadata's BlobContentId.FromHash).
PdbId pdb_id_from_hash(const Sha256Digest& hash);

/// SHA-256 of `pdb` with the 20 bytes at `id_offset` read as zeros.
Sha256Digest pdb_content_hash(std::span<const uint8_t> pdb, uint64_t id_offset);

class PdbEditor {
 public:
  explicit PdbEditor(const PortablePdb& pdb);

  const PortablePdb& pdb() const { return pdb_; }
  /// Appends a blob (blobs of moved debug information are new: none is looked up).
  uint32_t add_blob(std::span<const uint8_t> blob) { return blobs_.append(blob); }
  uint32_t rows(TableId table) const;
  uint32_t cell(TableId table, uint32_t rid, uint8_t column) const;
  void set_cell(TableId table, uint32_t rid, uint8_t column, uint32_t value);
  /// Appends a row given its cells in schema order.
  Status add_row(TableId table, std::vector<uint32_t> cells);
  /// The typed edits the rewrite makes (ECMA-335's Portable PDB tables): a method's sequence
  /// points blob, a scope's IL range, a custom debug record's value, a MethodDebugInformation row
  /// (no document, no points) for a method the tool added.
  void set_sequence_points(uint32_t method_rid, std::span<const uint8_t> blob);
  void set_scope_range(uint32_t scope_row, uint32_t start_offset, uint32_t length);
  void set_custom_debug_value(uint32_t row, std::span<const uint8_t> value);
  Status add_empty_method_debug_information();
  /// The row count of assembly table `table` as the #Pdb stream records it (it sizes the PDB's
  /// indexes into that table).
  void set_type_system_rows(TableId table, uint32_t rows) { stream_.set_rows(table, rows); }

  /// Writes the PDB and gives it its content-derived id.
  Expected<WrittenPdb> write();

 private:
  const PortablePdb& pdb_;
  BlobHeapBuilder blobs_;
  TableEdits edits_;
  PdbStream stream_;
};

}  // namespace cil::md
