// Portable PDB reading and writing: SHA-256, the id rule, sequence point blobs, the #Pdb stream in
// the layout, and read-then-write identity on the fixtures' PDBs.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "metadata/pdb_stream.h"
#include "metadata/pdb_writer.h"
#include "metadata/portable_pdb.h"
#include "metadata/sequence_points.h"
#include "metadata/sha256.h"
#include "pe/debug_directory.h"
#include "pe/embedded_pdb.h"
#include "pe/image_writer.h"
#include "support/file_io.h"
#include "support/synthetic_image.h"

namespace cil::md {
namespace {

std::string hex(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::vector<uint8_t> bytes_of(std::string_view text) { return {text.begin(), text.end()}; }

TEST(Sha256, Fips180Vectors) {
  EXPECT_EQ(hex(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256(bytes_of("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(sha256(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::vector<uint8_t> million(1000000, 'a');
  EXPECT_EQ(hex(sha256(million)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PiecesAndZerosGiveTheWholeHash) {
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7);
  for (size_t cut : {0, 1, 63, 64, 65, 500, 999, 1000}) {
    Sha256 h;
    h.update(std::span<const uint8_t>(data).subspan(0, cut));
    h.update(std::span<const uint8_t>(data).subspan(cut));
    EXPECT_EQ(h.finish(), sha256(data)) << cut;
  }
  std::vector<uint8_t> zeroed = data;
  std::fill(zeroed.begin() + 100, zeroed.begin() + 120, 0);
  EXPECT_EQ(pdb_content_hash(data, 100), sha256(zeroed));
}

TEST(PdbId, FromHashSetsVersionVariantAndStampBits) {
  Sha256Digest hash;
  hash.fill(0xFF);
  PdbId id = pdb_id_from_hash(hash);
  EXPECT_EQ(id[7], 0x4F);
  EXPECT_EQ(id[8], 0xBF);
  EXPECT_EQ(id[19], 0xFF);
  hash.fill(0);
  id = pdb_id_from_hash(hash);
  EXPECT_EQ(id[7], 0x40);
  EXPECT_EQ(id[8], 0x80);
  EXPECT_EQ(id[19], 0x80);
  EXPECT_EQ(id[0], 0);
}

MethodSequencePoints decode(std::span<const uint8_t> blob, uint32_t row_document) {
  auto decoded = decode_sequence_points(ByteReader(blob, 0, "blob"), row_document);
  EXPECT_TRUE(decoded) << (decoded ? "" : decoded.error().to_string());
  return decoded ? *decoded : MethodSequencePoints{};
}

TEST(SequencePoints, RoundTripWithHiddenPointsAndDocuments) {
  MethodSequencePoints sp;
  sp.local_signature = 3;
  sp.points = {{0, 1, 10, 10, 5, 6},
               SequencePoint::make_hidden(2, 1),
               {7, 1, 12, 14, 9, 3},
               {9, 2, 3, 3, 1, 40},  // another document: a document record
               SequencePoint::make_hidden(0x4000, 2),
               {0x4001, 2, 1, 1, 0x200, 0x201}};
  for (uint32_t row_document : {0u, 1u}) {
    auto blob = encode_sequence_points(sp, row_document);
    ASSERT_TRUE(blob) << blob.error().to_string();
    MethodSequencePoints expected = sp;
    expected.initial_document = row_document ? 0 : 1;  // a blob names its first document itself
    EXPECT_EQ(decode(*blob, row_document), expected);
  }
  // No points in a row without a document: the blob still names one, as it was.
  MethodSequencePoints empty;
  empty.initial_document = 2;
  auto blob = encode_sequence_points(empty, 0);
  ASSERT_TRUE(blob);
  EXPECT_EQ(hex(*blob), "0002");
  EXPECT_EQ(decode(*blob, 0), empty);
  EXPECT_EQ(single_document(sp), 0u);
  sp.points.resize(3);
  EXPECT_EQ(single_document(sp), 1u);
}

TEST(SequencePoints, FirstVisiblePointAfterHiddenOnesIsAbsolute) {
  MethodSequencePoints sp;
  sp.points = {SequencePoint::make_hidden(0, 1), {4, 1, 100, 100, 3, 9}};
  auto blob = encode_sequence_points(sp, 1);
  ASSERT_TRUE(blob);
  // header 0; hidden: 0 0 0; visible: 4, ΔLines 0, ΔColumns 6, start line 100, start column 3.
  EXPECT_EQ(hex(*blob), "000000000400066403");
  EXPECT_EQ(decode(*blob, 1), sp);
}

TEST(SequencePoints, EncodeRefusesWhatTheFormatCannotHold) {
  MethodSequencePoints sp;
  sp.points = {{4, 1, 1, 1, 1, 2}, {4, 1, 2, 2, 1, 2}};
  EXPECT_FALSE(encode_sequence_points(sp, 1));  // offsets must ascend strictly
  sp.points = {{4, 1, 5, 4, 1, 2}};
  EXPECT_FALSE(encode_sequence_points(sp, 1));  // ends before it starts
  sp.points = {{4, 1, 5, 5, 3, 3}};
  EXPECT_FALSE(encode_sequence_points(sp, 1));  // empty span on one line
  sp.points = {{4, 1, 1, 1, 1, 2}, {6, 1, 0x1FFFFFF0, 0x1FFFFFF0, 1, 2}};
  EXPECT_FALSE(encode_sequence_points(sp, 1));  // line delta beyond a compressed signed integer
  sp.points = {{4, 2, 1, 1, 1, 2}};
  EXPECT_FALSE(encode_sequence_points(sp, 1));  // first point not in the row's document
}

TEST(SequencePoints, DecodeRefusesMalformedBlobs) {
  struct Case {
    const char* what;
    std::vector<uint8_t> blob;
    uint32_t row_document;
  };
  const Case cases[] = {
      {"truncated record", {0x00, 0x00, 0x01}, 1},
      // ΔLines 1 from start line 0x1FFFFFFF: the end line is out of range.
      {"end line out of range", {0x00, 0x00, 0x01, 0x02, 0xDF, 0xFF, 0xFF, 0xFF, 0x00}, 1},
      // Line 5, then a point 64 lines before it.
      {"negative start line", {0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x02, 0x00, 0x01, 0x01, 0x00}, 1},
      {"column out of range", {0x00, 0x00, 0x00, 0x01, 0x05, 0xC0, 0x01, 0x00, 0x00}, 1},
      {"bad compressed integer", {0x00, 0xFF}, 1},
      {"no initial document", {0x00}, 0},
  };
  for (const auto& c : cases) {
    auto decoded = decode_sequence_points(ByteReader(c.blob, 0, "blob"), c.row_document);
    EXPECT_FALSE(decoded) << c.what;
  }
}

TEST(PdbStream, ParseEncodeAndRefusals) {
  PdbStream s;
  for (size_t i = 0; i < s.id.size(); ++i) s.id[i] = static_cast<uint8_t>(i);
  s.entry_point = 0x06000003;
  s.set_rows(TableId::MethodDef, 70000);
  s.set_rows(TableId::TypeRef, 0);  // referenced with no rows: kept
  auto bytes = s.encode();
  auto parsed = PdbStream::parse(ByteReader(bytes, 0, "#Pdb stream"));
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(parsed->encode(), bytes);
  EXPECT_EQ(parsed->rows[static_cast<uint8_t>(TableId::MethodDef)], 70000u);

  auto debug_table = bytes;
  debug_table[24 + 6] |= 0x01;  // bit 0x30 (Document) is not a type-system table
  EXPECT_FALSE(PdbStream::parse(ByteReader(debug_table, 0, "#Pdb stream")));
  auto too_many = bytes;
  store_le<uint32_t>(too_many.data() + 32 + 4, 0x01000000);
  auto limit = PdbStream::parse(ByteReader(too_many, 0, "#Pdb stream"));
  ASSERT_FALSE(limit);
  EXPECT_EQ(limit.error().kind, ErrorKind::Limit);
}

TEST(TableLayout, ReferencedRowsWidenIndexesIntoOtherMetadata) {
  TableLayout l;
  l.referenced_rows[static_cast<uint8_t>(TableId::MethodDef)] = 0xFFFF;
  l.compute();
  EXPECT_EQ(l.table(TableId::LocalScope).width[col::LocalScope::Method], 2);
  EXPECT_EQ(l.table(TableId::CustomDebugInformation).width[col::CustomDebugInformation::Parent], 4);  // 5 tag bits
  l.referenced_rows[static_cast<uint8_t>(TableId::MethodDef)] = 0x10000;
  l.compute();
  EXPECT_EQ(l.table(TableId::LocalScope).width[col::LocalScope::Method], 4);
  EXPECT_EQ(l.table(TableId::StateMachineMethod).row_size, 8u);
}

std::string fixture(const std::string& name) { return std::string(CIL_TESTDATA_DIR) + "/bin/" + name; }

std::unique_ptr<PortablePdb> load_pdb(const std::string& path) {
  auto bytes = read_file(path);
  EXPECT_TRUE(bytes) << path;
  if (!bytes) return nullptr;
  auto pdb = PortablePdb::parse(std::move(*bytes));
  EXPECT_TRUE(pdb) << path << ": " << (pdb ? "" : pdb.error().to_string());
  return pdb ? std::move(*pdb) : nullptr;
}

TEST(PortablePdb, FixtureIdIsTheContentHashRoslynRecorded) {
  auto pdb = load_pdb(fixture("DebugInfo.Portable.pdb"));
  ASSERT_TRUE(pdb);
  auto image_bytes = read_file(fixture("DebugInfo.Portable.dll"));
  ASSERT_TRUE(image_bytes);
  auto image = pe::PeImage::parse(*image_bytes);
  ASSERT_TRUE(image);
  auto entries = pe::read_debug_directory(*image);
  ASSERT_TRUE(entries);
  const pe::DebugEntry* codeview = nullptr;
  const pe::DebugEntry* checksum = nullptr;
  for (const auto& e : *entries) {
    if (e.codeview) codeview = &e;
    if (e.pdb_checksum) checksum = &e;
  }
  ASSERT_TRUE(codeview && checksum);
  EXPECT_TRUE(std::equal(codeview->codeview->guid.begin(), codeview->codeview->guid.end(), pdb->id().begin()));
  EXPECT_EQ(load_le<uint32_t>(pdb->id().data() + 16), codeview->timestamp);
  Sha256Digest hash = pdb_content_hash(pdb->bytes(), pdb->pdb_stream().file_offset);
  EXPECT_EQ(checksum->pdb_checksum->algorithm, "SHA256");
  EXPECT_EQ(hex(hash), hex(checksum->pdb_checksum->checksum));
  EXPECT_EQ(pdb_id_from_hash(hash), pdb->id());
}

TEST(PortablePdb, ReadThenWriteGivesTheSameBytes) {
  auto pdb = load_pdb(fixture("DebugInfo.Portable.pdb"));
  ASSERT_TRUE(pdb);
  PdbEditor editor(*pdb);
  auto written = editor.write();
  ASSERT_TRUE(written) << written.error().to_string();
  std::vector<uint8_t> bytes = written->bytes();
  EXPECT_EQ(bytes.size(), pdb->bytes().size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), pdb->bytes().begin(), pdb->bytes().end()));
  EXPECT_EQ(written->id, pdb->id());
}

TEST(EmbeddedPdb, PayloadOfPiecesInflatesToTheirBytes) {
  // The written PDB is pieces (views of the input PDB and new bytes): one deflate stream over
  // them, whatever their sizes, must inflate to the file they make together.
  auto pdb = load_pdb(fixture("DebugInfo.Portable.pdb"));
  ASSERT_TRUE(pdb);
  std::span<const uint8_t> all = pdb->bytes();
  ASSERT_GT(all.size(), 100u);
  pe::OutputImage image;
  image.append_view(all.subspan(0, 1));
  image.append_owned({all.begin() + 1, all.begin() + 77});
  image.append_view(all.subspan(77, 0));
  image.append_view(all.subspan(77));
  auto payload = pe::embedded_pdb_payload(image);
  ASSERT_TRUE(payload) << payload.error().to_string();
  auto inflated = pe::inflate_embedded_pdb(*payload, 0);
  ASSERT_TRUE(inflated) << inflated.error().to_string();
  EXPECT_TRUE(std::equal(inflated->begin(), inflated->end(), all.begin(), all.end()));
  EXPECT_EQ(*payload, *pe::embedded_pdb_payload(all));  // the same stream as from one buffer

  pe::OutputImage in_place;
  in_place.append_in_place(2, 0);
  EXPECT_FALSE(pe::embedded_pdb_payload(in_place));
}

TEST(PortablePdb, EverySequencePointBlobReencodesToItsBytes) {
  auto pdb = load_pdb(fixture("DebugInfo.Portable.pdb"));
  ASSERT_TRUE(pdb);
  const TablesStream& t = pdb->tables();
  ASSERT_EQ(t.rows(TableId::MethodDebugInformation), pdb->method_count());
  size_t with_points = 0;
  for (uint32_t rid = 1; rid <= t.rows(TableId::MethodDebugInformation); ++rid) {
    uint32_t blob = t.get(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::SequencePoints);
    if (!blob) continue;
    uint32_t document = t.get(TableId::MethodDebugInformation, rid, col::MethodDebugInformation::Document);
    auto points = pdb->sequence_points(md::MethodDefId(rid));
    ASSERT_TRUE(points) << points.error().to_string();
    auto encoded = encode_sequence_points(*points, document);
    ASSERT_TRUE(encoded);
    auto original = pdb->metadata().blobs().get(blob);
    ASSERT_TRUE(original);
    EXPECT_TRUE(std::equal(encoded->begin(), encoded->end(), original->begin(), original->end())) << "method " << rid;
    ++with_points;
  }
  EXPECT_GT(with_points, 2u);
  EXPECT_NE(pdb->document_name(md::DocumentId(1)).find("DebugInfo"), std::string::npos) << pdb->document_name(md::DocumentId(1));
}

TEST(PortablePdb, RefusesWhatIsNotAStandalonePortablePdb) {
  std::vector<uint8_t> windows(kWindowsPdbSignature.begin(), kWindowsPdbSignature.end());
  windows.resize(4096);
  auto w = PortablePdb::parse(windows);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().kind, ErrorKind::Unsupported);
  EXPECT_TRUE(is_windows_pdb(windows));

  // Assembly metadata (no #Pdb stream).
  testing::TablesBuilder tables;
  testing::StringsBuilder strings;
  testing::BlobBuilder blobs;
  tables.add(TableId::Module, {0, strings.add("m"), 1, 0, 0});
  auto no_pdb = PortablePdb::parse(testing::metadata_root(tables, strings, blobs));
  ASSERT_FALSE(no_pdb);
  EXPECT_NE(no_pdb.error().message.find("#Pdb"), std::string::npos);
}

}  // namespace
}  // namespace cil::md
