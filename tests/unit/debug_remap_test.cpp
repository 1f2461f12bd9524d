// Debug information through hand-made offset maps: sequence points, scopes, hoisted local scopes,
// async stepping information, and a whole PDB rewritten for shifted bodies.
#include <gtest/gtest.h>

#include "il/body_reader.h"
#include "instrument/debug_remap.h"
#include "il/instruction.h"
#include "instrument/pdb_rewrite.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "support/file_io.h"

namespace cil::instrument {
namespace {

using md::SequencePoint;

// Instructions at 0, 2, 5, 6 of a 10-byte body; 4 bytes inserted at entry, the `ret` at 6 replaced
// by 5 bytes, and a 12-byte block appended after the original code.
OffsetMap sample_map() { return OffsetMap({{0, 4}, {2, 6}, {5, 9}, {6, 10}, {10, 15}}, 27); }

void put_u32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

TEST(DebugRemap, SequencePointsMoveWithTheirInstructions) {
  md::MethodSequencePoints in;
  in.local_signature = 4;
  in.points = {{0, 1, 10, 10, 5, 6}, SequencePoint::make_hidden(2, 1), {6, 2, 12, 12, 1, 2}};
  auto out = remap_sequence_points(in, sample_map());
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_EQ(out->local_signature, 4u);
  ASSERT_EQ(out->points.size(), 4u);
  EXPECT_EQ(out->points[0], (SequencePoint{0, 1, 10, 10, 5, 6}));  // entry code joins the first line
  EXPECT_EQ(out->points[1], SequencePoint::make_hidden(6, 1));
  EXPECT_EQ(out->points[2], (SequencePoint{10, 2, 12, 12, 1, 2}));
  // The appended block gets a hidden point in the last point's document.
  EXPECT_EQ(out->points[3], SequencePoint::make_hidden(15, 2));
}

TEST(DebugRemap, NoHiddenPointWithoutAppendedCodeOrPoints) {
  OffsetMap shifted({{0, 4}, {2, 6}, {10, 14}}, 14);
  md::MethodSequencePoints in;
  in.points = {{2, 1, 3, 3, 1, 9}};
  auto out = remap_sequence_points(in, shifted);
  ASSERT_TRUE(out);
  ASSERT_EQ(out->points.size(), 1u);
  EXPECT_EQ(out->points[0].offset, 6u);
  auto none = remap_sequence_points(md::MethodSequencePoints{}, sample_map());
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->points.empty());
}

TEST(DebugRemap, PointOfARemovedInstructionGoes) {
  // The instruction at 2 was removed: its boundary maps where the one at 5 now starts.
  OffsetMap removed({{0, 0}, {2, 2}, {5, 2}, {10, 7}}, 7);
  md::MethodSequencePoints in;
  in.points = {{0, 1, 1, 1, 1, 2}, {2, 1, 2, 2, 1, 2}, {5, 1, 3, 3, 1, 2}};
  auto out = remap_sequence_points(in, removed);
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_EQ(out->points.size(), 2u);
  EXPECT_EQ(out->points[1], (SequencePoint{2, 1, 3, 3, 1, 2}));
  EXPECT_TRUE(md::encode_sequence_points(*out, 1));
}

TEST(DebugRemap, PointInsideAnInstructionIsAnError) {
  md::MethodSequencePoints in;
  in.points = {{3, 1, 10, 10, 5, 6}};
  auto out = remap_sequence_points(in, sample_map());
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("IL_0003"), std::string::npos);
}

TEST(DebugRemap, ScopesKeepTheWholeMethodAndNest) {
  OffsetMap map = sample_map();
  auto whole = remap_scope({0, 10}, map);
  ASSERT_TRUE(whole);
  EXPECT_EQ(*whole, (ScopeRange{0, 27}));  // inserted and appended code inside the method's scope
  auto inner = remap_scope({2, 4}, map);
  ASSERT_TRUE(inner);
  EXPECT_EQ(*inner, (ScopeRange{6, 4}));
  auto to_end = remap_scope({5, 5}, map);
  ASSERT_TRUE(to_end);
  EXPECT_EQ(*to_end, (ScopeRange{9, 18}));
  auto from_start = remap_scope({0, 2}, map);
  ASSERT_TRUE(from_start);
  EXPECT_EQ(*from_start, (ScopeRange{0, 6}));
  EXPECT_FALSE(remap_scope({1, 4}, map));   // starts inside an instruction
  EXPECT_FALSE(remap_scope({2, 2}, map));   // ends inside one
  EXPECT_FALSE(remap_scope({6, 10}, map));  // runs past the code
}

TEST(DebugRemap, HoistedLocalScopes) {
  std::vector<uint8_t> value;
  for (uint32_t v : {0u, 0u, 2u, 4u, 0u, 10u}) put_u32(value, v);
  auto out = remap_hoisted_scopes(value, sample_map());
  ASSERT_TRUE(out) << out.error().to_string();
  std::vector<uint8_t> expected;
  for (uint32_t v : {0u, 0u, 6u, 4u, 0u, 27u}) put_u32(expected, v);
  EXPECT_EQ(*out, expected);
  value.pop_back();
  EXPECT_FALSE(remap_hoisted_scopes(value, sample_map()));
}

TEST(DebugRemap, AsyncSteppingInformation) {
  OffsetMap map = sample_map();
  OffsetMap other({{0, 0}, {3, 8}, {9, 14}}, 14);
  OffsetMapLookup lookup = [&](uint32_t rid) -> const OffsetMap* { return rid == 7 ? &map : rid == 9 ? &other : nullptr; };
  std::vector<uint8_t> value;
  put_u32(value, 5 + 1);  // catch handler at 5
  put_u32(value, 2);      // yield at 2, resume at 6 in method 7
  put_u32(value, 6);
  value.push_back(7);
  put_u32(value, 5);  // yield at 5, resume at 3 in method 9
  put_u32(value, 3);
  value.push_back(9);
  put_u32(value, 6);  // yield at 6, resume at 4 in method 11 (unchanged)
  put_u32(value, 4);
  value.push_back(11);
  auto out = remap_async_stepping(value, map, lookup);
  ASSERT_TRUE(out) << out.error().to_string();
  std::vector<uint8_t> expected;
  put_u32(expected, 9 + 1);
  put_u32(expected, 6);
  put_u32(expected, 10);
  expected.push_back(7);
  put_u32(expected, 9);
  put_u32(expected, 8);
  expected.push_back(9);
  put_u32(expected, 10);
  put_u32(expected, 4);
  expected.push_back(11);
  EXPECT_EQ(*out, expected);

  std::vector<uint8_t> no_handler(4, 0);
  auto none = remap_async_stepping(no_handler, map, lookup);
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, no_handler);
  value.resize(value.size() - 3);  // a truncated triple
  EXPECT_FALSE(remap_async_stepping(value, map, lookup));
}

std::string fixture(const std::string& name) { return std::string(CIL_TESTDATA_DIR) + "/bin/" + name; }

/// The map of a body with `shift` bytes inserted at entry, from its real instruction boundaries.
OffsetMap entry_shift(const md::Module& m, uint32_t rid, uint32_t shift) {
  auto body = read_body(m, md::MethodDefId(rid));
  EXPECT_TRUE(body);
  auto code = decode_code(body->code, body->code_file_offset);
  EXPECT_TRUE(code);
  std::vector<OffsetMap::Entry> entries;
  for (const auto& in : code->instructions) entries.push_back({in.offset, in.offset + shift});
  entries.push_back({body->code_size, body->code_size + shift});
  return OffsetMap(std::move(entries), body->code_size + shift);
}

/// The long way: decoded, moved, encoded.
std::vector<uint8_t> long_way(const md::PortablePdb& pdb, uint32_t rid, const OffsetMap& map, uint32_t local_signature) {
  auto points = pdb.sequence_points(md::MethodDefId(rid));
  EXPECT_TRUE(points);
  auto moved = remap_sequence_points(*points, map);
  EXPECT_TRUE(moved) << moved.error().to_string();
  moved->local_signature = local_signature;
  uint32_t document = md::MethodDebugInformationView(pdb.metadata(), rid).document();
  auto bytes = md::encode_sequence_points(*moved, document);
  EXPECT_TRUE(bytes) << bytes.error().to_string();
  return *bytes;
}

TEST(DebugRemap, ShiftedBlobIsWhatTheLongWayWrites) {
  // Every method of both fixtures' PDBs, with shifts that keep the first delta's width, widen it
  // (past 0x7F and 0x3FFF) or are 0, and a changed local signature.
  size_t fast = 0;
  for (const char* name : {"debug/DebugLines.Portable", "debug/Coverage"}) {
    SCOPED_TRACE(name);
    auto module = md::Module::load(fixture(std::string(name) + ".dll"));
    ASSERT_TRUE(module);
    const md::Module& m = **module;
    auto bytes = read_file(fixture(std::string(name) + ".pdb"));
    ASSERT_TRUE(bytes);
    auto parsed = md::PortablePdb::parse(std::move(*bytes));
    ASSERT_TRUE(parsed) << parsed.error().to_string();
    const md::PortablePdb& pdb = **parsed;
    uint32_t documents = pdb.tables().rows(md::TableId::Document);
    for (uint32_t rid = 1; rid <= pdb.tables().rows(md::TableId::MethodDebugInformation); ++rid) {
      md::MethodDebugInformationView row(pdb.metadata(), rid);
      if (!row.sequence_points_index() || !has_il_body(m, md::MethodDefId(rid))) continue;
      auto blob = pdb.metadata().blobs().get(row.sequence_points_index());
      ASSERT_TRUE(blob);
      for (uint32_t shift : {0u, 3u, 0x7Fu, 0x4000u}) {
        for (uint32_t signature : {0u, 5u, 0x200u}) {
          OffsetMap map = entry_shift(m, rid, shift);
          std::vector<uint8_t> out;
          ASSERT_TRUE(shift_sequence_points_blob(*blob, row.document(), documents, map, signature, out)) << rid;
          EXPECT_EQ(out, long_way(pdb, rid, map, signature)) << rid << " shift " << shift;
          ++fast;
        }
      }
    }
  }
  EXPECT_GT(fast, 100u);
}

TEST(DebugRemap, ShiftedBlobRefusesWhatTheEncoderWouldNotWrite) {
  // Instructions at 0, 2, 5 of an 8-byte body, moved by 4 bytes.
  OffsetMap map({{0, 4}, {2, 6}, {5, 9}, {8, 12}}, 12);
  std::vector<uint8_t> out;
  // Local signature 0; points at 0 (line 1, columns 1-2) and 2 (line 2, columns 1-3), document 1.
  const std::vector<uint8_t> good{0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x02, 0x00, 0x02, 0x02, 0x00};
  ASSERT_TRUE(shift_sequence_points_blob(good, 1, 1, map, 0, out));
  // The point at 2 is now at 6: its delta from 0 is 6.
  EXPECT_EQ(out, (std::vector<uint8_t>{0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x06, 0x00, 0x02, 0x02, 0x00}));
  std::vector<uint8_t> expected;
  md::MethodSequencePoints points;
  points.points = {{0, 1, 1, 1, 1, 2}, {6, 1, 2, 2, 1, 3}};
  ASSERT_TRUE(md::encode_sequence_points_into(points, 1, expected));
  EXPECT_EQ(out, expected);

  auto refused_with = [&](std::vector<uint8_t> blob, const OffsetMap& with, uint32_t documents) {
    return !shift_sequence_points_blob(blob, 1, documents, with, 0, out);
  };
  auto refused = [&](std::vector<uint8_t> blob) { return refused_with(std::move(blob), map, 1); };
  // A value in a longer form than its own: the encoder would write it shorter.
  EXPECT_TRUE(refused({0x80, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x02, 0x00, 0x02, 0x02, 0x00}));
  // A document record naming the current document, one that no point follows, one naming no row.
  EXPECT_TRUE(refused({0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00, 0x01, 0x02, 0x00, 0x02, 0x02, 0x00}));
  EXPECT_TRUE(refused_with({0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00, 0x02}, map, 2));
  EXPECT_TRUE(refused_with({0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00, 0x03, 0x02, 0x00, 0x02, 0x02, 0x00}, map, 2));
  // A point inside an instruction (at 3).
  EXPECT_TRUE(refused({0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x03, 0x00, 0x02, 0x02, 0x00}));
  // A truncated blob, a line out of range.
  EXPECT_TRUE(refused({0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x02, 0x00}));
  const std::vector<uint8_t> past_last_line{0x00, 0x00, 0x01, 0x02, 0xDF, 0xFF, 0xFF, 0xFF, 0x01};  // ends on line 0x20000000
  EXPECT_FALSE(md::decode_sequence_points(ByteReader(past_last_line, 0, "sequence points"), 1));
  EXPECT_TRUE(refused(past_last_line));
  // Maps the short way does not serve: code appended (a hidden point follows), and an
  // instruction a point names moved by another amount than the first.
  EXPECT_TRUE(refused_with(good, OffsetMap({{0, 4}, {2, 6}, {5, 9}, {8, 12}}, 20), 1));
  EXPECT_TRUE(refused_with(good, OffsetMap({{0, 4}, {2, 7}, {5, 10}, {8, 13}}, 13), 1));
  // Where the point at 2 is not named by the map that moved by another amount, the blob serves.
  EXPECT_FALSE(refused_with(good, OffsetMap({{0, 4}, {2, 6}, {5, 10}, {8, 13}}, 13), 1));
}

TEST(PdbRewrite, ShiftedBodiesMoveEveryOffsetAndKeepOtherRows) {
  auto module = md::Module::load(fixture("debug/DebugLines.Portable.dll"));
  ASSERT_TRUE(module);
  const md::Module& m = **module;
  auto bytes = read_file(fixture("debug/DebugLines.Portable.pdb"));
  ASSERT_TRUE(bytes);
  auto parsed = md::PortablePdb::parse(std::move(*bytes));
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  const md::PortablePdb& pdb = **parsed;
  uint32_t methods = m.tables().rows(md::TableId::MethodDef);
  ASSERT_TRUE(check_pdb_fits(pdb, methods));

  constexpr uint32_t kShift = 7;
  PdbRewriteInput input;
  input.methods.resize(methods + 1);
  for (uint32_t rid = 1; rid <= methods; ++rid)
    if (rid % 2 == 1 && has_il_body(m, md::MethodDefId(rid))) input.methods[rid] = RewrittenMethod{entry_shift(m, rid, kShift), 0};
  for (unsigned id = 0; id < md::kTableSlots; ++id) input.rows[id] = m.tables().rows(static_cast<md::TableId>(id));
  input.rows[static_cast<uint8_t>(md::TableId::MethodDef)] = methods + 3;  // three methods added

  auto written = rewrite_pdb(pdb, input);
  ASSERT_TRUE(written) << written.error().to_string();
  auto reread = md::PortablePdb::parse(written->bytes());
  ASSERT_TRUE(reread) << reread.error().to_string();
  const md::PortablePdb& out = **reread;
  EXPECT_NE(out.id(), pdb.id());
  EXPECT_EQ(out.method_count(), methods + 3);
  EXPECT_EQ(out.tables().rows(md::TableId::MethodDebugInformation), methods + 3);
  EXPECT_EQ(out.tables().rows(md::TableId::LocalScope), pdb.tables().rows(md::TableId::LocalScope));

  size_t moved_points = 0, moved_scopes = 0, moved_cdi = 0;
  for (uint32_t rid = 1; rid <= methods; ++rid) {
    auto before = pdb.sequence_points(md::MethodDefId(rid));
    auto after = out.sequence_points(md::MethodDefId(rid));
    ASSERT_TRUE(before && after);
    const bool rewritten = input.methods[rid].has_value();
    if (!rewritten) {
      EXPECT_EQ(*before, *after) << rid;
    } else if (!before->points.empty()) {
      ASSERT_EQ(after->points.size(), before->points.size()) << rid;  // no code appended: no extra point
      for (size_t i = 0; i < before->points.size(); ++i) {
        SequencePoint expected = before->points[i];
        if (expected.offset != 0) expected.offset += kShift;
        EXPECT_EQ(after->points[i], expected) << rid;
        ++moved_points;
      }
    }
    auto [first, last] = pdb.scopes_of(md::MethodDefId(rid));
    for (uint32_t row = first; row < last; ++row) {
      uint32_t start = pdb.tables().get(md::TableId::LocalScope, row, md::col::LocalScope::StartOffset);
      uint32_t length = pdb.tables().get(md::TableId::LocalScope, row, md::col::LocalScope::Length);
      uint32_t new_start = out.tables().get(md::TableId::LocalScope, row, md::col::LocalScope::StartOffset);
      uint32_t new_length = out.tables().get(md::TableId::LocalScope, row, md::col::LocalScope::Length);
      if (!rewritten) {
        EXPECT_EQ(new_start, start);
        EXPECT_EQ(new_length, length);
        continue;
      }
      EXPECT_EQ(new_start, start == 0 ? 0 : start + kShift) << "scope row " << row;
      EXPECT_EQ(new_start + new_length, start + length + kShift) << "scope row " << row;
      ++moved_scopes;
    }
    for (uint32_t row : pdb.method_custom_debug_info(md::MethodDefId(rid))) {
      md::Guid kind = pdb.custom_debug_info_kind(row);
      if (kind != md::kStateMachineHoistedLocalScopes && kind != md::kAsyncMethodSteppingInformation) continue;
      uint32_t old_value = pdb.tables().get(md::TableId::CustomDebugInformation, row, md::col::CustomDebugInformation::Value);
      uint32_t new_value = out.tables().get(md::TableId::CustomDebugInformation, row, md::col::CustomDebugInformation::Value);
      if (rewritten) {
        EXPECT_NE(old_value, new_value) << "custom debug information row " << row;
        ++moved_cdi;
      } else {
        EXPECT_EQ(old_value, new_value);
      }
    }
  }
  EXPECT_GT(moved_points, 10u);
  EXPECT_GT(moved_scopes, 3u);
  EXPECT_GT(moved_cdi, 0u);
}

TEST(PdbRewriter, MethodsInAnyOrderGiveTheSamePdb) {
  // The instrument job hands methods over one at a time as it rewrites them; the PDB must not
  // depend on their order (async stepping records may name another method's offsets).
  auto module = md::Module::load(fixture("debug/DebugLines.Portable.dll"));
  ASSERT_TRUE(module);
  const md::Module& m = **module;
  auto bytes = read_file(fixture("debug/DebugLines.Portable.pdb"));
  ASSERT_TRUE(bytes);
  auto parsed = md::PortablePdb::parse(std::move(*bytes));
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  const md::PortablePdb& pdb = **parsed;
  uint32_t methods = m.tables().rows(md::TableId::MethodDef);
  std::array<uint32_t, md::kTableSlots> rows{};
  for (unsigned id = 0; id < md::kTableSlots; ++id) rows[id] = m.tables().rows(static_cast<md::TableId>(id));

  PdbRewriteInput input;
  input.rows = rows;
  input.methods.resize(methods + 1);
  for (uint32_t rid = 1; rid <= methods; ++rid)
    if (has_il_body(m, md::MethodDefId(rid))) input.methods[rid] = RewrittenMethod{entry_shift(m, rid, 3 + rid % 5), rid};
  auto forward = rewrite_pdb(pdb, input);
  ASSERT_TRUE(forward) << forward.error().to_string();

  PdbRewriter rewriter(pdb);
  for (uint32_t rid = methods; rid >= 1; --rid) {
    if (input.methods[rid]) {
      ASSERT_TRUE(rewriter.method_rewritten(md::MethodDefId(rid), input.methods[rid]->map, rid));
    }
  }
  auto backward = rewriter.finish(rows);
  ASSERT_TRUE(backward) << backward.error().to_string();
  // The blobs are appended in the order the methods came, so the bytes differ; what they say
  // must not.
  auto a = md::PortablePdb::parse(forward->bytes());
  auto b = md::PortablePdb::parse(backward->bytes());
  ASSERT_TRUE(a && b);
  EXPECT_NE(forward->id, pdb.id());
  const md::TablesStream& ta = (*a)->tables();
  const md::TablesStream& tb = (*b)->tables();
  for (uint32_t rid = 1; rid <= methods; ++rid) {
    auto pa = (*a)->sequence_points(md::MethodDefId(rid));
    auto pb = (*b)->sequence_points(md::MethodDefId(rid));
    ASSERT_TRUE(pa && pb);
    EXPECT_EQ(*pa, *pb) << rid;
  }
  ASSERT_EQ(ta.rows(md::TableId::LocalScope), tb.rows(md::TableId::LocalScope));
  for (uint32_t row = 1; row <= ta.rows(md::TableId::LocalScope); ++row)
    for (uint8_t c : {md::col::LocalScope::StartOffset, md::col::LocalScope::Length})
      EXPECT_EQ(ta.get(md::TableId::LocalScope, row, c), tb.get(md::TableId::LocalScope, row, c)) << row;
  size_t async_rows = 0;
  for (uint32_t row = 1; row <= ta.rows(md::TableId::CustomDebugInformation); ++row) {
    auto va = (*a)->metadata().blobs().get(ta.get(md::TableId::CustomDebugInformation, row, md::col::CustomDebugInformation::Value));
    auto vb = (*b)->metadata().blobs().get(tb.get(md::TableId::CustomDebugInformation, row, md::col::CustomDebugInformation::Value));
    ASSERT_TRUE(va && vb);
    EXPECT_TRUE(std::equal(va->begin(), va->end(), vb->begin(), vb->end())) << "custom debug information row " << row;
    if ((*a)->custom_debug_info_kind(row) == md::kAsyncMethodSteppingInformation) ++async_rows;
  }
  EXPECT_GT(async_rows, 0u);
}

TEST(PdbRewriter, AFailedMethodFailsTheWholePdb) {
  auto module = md::Module::load(fixture("debug/DebugLines.Portable.dll"));
  ASSERT_TRUE(module);
  const md::Module& m = **module;
  auto bytes = read_file(fixture("debug/DebugLines.Portable.pdb"));
  ASSERT_TRUE(bytes);
  auto parsed = md::PortablePdb::parse(std::move(*bytes));
  ASSERT_TRUE(parsed);
  const md::PortablePdb& pdb = **parsed;
  // A method with a sequence point past its first instruction, told a map that knows only its
  // entry and end: the point falls inside no instruction the map names.
  uint32_t victim = 0;
  for (uint32_t rid = 1; rid <= pdb.method_count() && !victim; ++rid) {
    auto points = pdb.sequence_points(md::MethodDefId(rid));
    ASSERT_TRUE(points);
    for (const auto& p : points->points)
      if (p.offset != 0) victim = rid;
  }
  ASSERT_NE(victim, 0u);
  auto body = read_body(m, md::MethodDefId(victim));
  ASSERT_TRUE(body);
  OffsetMap lying({{0, 0}, {body->code_size, body->code_size}}, body->code_size);
  PdbRewriter rewriter(pdb);
  Status first = rewriter.method_rewritten(md::MethodDefId(victim), lying, 0);
  ASSERT_FALSE(first);
  EXPECT_NE(first.error().structure.find("MethodDebugInformation row"), std::string::npos) << first.error().to_string();
  // Later methods are refused with the same error, and no PDB is written.
  EXPECT_FALSE(rewriter.method_rewritten(md::MethodDefId(1), entry_shift(m, 1, 2), 0));
  std::array<uint32_t, md::kTableSlots> rows{};
  for (unsigned id = 0; id < md::kTableSlots; ++id) rows[id] = m.tables().rows(static_cast<md::TableId>(id));
  auto written = rewriter.finish(rows);
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().to_string(), first.error().to_string());
}

TEST(PdbRewrite, RefusesAPdbOfAnotherShape) {
  auto bytes = read_file(fixture("debug/DebugLines.Portable.pdb"));
  ASSERT_TRUE(bytes);
  auto parsed = md::PortablePdb::parse(std::move(*bytes));
  ASSERT_TRUE(parsed);
  Status fits = check_pdb_fits(**parsed, (*parsed)->method_count() + 1);
  ASSERT_FALSE(fits);
  EXPECT_NE(fits.error().message.find("methods"), std::string::npos);
}

}  // namespace
}  // namespace cil::instrument
