// Test-only: breaks a finished output on purpose (CIL_INSTRUMENT_TEST_BREAK_OUTPUT), so that tests
// can show the self-check catches what it claims to catch.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "metadata/ids.h"
#include "support/error.h"

namespace cil::cli {

/// The environment variable, documented in the man page as for the project's tests only.
inline constexpr const char* kBreakOutputVariable = "CIL_INSTRUMENT_TEST_BREAK_OUTPUT";
/// Test-only too (man page): the self-check keeps the pages it read, as it once did, so that the
/// memory test's control can show that its measure sees them.
inline constexpr const char* kKeepCheckPagesVariable = "CIL_INSTRUMENT_TEST_KEEP_CHECK_PAGES";

/// A change made to the output or its PDB.
struct Breakage {
  bool in_pdb = false;   ///< the standalone PDB, not the assembly
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
};

/// What `what` (header, table, body, token, signature, pdb) asks to break in `assembly`, whose
/// new bodies are `rewritten`; nullopt when there is nothing of that kind to break. An unknown
/// `what` is a usage error.
Expected<std::optional<Breakage>> plan_breakage(const std::string& what, std::span<const uint8_t> assembly,
                                                std::span<const md::MethodDefId> rewritten, bool has_pdb);

}  // namespace cil::cli
