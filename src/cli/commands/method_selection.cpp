// Assembly identity and method selection.
#include "cli/commands/method_selection.h"

#include "il/body_reader.h"

namespace cil::cli {

using md::TableId;

std::string assembly_name(const md::Module& m) {
  const auto& t = m.tables();
  if (t.rows(TableId::Assembly)) return std::string(m.row<TableId::Assembly>(1).name());
  if (t.rows(TableId::Module)) return std::string(m.row<TableId::Module>(1).name());
  return "";
}

std::string module_mvid(const md::Module& m) {
  if (!m.tables().rows(TableId::Module)) return md::format_guid({});
  auto g = m.row<TableId::Module>(1).mvid();
  return md::format_guid(g ? *g : md::Guid{});
}

std::vector<md::MethodDefId> select_methods(const md::Module& m, md::Printer& printer, const md::MethodFilter& filter) {
  std::vector<md::MethodDefId> out;
  bool all = filter.include.empty() && filter.exclude.empty();
  for (md::MethodDefId method : m.ids<TableId::MethodDef>()) {
    if (!il::has_il_body(m, method)) continue;
    if (all || filter.selects(printer.method_name(method))) out.push_back(method);
  }
  return out;
}

}  // namespace cil::cli
