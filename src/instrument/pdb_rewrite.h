// A standalone portable PDB rewritten for an instrumented assembly: every rewritten method's
// debug information moved through its offset map, rows for the methods the tool added, the #Pdb
// stream's row counts made the output's, and a new content-derived id. Unchanged methods keep
// their rows byte-for-byte.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "instrument/debug_remap.h"
#include "il/offset_map.h"
#include "metadata/pdb_writer.h"
#include "metadata/portable_pdb.h"
#include "metadata/schema.h"
#include "support/error.h"
#include "instrument/engine_names.h"

namespace cil::instrument {

/// Checks that `pdb` describes an assembly with `method_rows` methods (the tables that parallel
/// or index MethodDef must agree with it).
Status check_pdb_fits(const md::PortablePdb& pdb, uint32_t method_rows);

/// Rewrites a PDB as the methods are rewritten, one at a time, so that no method's offset map
/// need be kept once its debug information has moved (an assembly's maps together are several
/// times its code). `pdb` must have passed check_pdb_fits and outlive the rewriter.
class PdbRewriter {
 public:
  explicit PdbRewriter(const md::PortablePdb& pdb);

  /// Moves `method`'s debug information through `map`; `local_signature` is the
  /// StandAloneSig rid of the new body's locals (the sequence points blob records it). Fails,
  /// naming the row, when the debug information names an offset that is not an instruction
  /// boundary of the original code; the PDB cannot be written then.
  Status method_rewritten(md::MethodDefId method, const OffsetMap& map, uint32_t local_signature);

  /// Writes the PDB for an output whose tables have `rows` rows: MethodDebugInformation rows for
  /// the methods added, the #Pdb row counts, a new id.
  Expected<md::WrittenPdb> finish(const std::array<uint32_t, md::kTableSlots>& rows);

 private:
  /// Records the first failure: the PDB cannot be written after it.
  Status fail(Error e);
  /// method_rewritten's sequence points (the short way of shift_sequence_points_blob, or decoded,
  /// moved and encoded).
  Status move_sequence_points(uint32_t rid, const OffsetMap& map, uint32_t local_signature);
  Status remap_async(uint32_t rid, uint32_t row, const OffsetMap& map);

  const md::PortablePdb& pdb_;
  md::PdbEditor editor_;
  std::optional<Error> failed_;
  /// Methods an async stepping record of another method resumes in (their maps are kept), and
  /// the records that wait for such a map, with their own method's map.
  std::unordered_set<uint32_t> resume_methods_;
  std::unordered_map<uint32_t, OffsetMap> kept_maps_;
  struct PendingAsync {
    uint32_t rid;
    uint32_t row;
  };
  std::vector<PendingAsync> pending_async_;
  /// method_rewritten's buffers, reused: the points read, the points moved, their new blob.
  md::MethodSequencePoints points_, moved_;
  std::vector<uint8_t> blob_;
};

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

/// Rewrites `pdb` for every method of `input` at once (PdbRewriter over a list).
Expected<md::WrittenPdb> rewrite_pdb(const md::PortablePdb& pdb, const PdbRewriteInput& input);

}  // namespace cil::instrument
