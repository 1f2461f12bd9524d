// The cuts of dead bytes from the metadata's section (pe/section_cuts.h) on a real Roslyn file
// (PE32: import table, entry stub and a relocation in .text): what is cut is only what was called
// dead, never a byte the image points at; sizes keep alignment; every pointer follows; the
// written file reads back with the same CLI header contents; an image with a pointer kind the
// writer does not follow gets no cuts.
#include <gtest/gtest.h>

#include "metadata/module.h"
#include "metadata/module_editor.h"
#include "pe/cli_header.h"
#include "pe/section_cuts.h"

namespace cil {
namespace {

std::unique_ptr<md::Module> load(const char* name) {
  auto loaded = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
  if (!loaded) ADD_FAILURE() << loaded.error().to_string();
  return loaded ? std::move(*loaded) : nullptr;
}

TEST(SectionCuts, TheWholeSectionDeadKeepsEveryByteTheImagePointsAt) {
  auto m = load("Basics.dll");
  ASSERT_TRUE(m);
  const pe::PeImage& image = m->image();
  const pe::CliHeader& cli = m->cli();
  const pe::SectionHeader* s = image.section_for_rva(cli.metadata.rva);
  ASSERT_TRUE(s);
  std::vector<pe::RvaRange> dead{{s->virtual_address, s->virtual_address + s->raw_size}};
  std::vector<uint32_t> live;
  pe::SectionCuts cuts = pe::plan_cuts(image, cli, dead, live);
  ASSERT_FALSE(cuts.empty());
  EXPECT_EQ(cuts.total() % image.headers().file_alignment, 0u);
  uint32_t sum = 0;
  for (const auto& r : cuts.ranges()) {
    EXPECT_EQ((r.to - r.from) % 16, 0u);
    sum += r.to - r.from;
  }
  EXPECT_EQ(sum, cuts.total());
  const auto& h = image.headers();
  for (auto index : {pe::kImportDirectory, pe::kDebugDirectory, pe::kIatDirectory, pe::kClrDirectory}) {
    pe::DataDirectory d = image.directory(index);
    if (!d.rva) continue;
    for (uint32_t rva = d.rva; rva < d.rva + d.size; ++rva) EXPECT_FALSE(cuts.cut(rva)) << "directory " << index;
  }
  EXPECT_FALSE(cuts.cut(h.entry_point_rva));
  // The entry stub moved: its jump's operand (the relocated VA of the IAT) follows the IAT.
  ASSERT_TRUE(image.directory(pe::kBaseRelocDirectory).size);
  EXPECT_LT(cuts.rva(h.entry_point_rva), h.entry_point_rva);
  bool reloc_patched = false, cli_patched = false;
  for (const auto& p : cuts.patches()) {
    auto at = image.rva_to_offset(image.directory(pe::kBaseRelocDirectory).rva, 4, "relocations");
    if (at && p.offset == *at) reloc_patched = true;
    if (p.offset == h.directories_offset + pe::kClrDirectory * 8) cli_patched = true;
  }
  EXPECT_TRUE(reloc_patched);
  // The CLI header right after the IAT does not move, and its directory entry is left alone.
  EXPECT_EQ(cuts.rva(image.directory(pe::kClrDirectory).rva), image.directory(pe::kClrDirectory).rva);
  EXPECT_FALSE(cli_patched);
}

TEST(SectionCuts, OnlyTheDeadRangesGoAndRvasFollow) {
  auto m = load("Basics.dll");
  ASSERT_TRUE(m);
  const pe::CliHeader& cli = m->cli();
  std::vector<pe::RvaRange> dead{{cli.metadata.rva, cli.metadata.rva + cli.metadata.size}};
  // A pointer into the middle of the metadata keeps its byte: the range splits around it.
  std::vector<uint32_t> live{cli.metadata.rva + cli.metadata.size / 2};
  pe::SectionCuts cuts = pe::plan_cuts(m->image(), cli, dead, live);
  ASSERT_FALSE(cuts.empty());
  EXPECT_FALSE(cuts.cut(live[0]));
  for (const auto& r : cuts.ranges()) {
    EXPECT_GE(r.from, cli.metadata.rva);
    EXPECT_LE(r.to, cli.metadata.rva + cli.metadata.size);
  }
  uint32_t after = cli.metadata.rva + cli.metadata.size;
  uint32_t before_cuts = 0;
  for (const auto& r : cuts.ranges()) before_cuts += r.to - r.from;
  EXPECT_EQ(cuts.rva(after), after - before_cuts);
  EXPECT_EQ(cuts.rva(cli.metadata.rva), cli.metadata.rva);
  // Addresses outside the section do not move.
  const pe::SectionHeader* s = m->image().section_for_rva(cli.metadata.rva);
  uint32_t past = s->virtual_address + s->mapped_size() + 0x10;
  EXPECT_EQ(cuts.rva(past), past);
}

TEST(SectionCuts, AnImageWithAPointerKindNotFollowedGetsNoCuts) {
  auto m = load("Basics.dll");
  ASSERT_TRUE(m);
  pe::CliHeader cli = m->cli();
  std::vector<pe::RvaRange> dead{{cli.metadata.rva, cli.metadata.rva + cli.metadata.size}};
  cli.vtable_fixups = {cli.metadata.rva + cli.metadata.size, 8};  // native code's table
  EXPECT_TRUE(pe::plan_cuts(m->image(), cli, dead, {}).empty());
  cli = m->cli();
  cli.flags &= ~pe::kComImageIlOnly;
  EXPECT_TRUE(pe::plan_cuts(m->image(), cli, dead, {}).empty());
}

TEST(SectionCuts, TheWrittenFileReadsBackSmallerWithTheSameContents) {
  auto m = load("Basics.dll");
  ASSERT_TRUE(m);
  md::ModuleEditor editor(*m);
  auto out = editor.write();
  ASSERT_TRUE(out) << out.error().to_string();
  std::vector<uint8_t> bytes = out->flatten();
  auto back = md::Module::parse(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  // The old metadata (5,524 bytes) is gone from .text, whole blocks of FileAlignment of it; .text
  // keeps its size in memory.
  const pe::SectionHeader& in_text = m->image().sections()[0];
  const pe::SectionHeader& out_text = (*back)->image().sections()[0];
  EXPECT_EQ(out_text.virtual_address, in_text.virtual_address);
  EXPECT_EQ(in_text.mapped_size() - out_text.mapped_size(), in_text.raw_size - out_text.raw_size);
  EXPECT_GE(in_text.raw_size - out_text.raw_size, 4096u);
  EXPECT_EQ((in_text.raw_size - out_text.raw_size) % m->image().headers().file_alignment, 0u);
  const auto& t = m->tables();
  ASSERT_EQ((*back)->tables().rows(md::TableId::MethodDef), t.rows(md::TableId::MethodDef));
  for (uint32_t rid = 1; rid <= t.rows(md::TableId::MethodDef); ++rid) {
    uint32_t in_rva = m->row<md::TableId::MethodDef>(rid).rva(), out_rva = (*back)->row<md::TableId::MethodDef>(rid).rva();
    if (!in_rva) continue;
    auto a = m->image().reader_at(in_rva, 1, "body"), b = (*back)->image().reader_at(out_rva, 1, "body");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a->u8(), *b->u8()) << "MethodDef " << rid;
  }
  EXPECT_EQ((*back)->image().headers().entry_point_rva != 0, m->image().headers().entry_point_rva != 0);
}

}  // namespace
}  // namespace cil
