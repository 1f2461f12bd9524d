// Every index a table holds names what exists: rows of tables, coded indexes, #Strings and #Blob
// entries, lists in order. One check for the instrument job's input and its output's self-check.
#pragma once

#include <cstdint>

#include "metadata/metadata.h"
#include "support/error.h"

namespace cil::md {

/// Which indexes are checked.
enum class ReferenceScope : uint8_t {
  All,       ///< an assembly or module: every index
  PdbOwn,    ///< a portable PDB: only the indexes into its own tables (0x30 and on); the others name rows of the assembly
};

/// What the check read, for the self-check's summary.
struct ReferenceCheckStats {
  uint32_t tables = 0;  ///< tables whose every row was read
  uint64_t rows = 0;
};

/// Every Table and Coded column of every row of `metadata` names a row that exists, 0 being null
/// for a coded index (a list column may name the row after the last, and a list never goes back:
/// II.22, "runs" of rows); every #Blob index reads, and every #Strings index when the heap does
/// not end with a NUL. Linear in the tables' size. The error names the table, the row, the
/// column and the cell's file offset.
Status check_references(const Metadata& metadata, ReferenceScope scope, ReferenceCheckStats* stats = nullptr);

}  // namespace cil::md
