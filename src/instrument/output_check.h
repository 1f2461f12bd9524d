// The self-check of an instrument output before it takes its name: the file read back with the
// project's own reader (headers, every table, every new body, every token they hold, the PDB).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "il/instruction.h"
#include "il/method_body.h"
#include "support/error.h"
#include "instrument/engine_names.h"

namespace cil::md {
class Module;
class PortablePdb;
}

namespace cil::pe {
struct StrongNameKey;
}

namespace cil::instrument {

/// What the output is expected to hold, from the job that wrote it.
struct OutputExpectations {
  std::span<const md::MethodDefId> rewritten;  ///< the methods whose bodies the job rewrote
  /// MethodDef rows of the input: rows past it were added by the job, and their bodies are new.
  uint32_t input_methods = 0;
  bool embedded_pdb = false;            ///< the output embeds a portable PDB
  std::span<const uint8_t> standalone_pdb;  ///< the standalone PDB written beside it, if any
  const pe::StrongNameKey* signed_with = nullptr;  ///< the output must carry a valid signature
  /// Called, when set, with parts of the output's bytes and of `standalone_pdb` that the check
  /// has read and will not read again soon, so that a caller whose bytes are a file mapping can
  /// let their pages go (the check reads every new body once: on a large output the pages it
  /// touched would otherwise all stay resident). The bytes must stay readable.
  std::function<void(std::span<const uint8_t>)> release;
};

/// What the check looked at, for the summary.
struct OutputCheckStats {
  uint32_t tables = 0;      ///< tables whose every row was read (the PDB's included)
  uint64_t rows = 0;
  uint32_t bodies = 0;      ///< new bodies decoded
  uint64_t tokens = 0;      ///< tokens in them resolved
  bool pdb = false;         ///< a PDB was read back
};

/// Reads `bytes` (the whole output file, kept alive by the caller) as a module and checks it: headers, CLI header and
/// metadata as the reader parses any input; every table and heap index column of every row;
/// every new body (the rewritten ones and those of added methods) decoded, branch targets on
/// instruction boundaries, every token in code, local signatures and catch clauses naming a row
/// of a table the operand allows (or a #US string); the PDB parsed with the sequence points of
/// every method; the strong-name signature when there is one to check. Errors say what is wrong
/// where, as for any input.
Expected<OutputCheckStats> check_output(std::span<const uint8_t> bytes, const OutputExpectations& expect);

/// The tokens of `method`'s body (`body`, decoded as `code`) that the self-check resolves
/// in a rewritten body: every token or #US string in code naming what its operand allows, the
/// local signature and the catch clauses' types. For an input body before it is rewritten, so
/// that a fault the rewrite would copy is found as the input's.
Status check_body_tokens(const md::Module& m, md::MethodDefId method, const MethodBody& body, const DecodedCode& code);

/// A portable PDB's own consistency, for the one an input brings (a fault makes it unusable: a
/// warning, and the output claims no PDB) and for the output's: every index into its own tables
/// names a row (md::check_references), one MethodDebugInformation row per MethodDef row (of
/// `method_rows`) or none, and every method's sequence points decode.
Status check_pdb_contents(const md::PortablePdb& pdb, uint32_t method_rows, OutputCheckStats* stats = nullptr);

}  // namespace cil::instrument
