// Myers' diff with the linear-space middle-snake split (E. Myers, "An O(ND) Difference Algorithm
// and Its Variations", 1986), the cost cut-off of GNU diff, and unified-diff formatting.
#include "cli/output/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

namespace cil::cli {

namespace {

using Index = std::ptrdiff_t;
constexpr Index kIndexMax = std::numeric_limits<Index>::max();

/// Where a subproblem is split, and whether each half must still be solved minimally.
struct Split {
  Index x = 0;
  Index y = 0;
  bool low_minimal = true;
  bool high_minimal = true;
};

/// A pending subproblem: old lines [x_begin, x_end) against new lines [y_begin, y_end).
struct Range {
  Index x_begin, x_end, y_begin, y_end;
  bool minimal;
};

/// Marks the lines of `a` that are deleted and the lines of `b` that are inserted. Works on line
/// ids (equal lines have equal ids) so that comparing two lines is one integer compare.
class Myers {
 public:
  Myers(std::span<const uint32_t> a, std::span<const uint32_t> b)
      : a_(a), b_(b), deleted_(a.size()), inserted_(b.size()),
        diagonals_(2 * (a.size() + b.size() + 3)) {
    Index n = static_cast<Index>(a.size() + b.size() + 3);
    forward_ = diagonals_.data() + static_cast<Index>(b.size()) + 1;
    backward_ = forward_ + n;
    // GNU diff's cut-off: about the square root of the problem size, and at least 4096 steps.
    too_expensive_ = 1;
    for (Index d = n; d != 0; d >>= 2) too_expensive_ <<= 1;
    too_expensive_ = std::max<Index>(4096, too_expensive_);
  }

  void run() {
    // An explicit stack instead of recursion: the depth of the splits is not bounded by the
    // input in the cut-off case.
    std::vector<Range> stack{{0, static_cast<Index>(a_.size()), 0, static_cast<Index>(b_.size()), false}};
    while (!stack.empty()) {
      Range r = stack.back();
      stack.pop_back();
      while (r.x_begin < r.x_end && r.y_begin < r.y_end && a_[r.x_begin] == b_[r.y_begin]) ++r.x_begin, ++r.y_begin;
      while (r.x_begin < r.x_end && r.y_begin < r.y_end && a_[r.x_end - 1] == b_[r.y_end - 1]) --r.x_end, --r.y_end;
      if (r.x_begin == r.x_end) {
        for (Index y = r.y_begin; y < r.y_end; ++y) inserted_[y] = 1;
      } else if (r.y_begin == r.y_end) {
        for (Index x = r.x_begin; x < r.x_end; ++x) deleted_[x] = 1;
      } else {
        Split s = middle_snake(r.x_begin, r.x_end, r.y_begin, r.y_end, r.minimal);
        stack.push_back({s.x, r.x_end, s.y, r.y_end, s.high_minimal});
        stack.push_back({r.x_begin, s.x, r.y_begin, s.y, s.low_minimal});
      }
    }
  }

  std::vector<unsigned char>& deleted() { return deleted_; }
  std::vector<unsigned char>& inserted() { return inserted_; }

 private:
  /// Searches forward from the top-left and backward from the bottom-right, one edit step at a
  /// time on every diagonal, until the two meet (the middle snake). Diagonal k holds x - y.
  Split middle_snake(Index xoff, Index xlim, Index yoff, Index ylim, bool minimal) {
    Index* fd = forward_;
    Index* bd = backward_;
    const Index dmin = xoff - ylim, dmax = xlim - yoff;
    const Index fmid = xoff - yoff, bmid = xlim - ylim;
    Index fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
    const bool odd = ((fmid - bmid) & 1) != 0;
    fd[fmid] = xoff;
    bd[bmid] = xlim;
    for (Index cost = 1;; ++cost) {
      if (fmin > dmin) fd[--fmin - 1] = -1;
      else ++fmin;
      if (fmax < dmax) fd[++fmax + 1] = -1;
      else --fmax;
      for (Index d = fmax; d >= fmin; d -= 2) {
        Index lo = fd[d - 1], hi = fd[d + 1];
        Index x = lo < hi ? hi : lo + 1;
        Index y = x - d;
        while (x < xlim && y < ylim && a_[x] == b_[y]) ++x, ++y;
        fd[d] = x;
        if (odd && bmin <= d && d <= bmax && bd[d] <= x) return {x, y, true, true};
      }
      if (bmin > dmin) bd[--bmin - 1] = kIndexMax;
      else ++bmin;
      if (bmax < dmax) bd[++bmax + 1] = kIndexMax;
      else --bmax;
      for (Index d = bmax; d >= bmin; d -= 2) {
        Index lo = bd[d - 1], hi = bd[d + 1];
        Index x = lo < hi ? lo : hi - 1;
        Index y = x - d;
        while (xoff < x && yoff < y && a_[x - 1] == b_[y - 1]) --x, --y;
        bd[d] = x;
        if (!odd && fmin <= d && d <= fmax && x <= fd[d]) return {x, y, true, true};
      }
      if (minimal || cost < too_expensive_) continue;
      // Too expensive: split at whichever search got furthest. The halves are solved on
      // their own, so the script stays correct, only perhaps not the shortest.
      Index fxy_best = -1, fx_best = xoff;
      for (Index d = fmax; d >= fmin; d -= 2) {
        Index x = std::min(fd[d], xlim), y = x - d;
        if (ylim < y) x = ylim + d, y = ylim;
        if (fxy_best < x + y) fxy_best = x + y, fx_best = x;
      }
      Index bxy_best = kIndexMax, bx_best = xlim;
      for (Index d = bmax; d >= bmin; d -= 2) {
        Index x = std::max(xoff, bd[d]), y = x - d;
        if (y < yoff) x = yoff + d, y = yoff;
        if (x + y < bxy_best) bxy_best = x + y, bx_best = x;
      }
      if ((xlim + ylim) - bxy_best < fxy_best - (xoff + yoff)) return {fx_best, fxy_best - fx_best, true, false};
      return {bx_best, bxy_best - bx_best, false, true};
    }
  }

  std::span<const uint32_t> a_, b_;
  std::vector<unsigned char> deleted_, inserted_;
  std::vector<Index> diagonals_;
  Index* forward_ = nullptr;
  Index* backward_ = nullptr;
  Index too_expensive_ = 4096;
};

/// The lines with a '-', '+' or ' ' prefix, and the marker for a missing final newline.
void append_line(char prefix, std::string_view line, std::string& out) {
  out += prefix;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

/// `start,count` of a hunk header as diff -u writes it: 1-based; an empty range names the line
/// before it, and a count of 1 is left out.
std::string hunk_range(size_t begin, size_t count) {
  if (count == 0) return fmt::format("{},0", begin);
  if (count == 1) return fmt::format("{}", begin + 1);
  return fmt::format("{},{}", begin + 1, count);
}

/// One change: old lines [a_begin, a_end) replaced by new lines [b_begin, b_end).
struct Change {
  size_t a_begin, a_end, b_begin, b_end;
};

}  // namespace

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::vector<Edit> diff_lines(std::span<const std::string_view> old_lines, std::span<const std::string_view> new_lines) {
  // Number the distinct lines, and count where each occurs.
  std::unordered_map<std::string_view, uint32_t> ids;
  ids.reserve(old_lines.size() + new_lines.size());
  std::vector<uint32_t> a_ids, b_ids;
  std::vector<uint8_t> in_a, in_b;
  auto intern = [&](std::string_view line) {
    auto [it, added] = ids.try_emplace(line, static_cast<uint32_t>(ids.size()));
    if (added) in_a.push_back(0), in_b.push_back(0);
    return it->second;
  };
  for (auto line : old_lines) a_ids.push_back(intern(line));
  for (auto line : new_lines) b_ids.push_back(intern(line));
  for (uint32_t id : a_ids) in_a[id] = 1;
  for (uint32_t id : b_ids) in_b[id] = 1;

  // A line that does not occur on the other side is certainly deleted or inserted: leave it out
  // of the search, which cannot put it in a common subsequence anyway. This keeps wholly
  // rewritten text fast.
  std::vector<uint32_t> a_kept, b_kept;
  std::vector<size_t> a_where, b_where;
  for (size_t i = 0; i < a_ids.size(); ++i)
    if (in_b[a_ids[i]]) a_kept.push_back(a_ids[i]), a_where.push_back(i);
  for (size_t j = 0; j < b_ids.size(); ++j)
    if (in_a[b_ids[j]]) b_kept.push_back(b_ids[j]), b_where.push_back(j);

  Myers myers(a_kept, b_kept);
  myers.run();
  std::vector<unsigned char> deleted(a_ids.size(), 1), inserted(b_ids.size(), 1);
  for (size_t k = 0; k < a_kept.size(); ++k) deleted[a_where[k]] = myers.deleted()[k];
  for (size_t k = 0; k < b_kept.size(); ++k) inserted[b_where[k]] = myers.inserted()[k];

  // The kept lines of both sides now pair up in order; turn the marks into runs.
  std::vector<Edit> edits;
  auto add = [&](EditKind kind, size_t count) {
    if (count == 0) return;
    if (!edits.empty() && edits.back().kind == kind) edits.back().count += count;
    else edits.push_back({kind, count});
  };
  size_t i = 0, j = 0;
  while (i < deleted.size() || j < inserted.size()) {
    size_t equal = 0;
    while (i < deleted.size() && j < inserted.size() && !deleted[i] && !inserted[j]) ++i, ++j, ++equal;
    add(EditKind::Equal, equal);
    size_t removed = 0, added = 0;
    while (i < deleted.size() && deleted[i]) ++i, ++removed;
    while (j < inserted.size() && inserted[j]) ++j, ++added;
    add(EditKind::Delete, removed);
    add(EditKind::Insert, added);
  }
  return edits;
}

std::string unified_diff(std::string_view old_text, std::string_view new_text, size_t context) {
  if (old_text == new_text) return {};
  std::vector<std::string_view> a = split_lines(old_text), b = split_lines(new_text);
  std::vector<Edit> edits = diff_lines(a, b);

  std::vector<Change> changes;
  size_t i = 0, j = 0;
  for (const Edit& e : edits) {
    if (e.kind == EditKind::Equal) {
      i += e.count, j += e.count;
      continue;
    }
    if (changes.empty() || changes.back().a_end != i || changes.back().b_end != j) changes.push_back({i, i, j, j});
    if (e.kind == EditKind::Delete) i += e.count, changes.back().a_end = i;
    else j += e.count, changes.back().b_end = j;
  }

  std::string out;
  for (size_t first = 0; first < changes.size();) {
    // A hunk takes every following change whose gap to the previous one the context of both
    // would cover.
    size_t last = first;
    while (last + 1 < changes.size() && changes[last + 1].a_begin - changes[last].a_end <= 2 * context) ++last;
    size_t lead = std::min(context, changes[first].a_begin);
    size_t trail = std::min(context, a.size() - changes[last].a_end);
    size_t a_begin = changes[first].a_begin - lead, b_begin = changes[first].b_begin - lead;
    size_t a_end = changes[last].a_end + trail, b_end = changes[last].b_end + trail;
    out += fmt::format("@@ -{} +{} @@\n", hunk_range(a_begin, a_end - a_begin), hunk_range(b_begin, b_end - b_begin));
    size_t at = a_begin;
    for (size_t c = first; c <= last; ++c) {
      for (; at < changes[c].a_begin; ++at) append_line(' ', a[at], out);
      for (size_t x = changes[c].a_begin; x < changes[c].a_end; ++x) append_line('-', a[x], out);
      for (size_t y = changes[c].b_begin; y < changes[c].b_end; ++y) append_line('+', b[y], out);
      at = changes[c].a_end;
    }
    for (; at < a_end; ++at) append_line(' ', a[at], out);
    first = last + 1;
  }
  return out;
}

}  // namespace cil::cli
