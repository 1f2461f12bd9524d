// Line diff (Myers' O(ND) algorithm, linear space) and unified-diff text; generic text with no
// metadata knowledge, it lives in src/cli because only the `diff` command prints it.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cil::cli {

/// Splits `text` into lines, each keeping its '\n' terminator; the last line has none when the
/// text does not end with one. Empty text has no lines.
std::vector<std::string_view> split_lines(std::string_view text);

enum class EditKind : unsigned char { Equal, Delete, Insert };

/// A run of `count` lines that are kept, deleted from the old sequence or inserted from the new.
struct Edit {
  EditKind kind;
  size_t count;
  bool operator==(const Edit&) const = default;
};

/// The edit script turning `old_lines` into `new_lines`, as maximal runs; within a change the
/// deletions come before the insertions. It is minimal (shortest) unless a subproblem is too
/// expensive (edit distance in the thousands): there the search stops early and splits at its
/// most advanced point, as GNU diff does, so the worst case stays near O((N+M)^1.5). Either way
/// the script is correct: applying it to the old lines gives the new lines.
std::vector<Edit> diff_lines(std::span<const std::string_view> old_lines, std::span<const std::string_view> new_lines);

/// The hunks of `diff -u` (`@@ -a,b +c,d @@` and the lines with ' ', '-', '+'), without the
/// `---`/`+++` header, with `context` lines of context; empty when the texts are equal. A last
/// line without '\n' is followed by `\ No newline at end of file`.
std::string unified_diff(std::string_view old_text, std::string_view new_text, size_t context = 3);

}  // namespace cil::cli
