// Method body headers and exception-handling sections (ECMA-335 II.25.4).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "metadata/ids.h"
#include "support/byte_reader.h"
#include "support/error.h"

namespace cil::il {

/// Caps on counts read from a body (see man page, LIMITS).
inline constexpr uint32_t kMaxEhClauses = 65536;
inline constexpr uint32_t kMaxEhSections = 1024;
/// IL bytes of one body: 16 MiB, far above what compilers emit, so that one body cannot make
/// the decoder (40 bytes per instruction) and the encoder allocate gigabytes.
inline constexpr uint32_t kMaxCodeSize = 16u << 20;

// Header and section flags (II.25.4.1, II.25.4.4, II.25.4.5)
inline constexpr uint8_t kFormatMask = 0x3;  ///< the header's format bits, tiny or fat
inline constexpr uint8_t kTinyFormat = 0x2;
inline constexpr uint8_t kFatFormat = 0x3;
inline constexpr uint16_t kFatFlagsMask = 0x0FFF;  ///< a fat header's flags; the top 4 bits are its size
inline constexpr uint16_t kMoreSects = 0x8;
inline constexpr uint16_t kInitLocals = 0x10;
inline constexpr uint8_t kSectKindMask = 0x3F;  ///< a data section's kind bits (EH table, OptIL table)
inline constexpr uint8_t kSectEhTable = 0x1;
inline constexpr uint8_t kSectOptIlTable = 0x2;
inline constexpr uint8_t kSectFatFormat = 0x40;
inline constexpr uint8_t kSectMoreSects = 0x80;
inline constexpr uint32_t kTinyMaxCodeSize = 63;
inline constexpr uint16_t kTinyMaxStack = 8;

enum class ClauseKind : uint8_t { Catch = 0, Filter = 1, Finally = 2, Fault = 4 };

const char* clause_kind_name(ClauseKind kind);

struct ExceptionClause {
  ClauseKind kind = ClauseKind::Catch;
  uint32_t try_offset = 0;
  uint32_t try_length = 0;
  uint32_t handler_offset = 0;
  uint32_t handler_length = 0;
  md::Token class_token;       ///< catch clauses
  uint32_t filter_offset = 0;  ///< filter clauses
};

/// How one EH section was stored, so an unedited body re-encodes to the same bytes.
struct EhSectionLayout {
  bool fat = false;
  uint32_t clause_count = 0;
  uint32_t data_size = 0;  ///< as stored; may exceed what the clauses need
  uint8_t kind = kSectEhTable;  ///< the low six bits of the Kind byte
  /// A section of another kind (OptILTable is reserved, II.25.4.5) holds no clauses: its bytes
  /// after the 4-byte header are kept so that it re-encodes as it was, never as an EH table.
  std::vector<uint8_t> other_data;
};

struct MethodBody {
  bool fat = false;
  uint16_t fat_flags = 0;      ///< the 12 flag bits of a fat header
  uint8_t header_size = 1;     ///< bytes: 1 (tiny) or 4 * size nibble (fat)
  uint16_t max_stack = kTinyMaxStack;
  uint32_t code_size = 0;
  md::Token local_sig_token;  ///< StandAloneSig, or none
  bool init_locals() const { return fat && (fat_flags & kInitLocals); }

  std::span<const uint8_t> code;
  uint64_t file_offset = 0;       ///< where the header starts
  uint64_t code_file_offset = 0;
  std::vector<ExceptionClause> clauses;
  std::vector<EhSectionLayout> sections;
  uint32_t total_size = 0;        ///< header through the end of the last EH section
};

/// Parses a body from `r`, which starts at the header and runs to the end of the section data.
Expected<MethodBody> parse_method_body(ByteReader r);
/// The same, into `body`, whose clause and section vectors keep their storage: for a loop over
/// many bodies (the instrumenter, the self-check). On an error `body` holds a partial parse.
Status parse_method_body_into(ByteReader r, MethodBody& body);
/// Only its header (tiny or fat): the fields up to the code, which `r` is left at; the code,
/// clauses and sections are not read.
Status parse_method_header(ByteReader& r, MethodBody& body);

}  // namespace cil::il
