// Hits files merged per build and folded into lines, branches and methods.
#include "cli/results/coverage_data.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "cli/output/json_writer.h"
#include "instrument/runtime_contract.h"

namespace cil::cli {

namespace {

/// A line range longer than this in one sequence point is malformed (no source has it).
constexpr uint32_t kMaxLinesPerPoint = 100'000;
/// Lines that all points of one module may span together, so a hostile file cannot make the
/// fold run for hours (a real module spans about one line per point).
constexpr uint64_t kMaxSpannedLines = 64'000'000;

Error probe_error(const std::string& file, size_t index, std::string message) {
  return make_error(ErrorKind::Format, file, fmt::format("hits file: {}[{}]: {}", contract::kCountsKeyMethods, index, message));
}

/// The first `count` tab-separated fields; the last takes the rest of the text.
bool split(std::string_view text, size_t count, std::vector<std::string_view>& out) {
  out.clear();
  for (size_t i = 0; i + 1 < count; ++i) {
    size_t tab = text.find(contract::kHitsSeparator);
    if (tab == std::string_view::npos) return false;
    out.push_back(text.substr(0, tab));
    text.remove_prefix(tab + 1);
  }
  out.push_back(text);
  return true;
}

bool number(std::string_view text, uint32_t& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

/// Digits of the mvid that name one of several builds of an assembly in the report.
constexpr size_t kBuildDigits = 8;

uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

bool MethodCoverage::covered() const {
  if (!has_lines()) return entries > 0;
  auto hit = [](const auto& l) { return l.second > 0; };
  return std::any_of(lines.begin(), lines.end(), hit) ||
         std::any_of(elsewhere.begin(), elsewhere.end(), [&](const auto& f) { return std::any_of(f.second.lines.begin(), f.second.lines.end(), hit); });
}

Expected<std::string> HitsMerger::add(const std::string& file, CountFile hits) {
  auto key = std::pair(hits.assembly, hits.mvid);
  auto found = builds_.find(key);
  if (found == builds_.end()) {
    // Another build of the assembly already here: reported apart, said once per build.
    auto other = builds_.lower_bound(std::pair(hits.assembly, std::string()));
    std::string warning;
    if (other != builds_.end() && other->first.first == hits.assembly)
      warning = fmt::format("assembly {} is mvid {} here but {} in {}: hits of different builds are reported apart", hits.assembly,
                            hits.mvid, other->second.mvid, other->second.first_file);
    Build b{hits.mvid, file, 1, std::move(hits)};
    builds_.emplace(std::move(key), std::move(b));
    return warning;
  }
  Build& b = found->second;
  bool same = b.probes.methods.size() == hits.methods.size();
  for (size_t i = 0; same && i < hits.methods.size(); ++i)
    same = b.probes.methods[i].token == hits.methods[i].token && b.probes.methods[i].name == hits.methods[i].name;
  if (!same)
    return make_error(ErrorKind::Unsupported, "",
                      fmt::format("assembly {} (mvid {}) has other probes than in {} (instrumented with other options): "
                                  "hits of different instrumentations cannot be merged",
                                  hits.assembly, hits.mvid, b.first_file));
  for (size_t i = 0; i < hits.methods.size(); ++i)
    b.probes.methods[i].count = saturating_add(b.probes.methods[i].count, hits.methods[i].count);
  ++b.files;
  return std::string();
}

Expected<std::vector<ModuleCoverage>> HitsMerger::result() const {
  std::vector<ModuleCoverage> out;
  std::vector<std::string_view> f;
  // The builds of each assembly, told apart by their mvids' first digits unless two share them.
  std::map<std::string, std::vector<std::string>> short_ids;
  for (const auto& [key, b] : builds_) short_ids[key.first].push_back(b.mvid.substr(0, kBuildDigits));
  auto build_of = [&](const std::string& assembly, const std::string& mvid) -> std::string {
    std::vector<std::string> ids = short_ids[assembly];
    if (ids.size() < 2) return "";
    std::sort(ids.begin(), ids.end());
    return std::adjacent_find(ids.begin(), ids.end()) == ids.end() ? mvid.substr(0, kBuildDigits) : mvid;
  };
  for (const auto& [key, b] : builds_) {
    const std::string& assembly = key.first;
    ModuleCoverage mc;
    mc.assembly = assembly;
    mc.mvid = b.mvid;
    mc.build = build_of(assembly, b.mvid);
    mc.files_merged = b.files;
    std::map<std::string, std::string> method_key;  // token text -> name, to key methods by token
    MethodCoverage* method = nullptr;
    std::string document;
    std::map<std::string, MethodCoverage> by_token;
    struct LineProbe {
      MethodCoverage* method;
      std::pair<const std::string, FileCoverage>* file;
      uint32_t start, end;
      uint64_t hits;
    };
    std::vector<LineProbe> line_probes;
    uint64_t spanned = 0;
    // A body's branch outcomes, listed in IL order (offset, then path) whichever probe described
    // them: an outcome that its target's probe carries comes where the target is.
    struct PendingBranch {
      BranchHits hits;
      std::string document;
    };
    std::vector<PendingBranch> pending;
    auto flush_branches = [&]() {
      std::stable_sort(pending.begin(), pending.end(), [](const PendingBranch& x, const PendingBranch& y) {
        return std::pair(x.hits.offset, x.hits.path) < std::pair(y.hits.offset, y.hits.path);
      });
      for (const PendingBranch& h : pending) {
        mc.files[h.document].branches[h.hits.line].push_back(h.hits);
        if (method->file.empty() || h.document == method->file) method->branches.push_back(h.hits);
        else method->elsewhere[h.document].branches[h.hits.line].push_back(h.hits);
      }
      pending.clear();
    };
    for (size_t i = 0; i < b.probes.methods.size(); ++i) {
      const MethodCount& p = b.probes.methods[i];
      // One probe may describe several entries, each with its count (runtime_contract.h).
      std::string_view entries = p.name;
      for (size_t cut = 0; cut != std::string_view::npos;) {
        cut = entries.find(contract::kHitsEntrySeparator);
        std::string_view name = entries.substr(0, cut);
        if (cut != std::string_view::npos) entries.remove_prefix(cut + 1);
        if (name.size() < 2 || name[1] != contract::kHitsSeparator) return probe_error(b.first_file, i, "not a probe description");
        char kind = name[0];
        if (kind == contract::kHitsMethod) {
          if (method) flush_branches();
          if (!split(name.substr(2), 2, f)) return probe_error(b.first_file, i, "a method entry needs a token and a name");
          MethodCoverage& m = by_token[std::string(f[0])];
          if (m.name.empty()) m.name = f[1];
          m.entries = saturating_add(m.entries, p.count);
          method = &m;
          document.clear();
          continue;
        }
        if (!method) return probe_error(b.first_file, i, "a probe before the first method entry");
        if (kind == contract::kHitsLine) {
          uint32_t start = 0, end = 0;
          if (!split(name.substr(2), 3, f) || !number(f[0], start) || !number(f[1], end) || end < start ||
              end - start > kMaxLinesPerPoint)
            return probe_error(b.first_file, i, "a line probe needs a start line, an end line and a document");
          if (!f[2].empty()) document = f[2];
          if (document.empty()) return probe_error(b.first_file, i, "a line probe without a document");
          if (method->file.empty()) method->file = document;
          spanned += end - start + 1;
          if (spanned > kMaxSpannedLines)
            return make_error(ErrorKind::Limit, b.first_file,
                              fmt::format("hits file: {}[{}]: the line probes span more than {} lines", contract::kCountsKeyMethods, i,
                                          kMaxSpannedLines));
          line_probes.push_back({method, &*mc.files.try_emplace(document).first, start, end, p.count});
        } else if (kind == contract::kHitsBranch) {
          BranchHits h;
          if (!split(name.substr(2), 4, f) || !number(f[0], h.line) || !number(f[1], h.offset) || !number(f[2], h.path))
            return probe_error(b.first_file, i, "a branch probe needs a line, an offset, a path and a document");
          if (!f[3].empty()) document = f[3];
          if (document.empty()) return probe_error(b.first_file, i, "a branch probe without a document");
          h.hits = p.count;
          pending.push_back({h, document});
        } else {
          return probe_error(b.first_file, i, fmt::format("unknown probe kind '{}'", kind));
        }
      }
    }
    if (method) flush_branches();
    // A point over several lines gives its hits only to the lines that no point strictly inside
    // it covers (coverlet's rule: a switch expression's point spans its arms, which have their
    // own). Those lines are the inner point's alone: a multi-line lambda's lines belong to the
    // lambda, not also (with no hits) to the statement around it, so each line has one method.
    // Points are sorted by document and start, so the ones inside are a short run after it.
    std::vector<size_t> order(line_probes.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const LineProbe &x = line_probes[a], &y = line_probes[b];
      return x.file != y.file ? x.file->first < y.file->first : x.start < y.start;
    });
    std::vector<uint32_t> nested;
    for (size_t k = 0; k < order.size(); ++k) {
      const LineProbe& h = line_probes[order[k]];
      nested.clear();
      if (h.end > h.start)
        for (size_t j = k + 1; j < order.size() && line_probes[order[j]].file == h.file && line_probes[order[j]].start < h.end; ++j) {
          const LineProbe& c = line_probes[order[j]];
          if (c.start > h.start && c.end < h.end)
            for (uint32_t line = c.start; line <= c.end; ++line) nested.push_back(line);
        }
      for (uint32_t line = h.start; line <= h.end; ++line) {
        if (std::find(nested.begin(), nested.end(), line) != nested.end()) continue;
        auto& file_line = h.file->second.lines[line];
        file_line = saturating_add(file_line, h.hits);
        auto& method_line = h.file->first == h.method->file ? h.method->lines[line] : h.method->elsewhere[h.file->first].lines[line];
        method_line = saturating_add(method_line, h.hits);
      }
    }
    bool any_lines = false;
    for (auto& [token, m] : by_token) any_lines |= m.has_lines();
    for (auto& [token, m] : by_token) {
      std::string key = m.name;
      if (mc.methods.count(key)) key += " " + token;  // overloads keep apart
      if (any_lines && !m.has_lines()) {
        mc.without_lines.push_back(key);
        continue;
      }
      mc.method += Ratio{m.covered() ? 1u : 0u, 1};
      mc.methods.emplace(key, std::move(m));
    }
    std::sort(mc.without_lines.begin(), mc.without_lines.end());
    for (const auto& [doc, file] : mc.files) {
      for (const auto& [line, hits] : file.lines) mc.line += Ratio{hits ? 1u : 0u, 1};
      for (const auto& [line, list] : file.branches)
        for (const BranchHits& h : list) mc.branch += Ratio{h.hits ? 1u : 0u, 1};
    }
    out.push_back(std::move(mc));
  }
  return out;
}

void map_documents(std::vector<ModuleCoverage>& modules, const PathMap& map) {
  if (map.empty()) return;
  for (ModuleCoverage& m : modules) {
    std::map<std::string, FileCoverage> files;
    for (auto& [doc, file] : m.files) {
      FileCoverage& into = files[map.apply(doc)];
      for (const auto& [line, hits] : file.lines) into.lines[line] = saturating_add(into.lines[line], hits);
      for (auto& [line, list] : file.branches) {
        auto& branches = into.branches[line];
        branches.insert(branches.end(), list.begin(), list.end());
      }
    }
    m.files = std::move(files);
    for (auto& [key, method] : m.methods) {
      if (!method.file.empty()) method.file = map.apply(method.file);
      std::map<std::string, FileCoverage> elsewhere;
      for (auto& [doc, file] : method.elsewhere) elsewhere[map.apply(doc)] = std::move(file);
      method.elsewhere = std::move(elsewhere);
    }
    m.line = m.branch = Ratio{};
    for (const auto& [doc, file] : m.files) {
      for (const auto& [line, hits] : file.lines) m.line += Ratio{hits ? 1u : 0u, 1};
      for (const auto& [line, list] : file.branches)
        for (const BranchHits& h : list) m.branch += Ratio{h.hits ? 1u : 0u, 1};
    }
  }
}

CoverageTotals totals(const std::vector<ModuleCoverage>& modules) {
  CoverageTotals t;
  for (const ModuleCoverage& m : modules) {
    t.line += m.line;
    t.branch += m.branch;
    t.method += m.method;
  }
  return t;
}

}  // namespace cil::cli
