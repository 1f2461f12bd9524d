// The #Pdb stream of a standalone portable PDB (Portable PDB v1.0, "#Pdb stream"): the PDB id, the
// entry point, and the row counts of the type-system tables that the debug tables index into.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "metadata/schema.h"
#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::md {

/// The 20-byte PDB id: a GUID, then a 4-byte stamp. The assembly's CodeView entry names the GUID
/// and carries the stamp as its TimeDateStamp.
using PdbId = std::array<uint8_t, 20>;

/// The first debug table (Document, 0x30): the tables below it are the type-system tables of
/// ECMA-335 II.22, the only ones a #Pdb stream may reference.
inline constexpr unsigned kFirstDebugTable = static_cast<unsigned>(TableId::Document);

struct PdbStream {
  PdbId id{};
  uint32_t entry_point = 0;  ///< a MethodDef token, or 0
  /// ReferencedTypeSystemTables: one bit per type-system table the stream gives a row count for.
  uint64_t referenced = 0;
  /// TypeSystemTableRows by table id; 0 for a table that is not referenced.
  std::array<uint32_t, kTableSlots> rows{};
  uint64_t file_offset = 0;  ///< of the stream's first byte (the id)

  /// Sets the row count of type-system table `table` and marks it referenced.
  void set_rows(TableId table, uint32_t count);
  /// Parses the stream. Fails when a referenced table is not a type-system table (only 0x00-0x2C
  /// may be referenced) or a row count exceeds what a token can address.
  static Expected<PdbStream> parse(ByteReader stream);
  /// The stream's bytes, as parse() reads them (4-byte aligned by construction).
  std::vector<uint8_t> encode() const;
};

/// Offset of the id inside the stream: zeroed when the PDB's content hash is computed.
inline constexpr uint32_t kPdbIdOffset = 0;

}  // namespace cil::md
