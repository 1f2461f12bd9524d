// The one walk over a method listing, for dump (text or JSON) and diff (text with labels): the
// lines ildasm would show, or the same facts as JSON members.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/output/scoped_printer.h"
#include "il/disassembler.h"
#include "metadata/portable_pdb.h"

namespace cil::cli {

/// How a listing names the offsets its branches and clauses refer to.
class LabelNames {
 public:
  /// IL_0000-style offsets, as dump shows them.
  static LabelNames offsets() { return LabelNames(); }
  /// L1, L2... in offset order, as diff shows a listing: inserting code renames only the labels
  /// after it, not every offset.
  static LabelNames numbered(const il::MethodListing& listing);
  /// Given numbers for the listing's label offsets (diff: after another listing's labels); an
  /// offset given none prints as L?offset.
  static LabelNames with_numbers(std::vector<std::pair<int64_t, uint32_t>> numbers);

  /// The name of `offset`.
  std::string operator()(int64_t offset) const;
  /// Labels (not offsets): the number of `offset`, 0 when it has none.
  uint32_t number(int64_t offset) const;
  bool are_labels() const { return labels_; }

 private:
  LabelNames() = default;
  bool labels_ = false;
  std::vector<std::pair<int64_t, uint32_t>> numbers_;  ///< sorted by offset
};

enum class ListingStyle {
  Dump,  ///< every fact: token and name line, RVA, locals token; offsets as IL_xxxx
  Diff,  ///< what stays put when code moves: no token/name line (the diff header names both),
         ///< no RVA or locals token; labels, defined where an instruction is a target
};

/// The listing of `method` as `m` has it; a body that cannot be read or decoded gives a
/// listing with only its `error`.
il::MethodListing read_listing(const md::Module& m, md::Printer& printer, md::MethodDefId method);

/// A method's source lines from a PDB, for dump.
struct ListingSource {
  const md::PortablePdb* pdb = nullptr;  ///< null: no PDB, nothing shown
  Expected<md::MethodSequencePoints> points = md::MethodSequencePoints{};
  /// The points of `method` in `pdb` (none when `pdb` is null).
  static ListingSource of(const md::PortablePdb* pdb, md::MethodDefId method);
};

/// One method as an element of the current list: in text, its lines (after an empty line in
/// the Dump style); in JSON, an object with its body facts, instructions and clauses. With a
/// `source`, the text notes each sequence point as a comment before the first instruction at or
/// after its offset (ildasm's `// Program.cs:28`, `// hidden`), and JSON lists the points as
/// `sequencePoints` (or why they cannot be read, as `sequencePointsError`).
void print_listing(ScopedPrinter& p, const il::MethodListing& listing, const LabelNames& labels, ListingStyle style,
                   const ListingSource& source = {});

/// The Diff-style text of one method, as diff compares and shows it.
std::string diff_text(const il::MethodListing& listing, const LabelNames& labels);

}  // namespace cil::cli
