// Test-only breakage of outputs: one defect per kind, each of which the self-check must catch.
#include "cli/jobs/break_output.h"

#include <algorithm>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/instruction.h"
#include "metadata/module.h"
#include "pe/strong_name.h"

namespace cil::cli {

namespace {

Breakage at(uint64_t offset, std::vector<uint8_t> bytes, bool in_pdb = false) { return Breakage{in_pdb, offset, std::move(bytes)}; }

}  // namespace

Expected<std::optional<Breakage>> plan_breakage(const std::string& what, std::span<const uint8_t> assembly,
                                                std::span<const md::MethodDefId> rewritten, bool has_pdb) {
  if (what == "signature") {
    auto layout = pe::strong_name_layout(assembly);
    if (!layout) return std::optional<Breakage>();
    return std::optional(at(layout->signature_offset, {static_cast<uint8_t>(assembly[layout->signature_offset] ^ 0x01)}));
  }
  if (what == "pdb") {
    // The metadata signature 'BSJB' of the standalone PDB.
    if (!has_pdb) return std::optional<Breakage>();
    return std::optional(at(0, {'X'}, true));
  }
  if (what != "header" && what != "table" && what != "body" && what != "token")
    return make_error(ErrorKind::Usage, kBreakOutputVariable, fmt::format("'{}' is not header, table, body, token, signature or pdb", what));
  auto m = CIL_TRY(md::Module::parse(std::vector<uint8_t>(assembly.begin(), assembly.end())));
  if (what == "header") {
    // The metadata root's signature 'BSJB' (II.24.2.1).
    return std::optional(at(m->metadata().file_offset(), {'X'}));
  }
  if (what == "table") {
    // The first TypeDef's MethodList, past every MethodDef row and the one after the last.
    const auto& tables = m->tables();
    const auto& layout = tables.layout().table(md::TableId::TypeDef);
    // The cell's place in the file, which typed rows do not give: the column found by its name.
    const auto& columns = md::table_schema(md::TableId::TypeDef).columns;
    auto found = std::find_if(columns.begin(), columns.end(), [](const auto& c) { return c.name == "MethodList"; });
    auto column = static_cast<size_t>(found - columns.begin());
    if (!tables.rows(md::TableId::TypeDef) || found == columns.end()) return std::optional<Breakage>();
    uint32_t past = tables.rows(md::TableId::MethodDef) + 2;
    std::vector<uint8_t> bytes(layout.width[column]);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(past >> (8 * i));
    return std::optional(at(tables.table_file_offset(md::TableId::TypeDef) + layout.offset[column], std::move(bytes)));
  }
  if (rewritten.empty()) return std::optional<Breakage>();
  il::MethodBody body = CIL_TRY(il::read_body(*m, rewritten.front()));
  if (what == "body") {
    // 0xA6 is no opcode (III.1.2.1 leaves 0xA6 to 0xB2 unused).
    return std::optional(at(body.code_file_offset, {0xA6}));
  }
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  for (const auto& in : code.instructions) {
    auto operand = in.info().operand;
    if (operand != il::Operand::Method && operand != il::Operand::Field && operand != il::Operand::Type && operand != il::Operand::Tok)
      continue;
    // The token's row id: the last row of its table and then some, which no row has.
    uint64_t token_at = body.code_file_offset + in.offset + in.info().opcode_size();
    return std::optional(at(token_at, {0xFF, 0xFF, 0x7F}));
  }
  return std::optional<Breakage>();
}

}  // namespace cil::cli
