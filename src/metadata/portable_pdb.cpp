// Parsing and indexing a standalone portable PDB.
#include "metadata/portable_pdb.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace cil::md {

namespace {

// Longest document name decoded for display; names are paths.
constexpr size_t kMaxDocumentName = 4096;

Error pdb_error(std::string structure, std::string message, std::optional<uint64_t> offset = std::nullopt) {
  return make_error(ErrorKind::Format, std::move(structure), std::move(message), offset);
}

}  // namespace

bool is_windows_pdb(std::span<const uint8_t> bytes) {
  return bytes.size() >= kWindowsPdbSignature.size() &&
         std::memcmp(bytes.data(), kWindowsPdbSignature.data(), kWindowsPdbSignature.size()) == 0;
}

Expected<std::unique_ptr<PortablePdb>> PortablePdb::parse(std::vector<uint8_t> bytes) {
  return parse(std::make_shared<const std::vector<uint8_t>>(std::move(bytes)));
}

Expected<std::unique_ptr<PortablePdb>> PortablePdb::parse(std::shared_ptr<const std::vector<uint8_t>> bytes) {
  std::unique_ptr<PortablePdb> pdb(new PortablePdb());
  if (bytes) pdb->bytes_ = *bytes;
  pdb->owned_ = std::move(bytes);
  return parse_bytes(std::move(pdb));
}

Expected<std::unique_ptr<PortablePdb>> PortablePdb::parse_view(std::span<const uint8_t> bytes) {
  std::unique_ptr<PortablePdb> pdb(new PortablePdb());
  pdb->bytes_ = bytes;
  return parse_bytes(std::move(pdb));
}

Expected<std::unique_ptr<PortablePdb>> PortablePdb::parse_bytes(std::unique_ptr<PortablePdb> pdb) {
  std::span<const uint8_t> bytes = pdb->bytes_;
  if (bytes.size() > kMaxPdbSize)
    return make_error(ErrorKind::Limit, "PDB", fmt::format("{} bytes exceed the limit of {}", bytes.size(), kMaxPdbSize));
  if (is_windows_pdb(bytes))
    return make_error(ErrorKind::Unsupported, "PDB", "a Windows PDB (MSF 7.00), not a portable one", 0);
  pdb->metadata_ = CIL_TRY(Metadata::parse(ByteReader(pdb->bytes_, 0, "PDB metadata root")));
  if (!pdb->metadata_.pdb_stream())
    return pdb_error("PDB metadata root", "no #Pdb stream: not a standalone portable PDB", 0);
  const TablesStream& t = pdb->tables();
  for (unsigned id = 0; id < kFirstDebugTable; ++id)
    if (t.present(static_cast<TableId>(id)))
      return pdb_error("#~ stream", fmt::format("a portable PDB holds the type-system table {}", table_schema(static_cast<uint8_t>(id)).name),
                       t.stream_file_offset());
  CIL_TRY(pdb->index());
  return pdb;
}

Status PortablePdb::index() {
  const TablesStream& t = tables();
  uint32_t methods = method_count();
  // LocalScope must be sorted by Method (Portable PDB v1.0): scopes_of() searches it.
  uint32_t previous = 0;
  scope_methods_.clear();
  scope_methods_.reserve(t.rows(TableId::LocalScope));
  for (uint32_t row = 1; row <= t.rows(TableId::LocalScope); ++row) {
    uint32_t method = t.get(TableId::LocalScope, row, col::LocalScope::Method);
    uint64_t at = t.table_file_offset(TableId::LocalScope) + uint64_t{row - 1} * t.layout().table(TableId::LocalScope).row_size;
    if (method == 0 || method > methods)
      return pdb_error(fmt::format("LocalScope row {}", row), fmt::format("method {} is not a MethodDef row (the assembly has {})", method, methods), at);
    if (method < previous) return pdb_error(fmt::format("LocalScope row {}", row), "the table is not sorted by method", at);
    previous = method;
    scope_methods_.push_back(method);
  }
  // CustomDebugInformation is sorted by Parent too, but nothing here depends on it.
  std::vector<std::pair<uint32_t, uint32_t>> by_method;
  for (uint32_t r = 1; r <= t.rows(TableId::CustomDebugInformation); ++r) {
    Token parent = t.decode(CodedIndex::HasCustomDebugInformation, t.get(TableId::CustomDebugInformation, r, col::CustomDebugInformation::Parent));
    if (token_table(parent) == TableId::MethodDef && token_rid(parent) >= 1 && token_rid(parent) <= methods)
      by_method.emplace_back(token_rid(parent), r);
  }
  std::stable_sort(by_method.begin(), by_method.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  cdi_methods_.clear();
  cdi_rows_.clear();
  for (const auto& [method, row] : by_method) {
    cdi_methods_.push_back(method);
    cdi_rows_.push_back(row);
  }
  return ok();
}

Expected<MethodSequencePoints> PortablePdb::sequence_points(MethodDefId method) const {
  MethodSequencePoints out;
  CIL_TRY(sequence_points_into(method, out));
  return out;
}

Status PortablePdb::sequence_points_into(MethodDefId method, MethodSequencePoints& out) const {
  out.points.clear();
  return read_sequence_points(method, out, [&](const SequencePoint& p) -> Status {
    out.points.push_back(p);
    return ok();
  });
}

Expected<bool> PortablePdb::sequence_points_reader(uint32_t rid, ByteReader& reader, uint32_t& document) const {
  const TablesStream& t = tables();
  if (!t.valid_rid(TableId::MethodDebugInformation, rid)) return false;
  uint32_t blob = t.get(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::SequencePoints);
  if (blob == 0) return false;
  document = t.get(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::Document);
  reader = CIL_TRY(metadata_.blobs().reader(blob, "sequence points"));
  return true;
}

Error PortablePdb::in_sequence_points(uint32_t rid, Error decoded) {
  return make_error(decoded.kind, fmt::format("MethodDebugInformation row {} sequence points", rid), decoded.message, decoded.offset);
}

Error PortablePdb::bad_point_document(uint32_t rid, uint32_t document, uint64_t offset) {
  return pdb_error(fmt::format("MethodDebugInformation row {} sequence points", rid), fmt::format("document {} is not a Document row", document),
                   offset);
}

std::pair<uint32_t, uint32_t> PortablePdb::scopes_of(MethodDefId method) const {
  // The rows whose method is `method`, by binary search over the column (sorted, checked by index()).
  auto [first, last] = std::equal_range(scope_methods_.begin(), scope_methods_.end(), method.value());
  return {static_cast<uint32_t>(first - scope_methods_.begin()) + 1, static_cast<uint32_t>(last - scope_methods_.begin()) + 1};
}

std::span<const uint32_t> PortablePdb::method_custom_debug_info(MethodDefId method) const {
  auto [first, last] = std::equal_range(cdi_methods_.begin(), cdi_methods_.end(), method.value());
  return std::span<const uint32_t>(cdi_rows_).subspan(static_cast<size_t>(first - cdi_methods_.begin()), static_cast<size_t>(last - first));
}

Guid PortablePdb::custom_debug_info_kind(uint32_t row) const {
  auto kind = metadata_.guids().get(tables().get(TableId::CustomDebugInformation, row, col::CustomDebugInformation::Kind));
  return kind ? *kind : Guid{};
}

std::string PortablePdb::document_name(DocumentId document) const {
  uint32_t rid = document.value();
  auto placeholder = [&] { return fmt::format("<document {}>", rid); };
  if (!tables().valid_rid(TableId::Document, rid)) return placeholder();
  auto r = metadata_.blobs().reader(tables().get(TableId::Document, rid, col::Document::Name), "document name");
  if (!r || r->at_end()) return placeholder();
  uint8_t separator = *r->u8();
  std::string name;
  bool first = true;
  while (!r->at_end()) {
    auto part_index = r->compressed_u32();
    if (!part_index) return placeholder();
    auto part = metadata_.blobs().get(*part_index);
    if (!part) return placeholder();
    if (!first && separator) name.push_back(static_cast<char>(separator));
    first = false;
    name.append(reinterpret_cast<const char*>(part->data()), part->size());
    if (name.size() > kMaxDocumentName) return name.substr(0, kMaxDocumentName) + "...";
  }
  return name;
}

}  // namespace cil::md
