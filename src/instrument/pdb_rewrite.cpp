// Rewriting a portable PDB row by row for the methods whose code moved.
#include "instrument/pdb_rewrite.h"

#include <fmt/format.h>

#include "metadata/rows.h"
#include "support/byte_reader.h"

namespace cil::instrument {

namespace {

using md::TableId;
namespace col = md::col;

// The type-system tables (ECMA-335 II.22) whose row counts a #Pdb stream records.
constexpr unsigned kFirstDebugTable = static_cast<unsigned>(TableId::Document);

Error in_row(const Error& e, TableId table, uint32_t row) {
  return make_error(e.kind, fmt::format("{} row {} {}", md::table_schema(table).name, row, e.structure), e.message, e.offset);
}

/// The resume methods an async stepping record names (its triples' last member).
std::vector<uint32_t> resume_methods(std::span<const uint8_t> value) {
  std::vector<uint32_t> out;
  ByteReader r(value, 0, "async method stepping information");
  if (!r.skip(4)) return out;
  while (!r.at_end()) {
    if (!r.skip(8)) break;
    auto method = r.compressed_u32();
    if (!method) break;
    out.push_back(*method);
  }
  return out;
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

PdbRewriter::PdbRewriter(const md::PortablePdb& pdb) : pdb_(pdb), editor_(pdb) {
  const md::TablesStream& t = pdb.tables();
  for (uint32_t row = 1; row <= t.rows(TableId::CustomDebugInformation); ++row) {
    if (pdb.custom_debug_info_kind(row) != md::kAsyncMethodSteppingInformation) continue;
    md::CustomDebugInformationView record(pdb.metadata(), row);
    md::Token parent = record.parent();
    auto value = record.value();
    if (!value) continue;
    for (uint32_t method : resume_methods(*value))
      if (method != md::token_rid(parent)) resume_methods_.insert(method);
  }
}

Status PdbRewriter::fail(Error e) {
  failed_ = e;
  return e;
}

Status PdbRewriter::move_sequence_points(uint32_t rid, const OffsetMap& map, uint32_t local_signature) {
  const md::TablesStream& t = pdb_.tables();
  if (!t.valid_rid(TableId::MethodDebugInformation, rid)) return ok();
  md::MethodDebugInformationView row(pdb_.metadata(), rid);
  if (row.sequence_points_index() == 0) return ok();
  // A body moved as a whole (count mode's entry probe): the blob's own bytes with two values
  // rewritten, when it is in the encoder's form; otherwise the long way below.
  auto blob = pdb_.metadata().blobs().get(row.sequence_points_index());
  if (blob && shift_sequence_points_blob(*blob, row.document(), t.rows(TableId::Document), map, local_signature, blob_)) {
    editor_.set_sequence_points(rid, blob_);
    return ok();
  }
  // Through buffers kept from method to method: the rewriter sees every method.
  CIL_TRY(pdb_.sequence_points_into(md::MethodDefId(rid), points_));
  if (Status moved = remap_sequence_points_into(points_, map, moved_); !moved)
    return in_row(moved.error(), TableId::MethodDebugInformation, rid);
  moved_.local_signature = local_signature;
  if (Status encoded = md::encode_sequence_points_into(moved_, row.document(), blob_); !encoded)
    return in_row(encoded.error(), TableId::MethodDebugInformation, rid);
  editor_.set_sequence_points(rid, blob_);
  return ok();
}

Status PdbRewriter::method_rewritten(md::MethodDefId method, const OffsetMap& map, uint32_t local_signature) {
  if (failed_) return *failed_;
  uint32_t rid = method.value();  // also its MethodDebugInformation row
  if (rid == 0 || rid > pdb_.method_count()) return ok();  // a method the tool added
  if (resume_methods_.count(rid)) kept_maps_.insert_or_assign(rid, map);
  if (Status moved = move_sequence_points(rid, map, local_signature); !moved) return fail(moved.error());
  auto [first, last] = pdb_.scopes_of(method);
  for (uint32_t row = first; row < last; ++row) {
    md::LocalScopeView local_scope(pdb_.metadata(), row);
    ScopeRange scope{local_scope.start_offset(), local_scope.length()};
    auto moved = remap_scope(scope, map);
    if (!moved) return fail(in_row(moved.error(), TableId::LocalScope, row));
    editor_.set_scope_range(row, moved->start, moved->length);
  }
  for (uint32_t row : pdb_.method_custom_debug_info(method)) {
    md::Guid kind = pdb_.custom_debug_info_kind(row);
    if (kind == md::kAsyncMethodSteppingInformation) {
      Status s = remap_async(rid, row, map);
      if (!s) return fail(s.error());
      continue;
    }
    if (kind != md::kStateMachineHoistedLocalScopes) continue;
    auto value = md::CustomDebugInformationView(pdb_.metadata(), row).value();
    if (!value) return fail(in_row(value.error(), TableId::CustomDebugInformation, row));
    auto moved = remap_hoisted_scopes(*value, map);
    if (!moved) return fail(in_row(moved.error(), TableId::CustomDebugInformation, row));
    editor_.set_custom_debug_value(row, *moved);
  }
  return ok();
}

Status PdbRewriter::remap_async(uint32_t rid, uint32_t row, const OffsetMap& map) {
  auto value = md::CustomDebugInformationView(pdb_.metadata(), row).value();
  if (!value) return in_row(value.error(), TableId::CustomDebugInformation, row);
  // A record that resumes in another method waits for that method's map (rare: Roslyn resumes in
  // the MoveNext method itself), keeping its own.
  for (uint32_t method : resume_methods(*value)) {
    if (method != rid && !kept_maps_.count(method)) {
      kept_maps_.insert_or_assign(rid, map);
      pending_async_.push_back({rid, row});
      return ok();
    }
  }
  OffsetMapLookup lookup = [&](uint32_t method) -> const OffsetMap* {
    if (method == rid) return &map;
    auto it = kept_maps_.find(method);
    return it == kept_maps_.end() ? nullptr : &it->second;
  };
  auto moved = remap_async_stepping(*value, map, lookup);
  if (!moved) return in_row(moved.error(), TableId::CustomDebugInformation, row);
  editor_.set_custom_debug_value(row, *moved);
  return ok();
}

Expected<md::WrittenPdb> PdbRewriter::finish(const std::array<uint32_t, md::kTableSlots>& rows) {
  if (failed_) return *failed_;
  // Records that waited for another method's map: that method is rewritten by now, or kept its
  // offsets (no map: the lookup leaves its resume offsets as they were).
  for (const auto& pending : pending_async_) {
    const OffsetMap& own = kept_maps_.at(pending.rid);
    auto value = md::CustomDebugInformationView(pdb_.metadata(), pending.row).value();
    if (!value) return in_row(value.error(), TableId::CustomDebugInformation, pending.row);
    OffsetMapLookup lookup = [&](uint32_t method) -> const OffsetMap* {
      if (method == pending.rid) return &own;
      auto it = kept_maps_.find(method);
      return it == kept_maps_.end() ? nullptr : &it->second;
    };
    auto moved = remap_async_stepping(*value, own, lookup);
    if (!moved) return in_row(moved.error(), TableId::CustomDebugInformation, pending.row);
    editor_.set_custom_debug_value(pending.row, *moved);
  }

  // MethodDebugInformation parallels MethodDef: a row (no document, no points) for every method
  // the tool added. An empty table stays empty.
  uint32_t methods = pdb_.method_count();
  uint32_t new_methods = rows[static_cast<uint8_t>(TableId::MethodDef)];
  if (pdb_.tables().rows(TableId::MethodDebugInformation) != 0)
    for (uint32_t rid = methods + 1; rid <= new_methods; ++rid) CIL_TRY(editor_.add_empty_method_debug_information());

  // The output's row counts, for every table the PDB referenced or the output has rows in.
  const md::PdbStream& stream = pdb_.pdb_stream();
  for (unsigned id = 0; id < kFirstDebugTable; ++id) {
    if (!md::table_schema(static_cast<uint8_t>(id)).defined()) continue;
    bool referenced = (stream.referenced >> id) & 1;
    if (referenced || rows[id]) editor_.set_type_system_rows(static_cast<TableId>(id), rows[id]);
  }
  return editor_.write();
}

Expected<md::WrittenPdb> rewrite_pdb(const md::PortablePdb& pdb, const PdbRewriteInput& input) {
  CIL_TRY(check_pdb_fits(pdb, pdb.method_count()));
  PdbRewriter rewriter(pdb);
  for (uint32_t rid = 1; rid < input.methods.size(); ++rid)
    if (input.methods[rid]) CIL_TRY(rewriter.method_rewritten(md::MethodDefId(rid), input.methods[rid]->map, input.methods[rid]->local_signature));
  return rewriter.finish(input.rows);
}

}  // namespace cil::instrument
