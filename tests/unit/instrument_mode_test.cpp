// The mode interface and the job around it: a mode the library does not list (a fake, opened
// through InstrumentOptions::open) is driven by instrument_module and by the whole job
// (instrument::run_job) in the documented order, with no change to either; open_mode opens every
// listed mode; and the PDB's one home (pdb_files.h) says where it is and how its id is written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <stdlib.h>

#include <fmt/format.h>

#include "il/body_reader.h"
#include "il/instruction.h"
#include "instrument/instrument_mode.h"
#include "instrument/instrumenter.h"
#include "instrument/job.h"
#include "instrument/pdb_files.h"
#include "metadata/module.h"
#include "support/byte_reader.h"

namespace cil::instrument {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) { return std::string(CIL_TESTDATA_DIR) + "/bin/" + name; }

/// What the fake mode was asked, in order.
struct Calls {
  std::vector<std::string> log;
  bool has(const std::string& call) const { return std::find(log.begin(), log.end(), call) != log.end(); }
};

/// A mode no switch in the library knows: every body gets a nop in front, odd rows are left out,
/// and one method's edit fails.
class FakeMode final : public InstrumentMode {
 public:
  FakeMode(Calls& calls, uint32_t failing) : calls_(calls), failing_(failing) { nop_.push_back(Instr{.id = 0, .op = Op::Nop}); }
  const md::RuntimeRefs* refs() const override { return nullptr; }
  Status measure(CallEffects&) override {
    calls_.log.push_back("measure");
    return ok();
  }
  bool excludes(md::MethodDefId method) override { return method.value() % 2 == 1; }
  Status edit(md::MethodDefId method, const std::string&, CallEffects&, BodyEdit& edit) override {
    uint32_t rid = method.value();
    calls_.log.push_back(fmt::format("edit {}", rid));
    if (rid == failing_) return make_error(ErrorKind::Unsupported, "fake mode", "refuses this method");
    edit.entry_code = nop_;
    edit.entry_max_stack = 0;
    return ok();
  }
  Status commit(md::MethodDefId method, std::string_view) override {
    calls_.log.push_back(fmt::format("commit {}", method.value()));
    return ok();
  }
  Status finish(CallEffects&) override {
    calls_.log.push_back("finish");
    return ok();
  }

 private:
  Calls& calls_;
  uint32_t failing_;
  std::vector<Instr> nop_;
};

ModeOpener fake_opener(Calls& calls, uint32_t failing) {
  return [&calls, failing](const ModeContext&) -> Expected<std::unique_ptr<InstrumentMode>> {
    calls.log.push_back("open");
    return std::unique_ptr<InstrumentMode>(std::make_unique<FakeMode>(calls, failing));
  };
}

/// The first instruction of MethodDef `rid`'s body in `m`.
Op first_op(const md::Module& m, uint32_t rid) {
  auto body = read_body(m, md::MethodDefId(rid));
  EXPECT_TRUE(body) << body.error().to_string();
  auto code = decode_code(body->code, body->code_file_offset);
  EXPECT_TRUE(code && !code->instructions.empty());
  return code->instructions.front().op;
}

TEST(InstrumentMode, AModeTheLibraryDoesNotListIsDrivenInOrder) {
  auto loaded = md::Module::load(fixture("Basics.dll"));
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  const md::Module& m = **loaded;
  // The first method with a body on an even row is the one whose edit fails.
  uint32_t failing = 0;
  for (uint32_t rid = 2; rid <= m.tables().rows(md::TableId::MethodDef) && !failing; rid += 2)
    if (m.row<md::TableId::MethodDef>(rid).rva()) failing = rid;
  ASSERT_NE(failing, 0u);

  Calls calls;
  InstrumentOptions options;
  options.pdb.mode = PdbOptions::Mode::None;
  options.open = fake_opener(calls, failing);
  auto report = instrument_module(m, options);
  ASSERT_TRUE(report) << report.error().to_string();

  ASSERT_GE(calls.log.size(), 3u);
  EXPECT_EQ(calls.log[0], "open");
  EXPECT_EQ(calls.log[1], "measure");
  EXPECT_EQ(calls.log.back(), "finish");
  ASSERT_FALSE(report->instrumented.empty());
  for (md::MethodDefId method : report->instrumented) {
    uint32_t rid = method.value();
    EXPECT_EQ(rid % 2, 0u) << "excludes() left odd rows out";
    auto edit = std::find(calls.log.begin(), calls.log.end(), fmt::format("edit {}", rid));
    ASSERT_NE(edit, calls.log.end());
    ASSERT_NE(edit + 1, calls.log.end());
    EXPECT_EQ(*(edit + 1), fmt::format("commit {}", rid)) << "commit follows its own edit";
  }
  // Left out by the mode: counted as excluded, never edited.
  EXPECT_FALSE(calls.has("edit 1"));
  EXPECT_GE(report->excluded, m.tables().rows(md::TableId::MethodDef) / 2);
  // A failed edit: skipped with the mode's reason, never committed.
  EXPECT_TRUE(calls.has(fmt::format("edit {}", failing)));
  EXPECT_FALSE(calls.has(fmt::format("commit {}", failing)));
  auto skipped = std::find_if(report->skipped.begin(), report->skipped.end(), [&](const SkippedMethod& s) { return s.method.value() == failing; });
  ASSERT_NE(skipped, report->skipped.end());
  EXPECT_EQ(skipped->reason, SkipReason::Unsupported);
  EXPECT_NE(skipped->detail.find("refuses this method"), std::string::npos) << skipped->detail;

  // What the mode asked for is in the output: a nop in front of every body it committed.
  auto out = md::Module::parse(report->output.flatten());
  ASSERT_TRUE(out) << out.error().to_string();
  for (md::MethodDefId method : report->instrumented) EXPECT_EQ(first_op(**out, method.value()), Op::Nop) << "MethodDef " << method.value();
}

TEST(InstrumentMode, TheWholeJobRunsAModeTheLibraryDoesNotList) {
  std::string templ = (fs::temp_directory_path() / "cil-mode-XXXXXX").string();
  ASSERT_NE(::mkdtemp(templ.data()), nullptr);
  fs::path dir = templ;
  Calls calls;
  JobSpec spec;
  spec.input = fixture("DebugInfo.Portable.dll");
  spec.output = (dir / "Out.dll").string();
  spec.options.open = fake_opener(calls, 0);
  JobResult job = run_job(spec);
  ASSERT_FALSE(job.error) << job.error->error.to_string();
  ASSERT_TRUE(job.report);
  ASSERT_FALSE(calls.log.empty()) << "the job opened the mode it was given";
  EXPECT_EQ(calls.log.front(), "open");
  EXPECT_EQ(calls.log.back(), "finish");
  // The output and the PDB beside it took their names, and the self-check ran on them.
  EXPECT_EQ(job.output_pdb, (dir / "Out.pdb").string());
  EXPECT_TRUE(fs::exists(dir / "Out.dll"));
  EXPECT_TRUE(fs::exists(dir / "Out.pdb"));
  ASSERT_TRUE(job.check);
  auto out = md::Module::load(spec.output);
  ASSERT_TRUE(out) << out.error().to_string();
  ASSERT_FALSE(job.report->instrumented.empty());
  EXPECT_EQ(first_op(**out, job.report->instrumented.front().value()), Op::Nop);
  fs::remove_all(dir);
}

TEST(InstrumentMode, AFailedJobWritesNothingAndSaysWhose) {
  std::string templ = (fs::temp_directory_path() / "cil-mode-XXXXXX").string();
  ASSERT_NE(::mkdtemp(templ.data()), nullptr);
  fs::path dir = templ;
  JobSpec spec;
  spec.input = (dir / "missing.dll").string();
  spec.output = (dir / "Out.dll").string();
  JobResult job = run_job(spec);
  ASSERT_TRUE(job.error);
  EXPECT_EQ(job.error->fault, JobFault::Input);
  EXPECT_EQ(job.error->error.file, spec.input);
  EXPECT_FALSE(fs::exists(dir / "Out.dll"));

  // A tampered output fails its self-check: the tool's fault, and no file takes its name.
  spec.input = fixture("Basics.dll");
  spec.tamper = [](std::span<uint8_t> bytes, std::span<uint8_t>, const InstrumentReport&) {
    uint32_t pe_header = load_le<uint32_t>(bytes.data() + 0x3c);  // e_lfanew
    std::fill(bytes.begin() + pe_header, bytes.begin() + pe_header + 4, uint8_t{0xFF});  // the PE signature
    return ok();
  };
  job = run_job(spec);
  ASSERT_TRUE(job.error);
  EXPECT_EQ(job.error->fault, JobFault::SelfCheck);
  EXPECT_FALSE(fs::exists(dir / "Out.dll"));
  fs::remove_all(dir);
}

TEST(InstrumentMode, OpenModeOpensEveryListedMode) {
  auto loaded = md::Module::load(fixture("Basics.dll"));
  ASSERT_TRUE(loaded);
  for (Mode mode : {Mode::Count, Mode::Noop, Mode::Wrap, Mode::Coverage}) {
    md::ModuleEditor editor(**loaded);
    md::Printer printer(**loaded);
    CoverageOptions coverage;
    ModeContext context{**loaded, editor, printer, nullptr, nullptr, &coverage};
    auto opened = open_mode(mode, context);
    ASSERT_TRUE(opened) << opened.error().to_string();
    // Only noop adds nothing to the module, so only it holds no core library references.
    EXPECT_EQ((*opened)->refs() == nullptr, mode == Mode::Noop);
  }
  md::ModuleEditor editor(**loaded);
  md::Printer printer(**loaded);
  ModeContext context{**loaded, editor, printer, nullptr, nullptr, nullptr};
  auto trace = open_mode(Mode::Trace, context);
  ASSERT_FALSE(trace);
  EXPECT_EQ(trace.error().kind, ErrorKind::Usage);
  EXPECT_NE(trace.error().message.find("--hooks"), std::string::npos);
}

TEST(PdbFiles, ThePdbBesideAnAssembly) {
  EXPECT_EQ(pdb_beside("App.dll"), "App.pdb");
  EXPECT_EQ(pdb_beside("dir/App.exe"), "dir/App.pdb");
  EXPECT_EQ(pdb_beside("dir.d/App"), "dir.d/App.pdb");  // a '.' in a directory is no extension
  EXPECT_EQ(pdb_beside(".hidden"), ".hidden.pdb");     // nor is a name's leading '.'
  EXPECT_EQ(pdb_beside("a.b.dll"), "a.b.pdb");
  EXPECT_EQ(input_pdb_path("", "dir/App.dll"), "dir/App.pdb");
  EXPECT_EQ(input_pdb_path("none", "dir/App.dll"), "");
  EXPECT_EQ(input_pdb_path("other/x.pdb", "dir/App.dll"), "other/x.pdb");
  PdbOptions none = pdb_options("none", "dir/App.dll", "out/New.pdb");
  EXPECT_EQ(none.mode, PdbOptions::Mode::None);
  EXPECT_EQ(none.output_file_name, "New.pdb");
  PdbOptions beside = pdb_options("", fixture("DebugInfo.Portable.dll"));
  EXPECT_EQ(beside.mode, PdbOptions::Mode::Auto);
  EXPECT_EQ(beside.path, fixture("DebugInfo.Portable.pdb"));
  EXPECT_TRUE(beside.bytes);
}

TEST(PdbFiles, APdbIdInEachStyle) {
  md::PdbId id{};
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(i + 1);
  // The GUID's first three fields are little-endian (format_guid), the stamp is too.
  EXPECT_EQ(pdb_id_text(id, PdbIdStyle::Summary), "04030201-0605-0807-090a-0b0c0d0e0f10-14131211");
  EXPECT_EQ(pdb_id_text(id, PdbIdStyle::Message), "04030201-0605-0807-090a-0b0c0d0e0f10 stamp 14131211");
}

}  // namespace
}  // namespace cil::instrument
