// Label names that survive an edit: in a new listing, each label takes the number of the old
// label at the instruction it aligns with, so that a label added near the start of a method (wrap
// mode's try at IL_0000) does not renumber, and so show as changed, every branch after it. Works
// on listings as values: instructions by opcode and operand, their targets as offsets.
#pragma once

#include "cli/output/listing_printer.h"
#include "il/disassembler.h"

namespace cil::cli {

/// Label numbers for `new_listing`, after those of `old_listing` (which keeps its own, numbered
/// in offset order). The two are aligned line by line as diff shows them (a shortest line diff),
/// instructions by opcode and operand and clauses by kind and catch type, with their labels left
/// out; a label defined on, or referred to in the same place by, aligned lines takes the old
/// number. Labels with no old counterpart get numbers past the old listing's highest, in the
/// order the new listing shows them. The renaming is one to one, so the result lists the same
/// code.
LabelNames align_labels(const il::MethodListing& old_listing, const il::MethodListing& new_listing);

}  // namespace cil::cli
