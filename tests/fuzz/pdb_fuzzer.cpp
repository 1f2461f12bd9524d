// Fuzz target: a standalone portable PDB. PortablePdb::parse (the root, the #Pdb stream, the debug
// tables sized by its row counts, the LocalScope order), then for the first rows of each method:
// the sequence points decoded, re-encoded and decoded again to the same points; the scopes and
// custom debug information; every document name. Then the whole PDB rewritten as if every method
// had moved (every byte offset a boundary, the code shifted by a few bytes): either an error, or
// a PDB that reads back with the same methods, rows and sequence points, moved.
#include <algorithm>

#include <fmt/format.h>

#include "fuzz_check.h"
#include "instrument/pdb_rewrite.h"
#include "metadata/portable_pdb.h"
#include "metadata/rows.h"
#include "metadata/sequence_points.h"

namespace {

using namespace cil;
using namespace cil::md;

// Methods and rows looked at per input: enough for every structure, few enough to stay fast.
constexpr uint32_t kMethods = 64;
constexpr uint32_t kMaxCode = 4096;
constexpr uint32_t kShift = 3;

il::OffsetMap shifted_map(uint32_t code_size) {
  std::vector<il::OffsetMap::Entry> entries;
  entries.reserve(code_size + 1);
  for (uint32_t offset = 0; offset <= code_size; ++offset) entries.push_back({offset, offset + kShift});
  return il::OffsetMap(std::move(entries), code_size + kShift);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto parsed = PortablePdb::parse(std::vector<uint8_t>(data, data + size));
  if (!parsed) return 0;
  const PortablePdb& pdb = **parsed;
  const TablesStream& t = pdb.tables();
  uint32_t debug_rows = t.rows(TableId::MethodDebugInformation);
  uint32_t methods = std::min({pdb.method_count(), kMethods, std::max(debug_rows, t.rows(TableId::LocalScope))});

  // The largest offset each method's debug information names, for a map that covers it.
  std::vector<uint32_t> code_size(methods + 1, 1);
  for (uint32_t rid = 1; rid <= methods; ++rid) {
    auto points = pdb.sequence_points(md::MethodDefId(rid));
    if (points) {
      uint32_t document =
          t.valid_rid(TableId::MethodDebugInformation, rid) ? MethodDebugInformationView(pdb.metadata(), rid).document() : 0;
      auto encoded = encode_sequence_points(*points, document);
      // What decoded must encode (unless the row's document is not the first point's) and decode the same.
      if (encoded) {
        auto again = decode_sequence_points(ByteReader(*encoded, 0, "blob"), document);
        CIL_FUZZ_CHECK(again && *again == *points, fmt::format("method {}: sequence points do not survive a round trip", rid));
      }
      for (const auto& p : points->points) code_size[rid] = std::max(code_size[rid], std::min(p.offset + 1, kMaxCode));
    }
    auto [first, last] = pdb.scopes_of(md::MethodDefId(rid));
    CIL_FUZZ_CHECK(first <= last && last <= t.rows(TableId::LocalScope) + 1, "scope range outside the table");
    for (uint32_t row = first; row < last; ++row) {
      LocalScopeView scope(pdb.metadata(), row);
      CIL_FUZZ_CHECK(scope.method() == rid, "a scope of another method");
      uint64_t end = uint64_t{scope.start_offset()} + scope.length();
      code_size[rid] = std::max<uint32_t>(code_size[rid], static_cast<uint32_t>(std::min<uint64_t>(end, kMaxCode)));
    }
    for (uint32_t row : pdb.method_custom_debug_info(md::MethodDefId(rid))) (void)pdb.custom_debug_info_kind(row);
  }
  for (uint32_t rid = 1; rid <= std::min(t.rows(TableId::Document), kMethods); ++rid)
    CIL_FUZZ_CHECK(pdb.document_name(md::DocumentId(rid)).size() <= 4096 + 3, "document name over its cap");

  instrument::PdbRewriteInput input;
  input.methods.resize(methods + 1);
  for (uint32_t rid = 1; rid <= methods; ++rid) input.methods[rid] = instrument::RewrittenMethod{shifted_map(code_size[rid]), 0};
  input.rows[static_cast<uint8_t>(TableId::MethodDef)] = pdb.method_count();
  auto written = instrument::rewrite_pdb(pdb, input);
  if (!written) return 0;
  auto reread = PortablePdb::parse(written->bytes());
  CIL_FUZZ_CHECK(reread, fmt::format("a rewritten PDB does not read back: {}", reread ? "" : reread.error().to_string()));
  CIL_FUZZ_CHECK((*reread)->method_count() == pdb.method_count(), "the method count changed");
  for (unsigned id = 0; id < kTableSlots; ++id)
    CIL_FUZZ_CHECK((*reread)->tables().rows(static_cast<TableId>(id)) == t.rows(static_cast<TableId>(id)), "a table changed size");
  for (uint32_t rid = 1; rid <= methods; ++rid) {
    auto before = pdb.sequence_points(md::MethodDefId(rid));
    auto after = (*reread)->sequence_points(md::MethodDefId(rid));
    if (!before) continue;
    CIL_FUZZ_CHECK(static_cast<bool>(after), fmt::format("method {}: rewritten sequence points do not decode", rid));
    CIL_FUZZ_CHECK(after->points.size() >= before->points.size(), fmt::format("method {}: sequence points lost", rid));
    for (size_t i = 0; i < before->points.size(); ++i) {
      uint32_t expected = before->points[i].offset == 0 ? 0 : before->points[i].offset + kShift;
      CIL_FUZZ_CHECK(after->points[i].offset == expected, fmt::format("method {}: point {} did not move by the map", rid, i));
    }
  }
  return 0;
}
