// A standalone portable PDB rewritten for an instrumented assembly: every rewritten method's
// debug information moved through its offset map, rows for the methods the tool added, the #Pdb
// stream's row counts made the output's, and a new content-derived id. Unchanged methods keep
// their rows byte-for-byte.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "il/debug_remap.h"
#include "il/offset_map.h"
#include "metadata/pdb_writer.h"
#include "metadata/portable_pdb.h"
#include "metadata/schema.h"
#include "support/error.h"

namespace cil::il {

/// A method whose body the instrument job replaced.
struct RewrittenMethod {
  OffsetMap map;
  /// StandAloneSig rid of the new body's locals, or 0 (the sequence points blob records it).
  uint32_t local_signature = 0;
};

/// What the instrument job did to the assembly, as the PDB needs to know it.
struct PdbRewriteInput {
  /// Per original MethodDef rid (index 0 unused): the rewrite of a replaced body, or nullopt for
  /// a body left as it was.
  std::vector<std::optional<RewrittenMethod>> methods;
  /// Row counts of the output assembly's tables.
  std::array<uint32_t, md::kTableSlots> rows{};
};

/// Checks that `pdb` describes an assembly with `method_rows` methods (the tables that parallel
/// or index MethodDef must agree with it).
Status check_pdb_fits(const md::PortablePdb& pdb, uint32_t method_rows);

/// Rewrites `pdb`. Fails, naming the row, when a rewritten method's debug information names an
/// offset that is not an instruction boundary of its original code.
Expected<md::WrittenPdb> rewrite_pdb(const md::PortablePdb& pdb, const PdbRewriteInput& input);

}  // namespace cil::il
