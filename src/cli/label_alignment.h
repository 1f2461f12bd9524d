// Label names that survive an edit: in a new listing (labels L1, L2... numbered by order), each
// label takes the name of the old label at the instruction it aligns with, so that a label added
// near the start of a method (wrap mode's try at IL_0000) does not renumber, and so show as changed,
// every branch after it. Works on the text of `dump`'s normalized listings.
#pragma once

#include <string>
#include <string_view>

namespace cil::cli {

/// `new_text` with its labels renamed after those of `old_text`: instruction lines and clause
/// lines are aligned with their labels masked (a shortest line diff); labels defined on, or
/// referred to in the same place by, aligned lines take the old name. Labels with no old
/// counterpart get numbers past the old listing's highest. The renaming is one to one, so the
/// result lists the same code.
std::string align_labels(std::string_view old_text, std::string_view new_text);

}  // namespace cil::cli
