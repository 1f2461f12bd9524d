// Rewriting a portable PDB row by row for the methods whose code moved.
#include "il/pdb_rewrite.h"

#include <fmt/format.h>

namespace cil::il {

namespace {

using md::TableId;
namespace col = md::col;

// The type-system tables (ECMA-335 II.22) whose row counts a #Pdb stream records.
constexpr unsigned kFirstDebugTable = static_cast<unsigned>(TableId::Document);

Error in_row(const Error& e, TableId table, uint32_t row) {
  return make_error(e.kind, fmt::format("{} row {} {}", md::table_schema(table).name, row, e.structure), e.message, e.offset);
}

Status remap_method(md::PdbEditor& editor, uint32_t rid, const RewrittenMethod& method, const OffsetMapLookup& lookup) {
  const OffsetMap& map = method.map;
  const md::PortablePdb& pdb = editor.pdb();
  const md::TablesStream& t = pdb.tables();
  if (t.valid_rid(TableId::MethodDebugInformation, rid) &&
      t.get(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::SequencePoints) != 0) {
    auto points = pdb.sequence_points(rid);
    if (!points) return points.error();
    auto moved = remap_sequence_points(*points, map);
    if (!moved) return in_row(moved.error(), TableId::MethodDebugInformation, rid);
    moved->local_signature = method.local_signature;
    uint32_t document = t.get(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::Document);
    auto blob = md::encode_sequence_points(*moved, document);
    if (!blob) return in_row(blob.error(), TableId::MethodDebugInformation, rid);
    editor.set_cell(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::SequencePoints, editor.add_blob(*blob));
  }
  auto [first, last] = pdb.scopes_of(rid);
  for (uint32_t row = first; row < last; ++row) {
    ScopeRange scope{t.get(TableId::LocalScope, row, col::LocalScope::StartOffset), t.get(TableId::LocalScope, row, col::LocalScope::Length)};
    auto moved = remap_scope(scope, map);
    if (!moved) return in_row(moved.error(), TableId::LocalScope, row);
    editor.set_cell(TableId::LocalScope, row, col::LocalScope::StartOffset, moved->start);
    editor.set_cell(TableId::LocalScope, row, col::LocalScope::Length, moved->length);
  }
  for (uint32_t row : pdb.method_custom_debug_info(rid)) {
    md::Guid kind = pdb.custom_debug_info_kind(row);
    bool hoisted = kind == md::kStateMachineHoistedLocalScopes;
    if (!hoisted && kind != md::kAsyncMethodSteppingInformation) continue;
    auto value = pdb.metadata().blobs().get(t.get(TableId::CustomDebugInformation, row, col::CustomDebugInformation::Value));
    if (!value) return in_row(value.error(), TableId::CustomDebugInformation, row);
    auto moved = hoisted ? remap_hoisted_scopes(*value, map) : remap_async_stepping(*value, map, lookup);
    if (!moved) return in_row(moved.error(), TableId::CustomDebugInformation, row);
    editor.set_cell(TableId::CustomDebugInformation, row, col::CustomDebugInformation::Value, editor.add_blob(*moved));
  }
  return ok();
}

}  // namespace

Status check_pdb_fits(const md::PortablePdb& pdb, uint32_t method_rows) {
  if (pdb.method_count() != method_rows)
    return make_error(ErrorKind::Format, "#Pdb stream",
                      fmt::format("the PDB describes {} methods, the assembly has {}", pdb.method_count(), method_rows),
                      pdb.pdb_stream().file_offset);
  uint32_t debug_rows = pdb.tables().rows(TableId::MethodDebugInformation);
  if (debug_rows != 0 && debug_rows != method_rows)
    return make_error(ErrorKind::Format, "MethodDebugInformation",
                      fmt::format("{} rows for {} methods (the table parallels MethodDef)", debug_rows, method_rows),
                      pdb.tables().table_file_offset(TableId::MethodDebugInformation));
  return ok();
}

Expected<md::WrittenPdb> rewrite_pdb(const md::PortablePdb& pdb, const PdbRewriteInput& input) {
  uint32_t methods = pdb.method_count();
  CIL_TRY(check_pdb_fits(pdb, methods));
  md::PdbEditor editor(pdb);
  OffsetMapLookup lookup = [&](uint32_t rid) -> const OffsetMap* {
    return rid < input.methods.size() && input.methods[rid] ? &input.methods[rid]->map : nullptr;
  };
  for (uint32_t rid = 1; rid <= methods && rid < input.methods.size(); ++rid)
    if (input.methods[rid]) CIL_TRY(remap_method(editor, rid, *input.methods[rid], lookup));

  // MethodDebugInformation parallels MethodDef: a row (no document, no points) for every method
  // the tool added. An empty table stays empty.
  uint32_t new_methods = input.rows[static_cast<uint8_t>(TableId::MethodDef)];
  if (pdb.tables().rows(TableId::MethodDebugInformation) != 0)
    for (uint32_t rid = methods + 1; rid <= new_methods; ++rid) CIL_TRY(editor.add_row(TableId::MethodDebugInformation, {0, 0}));

  // The output's row counts, for every table the PDB referenced or the output has rows in.
  const md::PdbStream& stream = pdb.pdb_stream();
  for (unsigned id = 0; id < kFirstDebugTable; ++id) {
    if (!md::table_schema(static_cast<uint8_t>(id)).defined()) continue;
    bool referenced = (stream.referenced >> id) & 1;
    if (referenced || input.rows[id]) editor.set_type_system_rows(static_cast<TableId>(id), input.rows[id]);
  }
  return editor.write();
}

}  // namespace cil::il
