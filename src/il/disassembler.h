// The text listing of a method body, close to ildasm: header, .maxstack, .locals, instructions
// with resolved operands, and exception clauses.
#pragma once

#include <span>
#include <string>

#include "il/instruction.h"
#include "il/method_body.h"
#include "metadata/printer.h"

namespace cil::il {

/// A source line to note in a listing: `text` (such as "Program.cs:28") before the instruction
/// at `offset`.
struct SourceLine {
  uint32_t offset = 0;
  std::string text;
};

struct ListingOptions {
  /// Print branch targets as labels L1, L2... (numbered in offset order) and omit instruction
  /// offsets and RVA, so inserting code does not change every line. Used by `diff`.
  bool normalize_labels = false;
  /// Source lines (a PDB's sequence points), ascending in offset, each printed as a comment
  /// before the first instruction at or after its offset.
  std::span<const SourceLine> lines;
};

/// Appends the listing of MethodDef `rid` to `out`. `body`/`code` may be null when the body
/// could not be read; `error` then says why.
void list_method(md::Printer& printer, uint32_t rid, uint32_t rva, const MethodBody* body, const DecodedCode* code,
                 const std::string& error, const ListingOptions& options, std::string& out);

/// Formats a floating-point operand: shortest round-trip text, or raw bytes for NaN/infinity.
std::string format_real(const Instruction& in);

}  // namespace cil::il
