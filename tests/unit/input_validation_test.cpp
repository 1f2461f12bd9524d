// Input validation before writing (issue 36), in process over every fixture: each assembly cut at
// 50 offsets is refused by the reader or by the instrument job as malformed, with an error that
// names a structure and an offset, and no output; the tables' faults the output's self-check
// would find (lists past their tables or going back, a coded index naming no row) are refused
// on the input; a body token naming no row leaves that body as in the input, and what the job
// writes passes the self-check.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "instrument/instrumenter.h"
#include "instrument/output_check.h"
#include "metadata/module.h"
#include "metadata/reference_check.h"
#include "metadata/rows.h"
#include "pe/section_layout.h"

namespace cil::instrument {
namespace {

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::filesystem::path> fixtures() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(CIL_TESTDATA_DIR) + "/bin")) {
    auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".dll" || ext == ".exe")) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

InstrumentOptions count_options() {
  InstrumentOptions options;
  options.pdb.mode = PdbOptions::Mode::None;
  return options;
}

/// Read and instrumented as the job does: the first error, or none when an output was made.
std::optional<Error> refusal(std::vector<uint8_t> bytes) {
  auto m = md::Module::parse(std::move(bytes));
  if (!m) return m.error();
  auto report = instrument_module(**m, count_options());
  if (!report) return report.error();
  return std::nullopt;
}

TEST(InputValidation, EveryFixtureCutAtFiftyOffsetsIsRefusedWithAnOffset) {
  size_t cuts = 0;
  auto all = fixtures();
  ASSERT_GE(all.size(), 40u);
  for (const auto& path : all) {
    std::vector<uint8_t> whole = read_file(path);
    ASSERT_TRUE(refusal(whole) == std::nullopt || refusal(whole)->kind == ErrorKind::Unsupported) << path;
    for (size_t k = 1; k <= 50; ++k) {
      size_t at = whole.size() * k / 51;
      std::optional<Error> e = refusal(std::vector<uint8_t>(whole.begin(), whole.begin() + static_cast<ptrdiff_t>(at)));
      ++cuts;
      ASSERT_TRUE(e) << path << " cut at " << at << " was instrumented";
      EXPECT_TRUE(e->kind == ErrorKind::Format || e->kind == ErrorKind::Limit) << path << " cut at " << at << ": " << e->to_string();
      EXPECT_TRUE(e->offset) << path << " cut at " << at << ": no offset: " << e->to_string();
      EXPECT_FALSE(e->structure.empty()) << path << " cut at " << at << ": no structure: " << e->to_string();
    }
  }
  EXPECT_EQ(cuts, all.size() * 50);
}

/// The fixture with one 2-byte cell of `table` row `row` column `column` set to `value`.
std::vector<uint8_t> with_cell(const std::string& name, md::TableId table, uint32_t row, uint8_t column, uint16_t value) {
  std::vector<uint8_t> bytes = read_file(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
  auto m = md::Module::parse(bytes);
  EXPECT_TRUE(m);
  const md::TablesStream& t = (*m)->tables();
  const auto& layout = t.layout().table(table);
  EXPECT_EQ(layout.width[column], 2);
  uint64_t at = t.table_file_offset(table) + uint64_t{row - 1} * layout.row_size + layout.offset[column];
  bytes[at] = static_cast<uint8_t>(value);
  bytes[at + 1] = static_cast<uint8_t>(value >> 8);
  return bytes;
}

void expect_refused(std::vector<uint8_t> bytes, const std::string& says) {
  std::optional<Error> e = refusal(std::move(bytes));
  ASSERT_TRUE(e) << "instrumented: " << says;
  EXPECT_EQ(e->kind, ErrorKind::Format);
  EXPECT_NE(e->to_string().find(says), std::string::npos) << e->to_string();
  EXPECT_TRUE(e->offset);
}

TEST(InputValidation, TableFaultsTheSelfCheckWouldFindAreTheInputs) {
  using md::TableId;
  const std::string name = "Exceptions.dll";
  auto m = md::Module::load(std::string(CIL_TESTDATA_DIR) + "/bin/" + name);
  ASSERT_TRUE(m);
  const uint32_t types = (*m)->tables().rows(TableId::TypeDef), methods = (*m)->tables().rows(TableId::MethodDef);
  // Columns of TypeDef: Flags, TypeName, TypeNamespace, Extends, FieldList, MethodList (II.22.37).
  expect_refused(with_cell(name, TableId::TypeDef, types, 5, 0x7FF0), fmt::format("TypeDef row {} MethodList: names row 32752 of MethodDef", types));
  expect_refused(with_cell(name, TableId::TypeDef, types, 4, 0x7FF0), fmt::format("TypeDef row {} FieldList: names row 32752 of Field", types));
  expect_refused(with_cell(name, TableId::TypeDef, types, 5, 1), "a list never goes back");
  expect_refused(with_cell(name, TableId::TypeDef, types, 3, 0x3FF0 << 2 | 1), "Extends: coded index 0xffc1 names no row");
  // MethodDef: RVA, ImplFlags, Flags, Name, Signature, ParamList (II.22.26).
  expect_refused(with_cell(name, TableId::MethodDef, methods, 5, 0x7FF0), fmt::format("MethodDef row {} ParamList: names row 32752 of Param", methods));
}

TEST(InputValidation, ABodyTokenNamingNoRowLeavesTheBodyAndTheOutputPassesTheCheck) {
  // Exceptions.dll with the first `call` to a MemberRef in a constructor made to name row 0x7FF0.
  std::vector<uint8_t> bytes = read_file(std::string(CIL_TESTDATA_DIR) + "/bin/Exceptions.dll");
  const uint8_t pattern[] = {0x02, 0x28};
  size_t at = 0;
  for (auto it = bytes.begin();; ++it) {
    it = std::search(it, bytes.end(), std::begin(pattern), std::end(pattern));
    ASSERT_NE(it, bytes.end());
    at = static_cast<size_t>(it - bytes.begin()) + 2;
    if (bytes[at + 3] == 0x0A && bytes[at + 2] == 0) break;
  }
  bytes[at] = 0xF0;
  bytes[at + 1] = 0x7F;
  auto m = md::Module::parse(bytes);
  ASSERT_TRUE(m);
  auto report = instrument_module(**m, count_options());
  ASSERT_TRUE(report) << report.error().to_string();
  auto bad = std::find_if(report->skipped.begin(), report->skipped.end(), [](const SkippedMethod& s) { return s.malformed(); });
  ASSERT_NE(bad, report->skipped.end());
  EXPECT_NE(bad->detail.find("token 0x0A007FF0 names no row it may name"), std::string::npos) << bad->detail;
  std::vector<uint8_t> output = report->output.flatten();
  OutputExpectations expect;
  expect.rewritten = report->instrumented;
  expect.input_methods = (*m)->tables().rows(md::TableId::MethodDef);
  auto checked = check_output(output, expect);
  EXPECT_TRUE(checked) << checked.error().to_string();
}

TEST(InputValidation, OverlappingSectionsAreRefused) {
  std::vector<uint8_t> bytes = read_file(std::string(CIL_TESTDATA_DIR) + "/bin/Exceptions.dll");
  auto image = pe::PeImage::parse(bytes);
  ASSERT_TRUE(image);
  ASSERT_TRUE(pe::check_section_layout(*image));
  ASSERT_GE(image->sections().size(), 2u);
  // The second section's raw data moved onto the first's.
  uint64_t raw_offset_at = image->headers().section_table_offset + 40 + 20;
  uint32_t first = image->sections()[0].raw_offset;
  for (int i = 0; i < 4; ++i) bytes[raw_offset_at + i] = static_cast<uint8_t>(first >> (8 * i));
  auto moved = pe::PeImage::parse(bytes);
  ASSERT_TRUE(moved);
  Status layout = pe::check_section_layout(*moved);
  ASSERT_FALSE(layout);
  EXPECT_NE(layout.error().message.find("overlaps section"), std::string::npos) << layout.error().to_string();
  std::optional<Error> e = refusal(bytes);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ErrorKind::Format);
}

}  // namespace
}  // namespace cil::instrument
