// The coverage report's formats: Cobertura XML (what GitLab, Azure DevOps, Codecov and
// ReportGenerator read), LCOV, JSON and the console table.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "cli/results/coverage_data.h"
#include "cli/output/json_writer.h"
#include "metadata/printer.h"
#include "metadata/text_encoding.h"

namespace cil::cli {

namespace {

std::string xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters are not allowed in XML 1.0 (tab, newline and return are).
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += '?';
        else out += c;
    }
  }
  return out;
}

std::string rate(const Ratio& r) {
  return fmt::format("{:.4f}", r.total ? static_cast<double>(r.covered) / static_cast<double>(r.total) : 1.0);
}

/// Ns.Type::Method -> (Ns.Type, Method).
std::pair<std::string_view, std::string_view> split_name(std::string_view name) {
  size_t sep = name.find("::");
  if (sep == std::string_view::npos) return {"", name};
  return {name.substr(0, sep), name.substr(sep + 2)};
}

/// Ns.Outer/<>c, Ns.Outer/<>c__DisplayClass0_0, Ns.Outer/<M>d__1 -> Ns.Outer: the classes the
/// compiler makes for lambdas, closures and state machines are folded into the class that
/// declares them, as coverlet does (ReportGenerator merges classes by name and keeps one
/// value per line, so a line listed under two classes shows as the last one's).
std::string_view declaring_class(std::string_view type) {
  size_t generated = type.find("/<");
  return generated == std::string_view::npos ? type : type.substr(0, generated);
}

/// LCOV's test name: genhtml accepts only word characters and rewrites the rest with a warning.
std::string lcov_test_name(std::string_view assembly) {
  std::string out(assembly);
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return out;
}

/// LCOV's function name: genhtml's FN and FNDA end the name at a comma (lcov 2 reads one more
/// field), so `IDictionary<K,V>.Add` would be cut and merged with its neighbours.
std::string lcov_function_name(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), ',', ';');
  return out;
}

std::map<uint32_t, Ratio> branches_by_line(const std::vector<BranchHits>& branches) {
  std::map<uint32_t, Ratio> out;
  for (const BranchHits& b : branches) out[b.line] += Ratio{b.hits ? 1u : 0u, 1};
  return out;
}

void cobertura_line(std::string& out, std::string_view indent, uint32_t line, uint64_t hits, const std::map<uint32_t, Ratio>& branches) {
  auto b = branches.find(line);
  if (b == branches.end()) {
    out += fmt::format("{}<line number=\"{}\" hits=\"{}\" branch=\"False\" />\n", indent, line, hits);
    return;
  }
  auto percent = static_cast<unsigned>(b->second.percent());
  out += fmt::format("{}<line number=\"{}\" hits=\"{}\" branch=\"True\" condition-coverage=\"{}% ({}/{})\">\n", indent, line, hits,
                     percent, b->second.covered, b->second.total);
  out += fmt::format("{}  <conditions>\n{}    <condition number=\"0\" type=\"jump\" coverage=\"{}%\" />\n{}  </conditions>\n", indent,
                     indent, percent, indent);
  out += fmt::format("{}</line>\n", indent);
}

std::string class_file_name(const std::string& path, const std::optional<std::string>& source_root) {
  if (!source_root) return path;
  return relative_to(path, *source_root).value_or(path);
}

Ratio ratio_of(const std::map<uint32_t, uint64_t>& lines) {
  Ratio r;
  for (const auto& [line, hits] : lines) r += Ratio{hits ? 1u : 0u, 1};
  return r;
}

Ratio ratio_of(const std::vector<BranchHits>& branches) {
  Ratio r;
  for (const BranchHits& b : branches) r += Ratio{b.hits ? 1u : 0u, 1};
  return r;
}

/// A method's lines and branches in every document it has them in.
Ratio line_ratio(const MethodCoverage& method) {
  Ratio r = ratio_of(method.lines);
  for (const auto& [doc, file] : method.elsewhere) r += ratio_of(file.lines);
  return r;
}

Ratio branch_ratio(const MethodCoverage& method) {
  Ratio r = ratio_of(method.branches);
  for (const auto& [doc, file] : method.elsewhere)
    for (const auto& [line, list] : file.branches) r += ratio_of(list);
  return r;
}

std::string ratio_json(const Ratio& r) {
  return fmt::format("{{\"covered\": {}, \"total\": {}, \"percent\": {:.2f}}}", r.covered, r.total, r.percent());
}

}  // namespace

std::string cobertura_xml(const std::vector<ModuleCoverage>& modules, int64_t timestamp,
                          const std::optional<std::string>& source_root) {
  CoverageTotals t = totals(modules);
  std::string out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n";
  out += fmt::format(
      "<coverage line-rate=\"{}\" branch-rate=\"{}\" version=\"1.9\" timestamp=\"{}\" lines-covered=\"{}\" lines-valid=\"{}\" "
      "branches-covered=\"{}\" branches-valid=\"{}\">\n",
      rate(t.line), rate(t.branch), timestamp, t.line.covered, t.line.total, t.branch.covered, t.branch.total);
  // ReportGenerator and coverlet join <source> and a relative file name; a file outside the
  // root keeps its whole path.
  if (source_root) out += fmt::format("  <sources>\n    <source>{}</source>\n  </sources>\n", xml(*source_root));
  else out += "  <sources />\n";
  out += "  <packages>\n";
  for (const ModuleCoverage& m : modules) {
    out += fmt::format("    <package name=\"{}\" line-rate=\"{}\" branch-rate=\"{}\" complexity=\"0\">\n      <classes>\n", xml(m.label()),
                       rate(m.line), rate(m.branch));
    // Classes by (type, file): a partial type in two files is two classes, as coverlet writes it,
    // and a method with lines in both (a constructor running both files' field initializers) is
    // listed in each with that file's lines.
    struct Part {
      const MethodCoverage* method;
      const std::map<uint32_t, uint64_t>* lines;
      std::vector<BranchHits> branches;
    };
    std::map<std::pair<std::string, std::string>, std::vector<Part>> classes;
    for (const auto& [key, method] : m.methods) {
      if (!method.has_lines()) continue;
      std::string type(declaring_class(split_name(method.name).first));
      if (!method.lines.empty()) classes[{type, method.file}].push_back({&method, &method.lines, method.branches});
      for (const auto& [doc, file] : method.elsewhere) {
        Part part{&method, &file.lines, {}};
        for (const auto& [line, list] : file.branches) part.branches.insert(part.branches.end(), list.begin(), list.end());
        classes[{type, doc}].push_back(std::move(part));
      }
    }
    for (const auto& [id, parts] : classes) {
      std::map<uint32_t, uint64_t> lines;
      std::vector<BranchHits> branches;
      for (const Part& part : parts) {
        for (const auto& [line, hits] : *part.lines) lines[line] += hits;
        branches.insert(branches.end(), part.branches.begin(), part.branches.end());
      }
      auto by_line = branches_by_line(branches);
      out += fmt::format("        <class name=\"{}\" filename=\"{}\" line-rate=\"{}\" branch-rate=\"{}\" complexity=\"0\">\n",
                         xml(id.first), xml(class_file_name(id.second, source_root)), rate(ratio_of(lines)), rate(ratio_of(branches)));
      out += "          <methods>\n";
      for (const Part& part : parts) {
        auto method_branches = branches_by_line(part.branches);
        out += fmt::format("            <method name=\"{}\" signature=\"\" line-rate=\"{}\" branch-rate=\"{}\" complexity=\"0\">\n",
                           xml(split_name(part.method->name).second), rate(ratio_of(*part.lines)), rate(ratio_of(part.branches)));
        out += "              <lines>\n";
        for (const auto& [line, hits] : *part.lines) cobertura_line(out, "                ", line, hits, method_branches);
        out += "              </lines>\n            </method>\n";
      }
      out += "          </methods>\n          <lines>\n";
      for (const auto& [line, hits] : lines) cobertura_line(out, "            ", line, hits, by_line);
      out += "          </lines>\n        </class>\n";
    }
    out += "      </classes>\n    </package>\n";
  }
  out += "  </packages>\n</coverage>\n";
  return out;
}

std::string lcov_text(const std::vector<ModuleCoverage>& modules) {
  std::string out;
  for (const ModuleCoverage& m : modules) {
    for (const auto& [doc, file] : m.files) {
      out += fmt::format("TN:{}\nSF:{}\n", lcov_test_name(m.label()), doc);
      Ratio functions;
      for (const auto& [key, method] : m.methods) {
        if (method.file != doc || method.lines.empty()) continue;
        out += fmt::format("FN:{},{}\n", method.lines.begin()->first, lcov_function_name(key));
      }
      for (const auto& [key, method] : m.methods) {
        if (method.file != doc || method.lines.empty()) continue;
        uint64_t hits = 0;
        for (const auto& [line, h] : method.lines) hits = std::max(hits, h);
        out += fmt::format("FNDA:{},{}\n", method.covered() ? std::max<uint64_t>(hits, 1) : 0, lcov_function_name(key));
        functions += Ratio{method.covered() ? 1u : 0u, 1};
      }
      out += fmt::format("FNF:{}\nFNH:{}\n", functions.total, functions.covered);
      for (const auto& [line, hits] : file.lines) out += fmt::format("DA:{},{}\n", line, hits);
      Ratio lines = ratio_of(file.lines), branches;
      for (const auto& [line, list] : file.branches)
        for (const BranchHits& b : list) {
          out += fmt::format("BRDA:{},{},{},{}\n", line, b.offset, b.path, b.hits);
          branches += Ratio{b.hits ? 1u : 0u, 1};
        }
      out += fmt::format("BRF:{}\nBRH:{}\nLF:{}\nLH:{}\nend_of_record\n", branches.total, branches.covered, lines.total, lines.covered);
    }
  }
  return out;
}

std::string coverage_json(const std::vector<ModuleCoverage>& modules) {
  CoverageTotals t = totals(modules);
  std::string out = "{\"modules\": [";
  for (size_t i = 0; i < modules.size(); ++i) {
    const ModuleCoverage& m = modules[i];
    out += fmt::format("{}{{\"assembly\": {}, \"mvid\": {}, \"files\": {}, \"line\": {}, \"branch\": {}, \"method\": {}, \"documents\": [",
                       i ? ", " : "", md::json_quote(m.assembly), md::json_quote(m.mvid), m.files_merged, ratio_json(m.line),
                       ratio_json(m.branch), ratio_json(m.method));
    bool first = true;
    for (const auto& [doc, file] : m.files) {
      out += fmt::format("{}{{\"path\": {}, \"lines\": {{", first ? "" : ", ", md::json_quote(doc));
      first = false;
      bool first_line = true;
      for (const auto& [line, hits] : file.lines) {
        out += fmt::format("{}\"{}\": {}", first_line ? "" : ", ", line, hits);
        first_line = false;
      }
      out += "}, \"branches\": [";
      bool first_branch = true;
      for (const auto& [line, list] : file.branches)
        for (const BranchHits& b : list) {
          out += fmt::format("{}{{\"line\": {}, \"offset\": {}, \"path\": {}, \"hits\": {}}}", first_branch ? "" : ", ", b.line,
                             b.offset, b.path, b.hits);
          first_branch = false;
        }
      out += "]}";
    }
    out += "], \"methods\": [";
    first = true;
    for (const auto& [key, method] : m.methods) {
      out += fmt::format("{}{{\"name\": {}, \"file\": {}, \"covered\": {}, \"entries\": {}, \"line\": {}, \"branch\": {}}}",
                         first ? "" : ", ", md::json_quote(key), md::json_quote(method.file), method.covered() ? "true" : "false",
                         method.entries, ratio_json(line_ratio(method)), ratio_json(branch_ratio(method)));
      first = false;
    }
    out += "], \"methodsWithoutSequencePoints\": [";
    for (size_t k = 0; k < m.without_lines.size(); ++k) out += (k ? ", " : "") + md::json_quote(m.without_lines[k]);
    out += "]}";
  }
  out += fmt::format("], \"total\": {{\"line\": {}, \"branch\": {}, \"method\": {}}}}}\n", ratio_json(t.line), ratio_json(t.branch),
                     ratio_json(t.method));
  return out;
}

std::string coverage_table(const std::vector<ModuleCoverage>& modules) {
  auto cell = [](const Ratio& r) { return fmt::format("{:.2f}% ({}/{})", r.percent(), r.covered, r.total); };
  std::vector<std::array<std::string, 4>> rows;
  rows.push_back({"Module", "Line", "Branch", "Method"});
  for (const ModuleCoverage& m : modules) rows.push_back({md::printable(m.label(), md::kMaxPrintedText), cell(m.line), cell(m.branch), cell(m.method)});
  CoverageTotals t = totals(modules);
  rows.push_back({"Total", cell(t.line), cell(t.branch), cell(t.method)});
  std::array<size_t, 4> width{};
  for (const auto& row : rows)
    for (size_t c = 0; c < 4; ++c) width[c] = std::max(width[c], row[c].size());
  std::string rule = "+";
  for (size_t w : width) rule += std::string(w + 2, '-') + "+";
  rule += "\n";
  std::string out = rule;
  for (size_t r = 0; r < rows.size(); ++r) {
    out += "|";
    for (size_t c = 0; c < 4; ++c) out += fmt::format(" {:<{}} |", rows[r][c], width[c]);
    out += "\n";
    if (r == 0 || r + 2 == rows.size()) out += rule;
  }
  out += rule;
  for (const ModuleCoverage& m : modules)
    if (!m.without_lines.empty())
      out += fmt::format("{}: {} method{} without sequence points (not counted)\n", md::printable(m.label(), md::kMaxPrintedText), m.without_lines.size(),
                         m.without_lines.size() == 1 ? "" : "s");
  return out;
}

}  // namespace cil::cli
