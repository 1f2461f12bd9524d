// cil_fuzz_seeds OUT_DIR FILE...: cuts seed inputs for every fuzz target out of real assemblies:
// OUT_DIR/pe and OUT_DIR/pipeline get whole files (up to 256 KiB), OUT_DIR/metadata the metadata
// root, OUT_DIR/il each method body (after the two edit bytes the IL target reads first), and
// OUT_DIR/signature each distinct signature blob (after the byte that picks its decoder), and
// OUT_DIR/pdb each portable PDB: the .pdb files given, and every embedded one, inflated.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "metadata/module.h"
#include "metadata/portable_pdb.h"
#include "pe/debug_directory.h"
#include "pe/embedded_pdb.h"
#include "support/file_io.h"

namespace {

using namespace cil;
using md::TableId;
namespace fs = std::filesystem;

constexpr size_t kMaxWholeFile = 256 * 1024;

void save(const fs::path& dir, const std::string& name, std::span<const uint8_t> bytes) {
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::set<std::vector<uint8_t>> g_signatures;

void save_signature(const fs::path& out, const std::string& stem, const md::Module& m, uint32_t blob, uint8_t decoder) {
  auto bytes = m.blobs().get(blob);
  if (!bytes || bytes->empty()) return;
  std::vector<uint8_t> seed{decoder};
  seed.insert(seed.end(), bytes->begin(), bytes->end());
  if (!g_signatures.insert(seed).second) return;
  save(out / "signature", fmt::format("{}-{}", stem, g_signatures.size()), seed);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cil_fuzz_seeds OUT_DIR FILE...\n");
    return 2;
  }
  fs::path out = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string stem = fs::path(argv[i]).filename().string();
    auto bytes = read_file(argv[i]);
    if (!bytes) continue;
    if (fs::path(argv[i]).extension() == ".pdb") {
      if (md::PortablePdb::parse(*bytes)) save(out / "pdb", stem, *bytes);
      continue;
    }
    if (auto image = pe::PeImage::parse(*bytes)) {
      if (auto entries = pe::read_debug_directory(*image))
        for (const auto& e : *entries)
          if (e.type == pe::kDebugTypeEmbeddedPortablePdb)
            if (auto pdb = pe::read_embedded_pdb(*image, e)) save(out / "pdb", stem + ".embedded.pdb", *pdb);
    }
    if (bytes->size() <= kMaxWholeFile) {
      save(out / "pe", stem, *bytes);
      save(out / "pipeline", stem, *bytes);
    }
    auto module = md::Module::parse(std::move(*bytes));
    if (!module) continue;
    const md::Module& m = **module;
    const auto& md = m.metadata();
    save(out / "metadata", stem, m.bytes().subspan(md.file_offset(), md.size()));

    const auto& t = m.tables();
    for (uint32_t rid = 1; rid <= t.rows(TableId::MethodDef); ++rid) {
      save_signature(out, stem, m, m.row<TableId::MethodDef>(rid).signature_index(), 0);
      if (!il::has_il_body(m, md::MethodDefId(rid))) continue;
      auto body = il::read_body(m, md::MethodDefId(rid));
      if (!body) continue;
      std::vector<uint8_t> seed{static_cast<uint8_t>(rid * 7), static_cast<uint8_t>(rid)};
      auto raw = m.bytes().subspan(body->file_offset, body->total_size);
      seed.insert(seed.end(), raw.begin(), raw.end());
      save(out / "il", fmt::format("{}-{}", stem, rid), seed);
    }
    for (uint32_t rid = 1; rid <= t.rows(TableId::Field); ++rid)
      save_signature(out, stem, m, m.row<TableId::Field>(rid).signature_index(), 1);
    for (uint32_t rid = 1; rid <= t.rows(TableId::Property); ++rid)
      save_signature(out, stem, m, m.row<TableId::Property>(rid).type_index(), 2);
    for (uint32_t rid = 1; rid <= t.rows(TableId::StandAloneSig); ++rid)
      save_signature(out, stem, m, m.row<TableId::StandAloneSig>(rid).signature_index(), 3);
    for (uint32_t rid = 1; rid <= t.rows(TableId::MethodSpec); ++rid)
      save_signature(out, stem, m, m.row<TableId::MethodSpec>(rid).instantiation_index(), 4);
    for (uint32_t rid = 1; rid <= t.rows(TableId::TypeSpec); ++rid)
      save_signature(out, stem, m, m.row<TableId::TypeSpec>(rid).signature_index(), 5);
    for (uint32_t rid = 1; rid <= t.rows(TableId::MemberRef); ++rid)
      save_signature(out, stem, m, m.row<TableId::MemberRef>(rid).signature_index(), 0);
  }
  return 0;
}
