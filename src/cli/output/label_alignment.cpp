// Aligning two listings and numbering the new one's labels after the old one's.
#include "cli/output/label_alignment.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli/output/line_diff.h"

namespace cil::cli {

namespace {

/// One line of a listing as diff shows it (ListingStyle::Diff), as far as alignment goes: a key
/// equal for two lines exactly when their texts are equal with labels masked, the label an
/// instruction defines, and the labels the line refers to, in the order the line shows them.
struct Line {
  std::string key;
  bool defines = false;
  int64_t offset = 0;  ///< the instruction's, when it defines a label
  std::vector<int64_t> refs;
};

/// The lines of print_listing's Diff style, in order. Kinds are kept apart by their first
/// character, so a header line never aligns with an instruction.
std::vector<Line> lines_of(const il::MethodListing& m) {
  std::vector<Line> lines;
  auto add = [&](std::string key) -> Line& {
    lines.emplace_back().key = std::move(key);
    return lines.back();
  };
  std::string_view header = m.header;
  for (size_t from = 0;;) {
    size_t end = header.find('\n', from);
    add("h" + std::string(header.substr(from, end - from)));
    if (end == std::string_view::npos) break;
    from = end + 1;
  }
  add("{");
  if (!m.error.empty()) {
    add("e" + m.error);
    add("}");
    return lines;
  }
  add(fmt::format("c{} {}", m.code_size, m.fat));
  add(fmt::format("m{}", m.max_stack));
  if (!m.locals.empty()) add("l" + m.locals);
  std::vector<int64_t> labels = m.label_offsets();
  for (const auto& in : m.instructions) {
    Line& line = add(fmt::format("i{}\n{}\n{}", in.info().name, in.operand, in.target_count));
    line.defines = std::binary_search(labels.begin(), labels.end(), int64_t{in.offset});
    line.offset = in.offset;
    auto targets = m.targets_of(in);
    line.refs.assign(targets.begin(), targets.end());
  }
  for (const auto& c : m.clauses) {
    Line& line = add(fmt::format("t{}\n{}", il::clause_kind_name(c.kind), c.catch_type));
    line.refs = {c.try_offset, c.try_end()};
    if (c.kind == il::ClauseKind::Filter) line.refs.push_back(c.filter_offset);
    line.refs.push_back(c.handler_offset);
    line.refs.push_back(c.handler_end());
  }
  add("}");
  return lines;
}

}  // namespace

LabelNames align_labels(const il::MethodListing& old_listing, const il::MethodListing& new_listing) {
  std::vector<Line> old_lines = lines_of(old_listing);
  std::vector<Line> new_lines = lines_of(new_listing);
  std::vector<std::string_view> old_keys, new_keys;
  for (const auto& l : old_lines) old_keys.push_back(l.key);
  for (const auto& l : new_lines) new_keys.push_back(l.key);
  LabelNames old_names = LabelNames::numbered(old_listing);

  std::map<int64_t, uint32_t> numbers;  // new label offset -> its number
  std::set<uint32_t> taken;             // old numbers already given to a new label
  auto bind = [&](int64_t new_offset, int64_t old_offset) {
    uint32_t old_number = old_names.number(old_offset);
    if (old_number == 0 || numbers.count(new_offset) || taken.count(old_number)) return;
    numbers[new_offset] = old_number;
    taken.insert(old_number);
  };
  size_t i = 0, j = 0;
  for (const Edit& e : diff_lines(old_keys, new_keys)) {
    if (e.kind == EditKind::Delete) {
      i += e.count;
      continue;
    }
    if (e.kind == EditKind::Insert) {
      j += e.count;
      continue;
    }
    for (size_t k = 0; k < e.count; ++k, ++i, ++j) {
      const Line& o = old_lines[i];
      const Line& n = new_lines[j];
      if (o.defines && n.defines) bind(n.offset, o.offset);
      for (size_t r = 0; r < std::min(o.refs.size(), n.refs.size()); ++r) bind(n.refs[r], o.refs[r]);
    }
  }

  // Labels of the new listing with no old counterpart: numbers no old label has.
  uint32_t next = static_cast<uint32_t>(old_listing.label_offsets().size()) + 1;
  auto name = [&](int64_t offset) {
    if (!numbers.count(offset)) numbers[offset] = next++;
  };
  for (const Line& l : new_lines) {
    if (l.defines) name(l.offset);
    for (int64_t r : l.refs) name(r);
  }
  return LabelNames::with_numbers({numbers.begin(), numbers.end()});
}

}  // namespace cil::cli
