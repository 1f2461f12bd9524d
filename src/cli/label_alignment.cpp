// Aligning two normalized listings and renaming the new one's labels after the old one's.
#include "cli/label_alignment.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "cli/line_diff.h"
#include "il/opcode.h"

namespace cil::cli {

namespace {

/// A label token ("L12") inside a line.
struct Ref {
  size_t pos = 0;
  size_t len = 0;
};

/// One line of a listing, as far as labels go. Instruction lines are
/// "  " + label-or-nothing padded to 5 + " " + mnemonic [+ " " + operand]; clause lines are
/// "  .try A to B (catch T | filter E | finally | fault) handler C to D".
struct Line {
  std::string_view text;
  bool instruction = false;
  Ref def;             ///< the label defined on this line (len 0: none)
  size_t content = 0;  ///< instruction lines: where the mnemonic starts
  std::vector<Ref> refs;
  std::string masked;  ///< the line with its labels left out, for aligning
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '.'; }

bool is_label(std::string_view s) {
  return s.size() >= 2 && s[0] == 'L' && std::all_of(s.begin() + 1, s.end(), is_digit);
}

/// Mnemonics whose operand is a label or a list of labels, from the opcode table.
const std::set<std::string_view>& branch_mnemonics() {
  static const std::set<std::string_view> names = [] {
    std::set<std::string_view> out;
    for (const auto& info : il::all_ops())
      if (il::is_branch_operand(info.operand) || info.operand == il::Operand::Switch) out.insert(info.name);
    return out;
  }();
  return names;
}

/// The label tokens (whole words) in text[from, to).
void find_labels(std::string_view text, size_t from, size_t to, std::vector<Ref>& refs) {
  size_t i = from;
  while (i < to) {
    if (!is_word(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < to && is_word(text[i])) ++i;
    if (is_label(text.substr(start, i - start))) refs.push_back({start, i - start});
  }
}

/// The end of the label token starting at `at`, after adding it to `refs`; `at` itself when
/// there is none.
size_t label_at(std::string_view text, size_t at, std::vector<Ref>& refs) {
  size_t end = at;
  while (end < text.size() && is_word(text[end])) ++end;
  if (end == at || !is_label(text.substr(at, end - at))) return at;
  refs.push_back({at, end - at});
  return end;
}

Line parse(std::string_view text) {
  Line line;
  line.text = text;
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  if (text.substr(0, 7) == "  .try ") {
    // "A to B" first, then "filter E" when it follows at once; "handler C to D" is the end of the
    // line (found from the back: a catch type's name may hold anything).
    size_t at = label_at(text, 7, line.refs);
    if (text.substr(at, 4) == " to ") {
      at = label_at(text, at + 4, line.refs);
      if (text.substr(at, 8) == " filter ") label_at(text, at + 8, line.refs);
    }
    size_t handler = text.rfind(" handler ");
    if (handler != std::string_view::npos && handler >= at) {
      size_t c = label_at(text, handler + 9, line.refs);
      if (text.substr(c, 4) == " to ") label_at(text, c + 4, line.refs);
    }
  } else if (text.size() > 3 && text.substr(0, 2) == "  " && (text[2] == ' ' || text[2] == 'L')) {
    size_t at = 2;
    if (text[2] == 'L') {
      size_t colon = 3;
      while (colon < end && is_digit(text[colon])) ++colon;
      if (colon == 3 || colon >= end || text[colon] != ':') return line;  // not a label: not an instruction line
      line.def = {2, colon - 2};
      at = colon + 1;
    }
    while (at < end && text[at] == ' ') ++at;
    if (at >= end) return line;
    line.instruction = true;
    line.content = at;
    size_t mnemonic_end = at;
    while (mnemonic_end < end && text[mnemonic_end] != ' ') ++mnemonic_end;
    if (branch_mnemonics().count(text.substr(at, mnemonic_end - at))) find_labels(text, mnemonic_end, end, line.refs);
  }
  std::sort(line.refs.begin(), line.refs.end(), [](const Ref& a, const Ref& b) { return a.pos < b.pos; });
  // The masked form: the instruction without its label definition, each reference as "L?".
  size_t from = line.instruction ? line.content : 0;
  for (const Ref& r : line.refs) {
    line.masked.append(text.substr(from, r.pos - from));
    line.masked += "L?";
    from = r.pos + r.len;
  }
  line.masked.append(text.substr(from));
  return line;
}

std::vector<Line> parse_all(std::string_view text) {
  std::vector<Line> lines;
  for (std::string_view l : split_lines(text)) lines.push_back(parse(l));
  return lines;
}

uint64_t label_number(std::string_view label) {
  uint64_t n = 0;
  for (char c : label.substr(1)) n = std::min<uint64_t>(n * 10 + static_cast<uint64_t>(c - '0'), uint64_t{1} << 40);
  return n;
}

}  // namespace

std::string align_labels(std::string_view old_text, std::string_view new_text) {
  std::vector<Line> old_lines = parse_all(old_text);
  std::vector<Line> new_lines = parse_all(new_text);
  std::vector<std::string_view> old_keys, new_keys;
  for (const auto& l : old_lines) old_keys.push_back(l.masked);
  for (const auto& l : new_lines) new_keys.push_back(l.masked);

  std::map<std::string_view, std::string> rename;  // new label -> its name
  std::set<std::string_view> taken;                 // old labels already given to a new one
  auto bind = [&](std::string_view new_label, std::string_view old_label) {
    if (rename.count(new_label) || taken.count(old_label)) return;
    rename[new_label] = std::string(old_label);
    taken.insert(old_label);
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
      if (o.def.len && n.def.len) bind(n.text.substr(n.def.pos, n.def.len), o.text.substr(o.def.pos, o.def.len));
      for (size_t r = 0; r < std::min(o.refs.size(), n.refs.size()); ++r)
        bind(n.text.substr(n.refs[r].pos, n.refs[r].len), o.text.substr(o.refs[r].pos, o.refs[r].len));
    }
  }

  // Labels of the new listing with no old counterpart: numbers no old label has.
  uint64_t next = 1;
  for (const auto& l : old_lines) {
    if (l.def.len) next = std::max(next, label_number(l.text.substr(l.def.pos, l.def.len)) + 1);
    for (const Ref& r : l.refs) next = std::max(next, label_number(l.text.substr(r.pos, r.len)) + 1);
  }
  auto name_of = [&](std::string_view label) -> const std::string& {
    auto it = rename.find(label);
    if (it == rename.end()) it = rename.emplace(label, fmt::format("L{}", next++)).first;
    return it->second;
  };

  std::string out;
  out.reserve(new_text.size() + 64);
  for (const Line& l : new_lines) {
    size_t from = 0;
    if (l.instruction) {
      std::string prefix = l.def.len ? name_of(l.text.substr(l.def.pos, l.def.len)) + ":" : "";
      out += fmt::format("  {:<5} ", prefix);
      from = l.content;
    }
    for (const Ref& r : l.refs) {
      out.append(l.text.substr(from, r.pos - from));
      out += name_of(l.text.substr(r.pos, r.len));
      from = r.pos + r.len;
    }
    out.append(l.text.substr(from));
  }
  return out;
}

}  // namespace cil::cli
