// Writing a method body's header (tiny or fat, II.25.4.2-3) and its exception-handling sections
// (small or fat, II.25.4.5-6): the one place that lays these bytes out, for the model's encoder
// and for the entry fast path alike.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "il/method_body.h"
#include "support/error.h"

namespace cil::il {

struct HeaderFields {
  uint32_t code_size = 0;
  uint16_t max_stack = 0;
  md::Token local_sig_token;
  bool init_locals = false;
  bool has_clauses = false;
  /// The original fat header's flag bits (0 when it had none): bits the format does not define
  /// travel with the body. Format, MoreSects and InitLocals are set from the fields above.
  uint16_t original_flags = 0;
  /// An unedited body that was fat stays fat, so that it re-encodes to its own bytes.
  bool keep_fat = false;
};

/// II.25.4.2: a tiny header holds fewer than 64 bytes of code, a max stack of 8, no locals, no
/// exception clauses and no InitLocals.
bool fits_tiny_header(const HeaderFields& fields);

/// Appends the header: tiny when it fits (and keep_fat is clear), otherwise a 12-byte fat header.
void write_header(std::vector<uint8_t>& out, const HeaderFields& fields);

/// The one section an edited body's clauses go in: small when there are at most 20 clauses and
/// every offset fits 16 bits and every length 8 (II.25.4.6), fat otherwise.
Expected<EhSectionLayout> section_for(std::span<const ExceptionClause> clauses);

/// Appends the sections of `layout` (an unedited body's own layout, or the one of section_for)
/// holding `clauses` in order. `out` starts at the header: each section starts 4-byte aligned
/// from it (II.25.4.5). Sections of other kinds are written back with their own bytes.
Status write_eh_sections(std::vector<uint8_t>& out, std::span<const ExceptionClause> clauses,
                         std::span<const EhSectionLayout> layout);

}  // namespace cil::il
