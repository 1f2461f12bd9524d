// Writing an edited portable PDB through the metadata writer, then hashing it for its id.
#include "metadata/pdb_writer.h"

#include <fmt/format.h>

namespace cil::md {

namespace {

Error pdb_edit_error(std::string message) { return make_error(ErrorKind::Unsupported, "PDB", std::move(message)); }

}  // namespace

PdbId pdb_id_from_hash(const Sha256Digest& hash) {
  PdbId id{};
  std::copy(hash.begin(), hash.begin() + 20, id.begin());
  id[7] = static_cast<uint8_t>((id[7] & 0x0F) | 0x40);  // GUID version 4
  id[8] = static_cast<uint8_t>((id[8] & 0x3F) | 0x80);  // RFC 4122 variant
  id[19] |= 0x80;                                       // the stamp's top bit
  return id;
}

Sha256Digest pdb_content_hash(std::span<const uint8_t> pdb, uint64_t id_offset) {
  Sha256 h;
  if (id_offset + 20 > pdb.size()) {
    h.update(pdb);
    return h.finish();
  }
  h.update(pdb.subspan(0, static_cast<size_t>(id_offset)));
  h.update_zeros(20);
  h.update(pdb.subspan(static_cast<size_t>(id_offset) + 20));
  return h.finish();
}

PdbEditor::PdbEditor(const PortablePdb& pdb)
    : pdb_(pdb), blobs_(pdb.metadata().blobs().data()), stream_(pdb.pdb_stream()) {}

uint32_t PdbEditor::rows(TableId table) const { return pdb_.tables().rows(table) + edits_.added_rows(table); }

uint32_t PdbEditor::cell(TableId table, uint32_t rid, uint8_t column) const {
  uint32_t original = pdb_.tables().rows(table);
  if (rid <= original) {
    const uint32_t* changed = edits_.changed_value(table, rid, column);
    return changed ? *changed : pdb_.tables().get(table, rid, column);
  }
  size_t columns = table_schema(table).columns.size();
  return edits_.added[static_cast<uint8_t>(table)][(rid - original - 1) * columns + column];
}

void PdbEditor::set_cell(TableId table, uint32_t rid, uint8_t column, uint32_t value) {
  uint32_t original = pdb_.tables().rows(table);
  if (rid <= original) {
    edits_.change(table, original, rid, column, value);
    return;
  }
  size_t columns = table_schema(table).columns.size();
  edits_.added[static_cast<uint8_t>(table)][(rid - original - 1) * columns + column] = value;
}

Status PdbEditor::add_row(TableId table, std::vector<uint32_t> cells) {
  if (cells.size() != table_schema(table).columns.size())
    return pdb_edit_error(fmt::format("a {} row needs {} cells", table_schema(table).name, table_schema(table).columns.size()));
  if (rows(table) >= kMaxRows) return pdb_edit_error(fmt::format("table {} is full", table_schema(table).name));
  auto& added = edits_.added[static_cast<uint8_t>(table)];
  added.insert(added.end(), cells.begin(), cells.end());
  return ok();
}

Expected<WrittenPdb> PdbEditor::write() {
  const Metadata& md = pdb_.metadata();
  HeapContents heaps;
  heaps.strings = {md.strings().data(), {}};
  heaps.user_strings = {md.user_strings().data(), {}};
  heaps.blobs = blobs_.take();
  heaps.guids = {md.guids().data(), {}};
  PdbStream stream = stream_;
  stream.id = PdbId{};  // zero while the content is hashed
  WrittenPdb written;
  uint64_t stream_offset = 0;
  CIL_TRY(write_metadata(md, edits_, std::move(heaps), written.image, &stream, &stream_offset));
  Sha256 hash;
  for (const auto& piece : written.image.pieces()) hash.update(piece.bytes);
  written.checksum = hash.finish();
  written.id = pdb_id_from_hash(written.checksum);
  if (!written.image.overwrite(stream_offset + kPdbIdOffset, written.id))
    return make_error(ErrorKind::Format, "written PDB", "the #Pdb stream is not where the writer put it");
  return written;
}

void PdbEditor::set_sequence_points(uint32_t method_rid, std::span<const uint8_t> blob) {
  set_cell(TableId::MethodDebugInformation, method_rid, col::MethodDebugInformation::SequencePoints, add_blob(blob));
}

void PdbEditor::set_scope_range(uint32_t scope_row, uint32_t start_offset, uint32_t length) {
  set_cell(TableId::LocalScope, scope_row, col::LocalScope::StartOffset, start_offset);
  set_cell(TableId::LocalScope, scope_row, col::LocalScope::Length, length);
}

void PdbEditor::set_custom_debug_value(uint32_t row, std::span<const uint8_t> value) {
  set_cell(TableId::CustomDebugInformation, row, col::CustomDebugInformation::Value, add_blob(value));
}

Status PdbEditor::add_empty_method_debug_information() { return add_row(TableId::MethodDebugInformation, {0, 0}); }

}  // namespace cil::md
