// exec's journal and folder state (cli/jobs/exec_journal.h, cli/jobs/exec_folder.h): the journal's text
// round trip, one error for each way it can be wrong (truncated at any byte, garbage, another
// version, a path outside the folder), the rule that an original goes back only over the exact file
// exec put in place, recovery with --force, and the locks that keep a folder and the folders
// inside it from two execs at once. The real runs are in tests/scripts/exec_test.sh.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/jobs/exec_folder.h"
#include "cli/jobs/exec_journal.h"

namespace cil::cli {
namespace {

namespace fs = std::filesystem;

FileIdentity sample_identity(uint8_t seed) {
  FileIdentity id;
  id.size = 1000 + seed;
  id.mtime_ns = 1790000000123456789 + seed;
  for (size_t i = 0; i < id.sha256.size(); ++i) id.sha256[i] = static_cast<uint8_t>(seed * 7 + i);
  return id;
}

std::vector<JournalEntry> sample_entries() {
  return {{true, "App.dll", sample_identity(1)},
          {false, "App.pdb", sample_identity(2)},
          {true, "sub/odd name\twith%tab\nand newline.dll", sample_identity(3)}};
}

TEST(ExecJournal, RoundTrip) {
  auto entries = sample_entries();
  std::string text = format_journal(entries);
  auto back = parse_journal(text);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, entries);
  auto empty = parse_journal(format_journal({}));
  ASSERT_TRUE(empty) << empty.error().to_string();
  EXPECT_TRUE(empty->empty());
}

TEST(ExecJournal, EveryTruncationIsAnError) {
  std::string text = format_journal(sample_entries());
  for (size_t n = 0; n < text.size(); ++n) {
    auto parsed = parse_journal(std::string_view(text).substr(0, n));
    EXPECT_FALSE(parsed) << "a journal cut to " << n << " bytes was read";
    if (!parsed) {
      EXPECT_EQ(parsed.error().structure, "exec journal");
    }
  }
}

TEST(ExecJournal, Malformed) {
  std::string good = format_journal(sample_entries());
  auto error_of = [](std::string_view text) {
    auto parsed = parse_journal(text);
    return parsed ? std::string("(read)") : parsed.error().to_string();
  };
  EXPECT_EQ(error_of("\x7f\x45LF garbage\n"), "exec journal: not an exec journal (its first line is not the header) (offset 0x0)");
  EXPECT_EQ(error_of("cil-instrument exec journal 1\nreplace\tApp.dll\n"),
            "exec journal: version '1', this tool reads version 2 (offset 0x0)");
  std::string header = std::string(kJournalHeader) + "\n";
  std::string hash(64, 'a');
  EXPECT_EQ(error_of(header + "replace\t1\t2\t" + hash + "\t../up.dll\nend\t1\n"), "exec journal: a path outside the folder (offset 0x1e)");
  EXPECT_EQ(error_of(header + "replace\t1\t2\t" + hash + "\t/abs.dll\nend\t1\n"), "exec journal: a path outside the folder (offset 0x1e)");
  EXPECT_EQ(error_of(header + "replace\t1\t2\tzz\tA.dll\nend\t1\n"), "exec journal: malformed size, mtime or SHA-256 (offset 0x1e)");
  EXPECT_EQ(error_of(header + "move\t1\t2\t" + hash + "\tA.dll\nend\t1\n"),
            "exec journal: malformed line (expected replace|create, size, mtime, SHA-256, path) (offset 0x1e)");
  EXPECT_EQ(error_of(header + "end\t3\n"), "exec journal: the end line counts 3 entries, the journal has 0 (offset 0x1e)");
  EXPECT_EQ(error_of(header + "end\t0\nmore\n"), "exec journal: text after the end line (offset 0x24)");
  // A name that merely contains two dots stays inside the folder.
  auto dots = parse_journal(header + "replace\t1\t2\t" + hash + "\tA..B.dll\nend\t1\n");
  ASSERT_TRUE(dots) << dots.error().to_string();
  EXPECT_EQ((*dots)[0].relative, "A..B.dll");
  EXPECT_EQ(error_of(good), "(read)");
}

class ExecFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/cil-exec-journal-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }

  static void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  }
  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

  /// A folder with A.dll and sub/B.dll put in place by an exec that is then "killed" (its lock
  /// dropped without a restore), as exec's steps 1 and 2 do it.
  std::vector<JournalEntry> interrupted_run(const fs::path& dir) {
    write(dir / "A.dll", "original A");
    write(dir / "sub/B.dll", "original B");
    auto folder = ExecFolder::lock(dir);
    EXPECT_TRUE(folder) << folder.error().to_string();
    EXPECT_TRUE(folder->prepare());
    std::vector<JournalEntry> entries = {{true, "A.dll", {}}, {true, "sub/B.dll", {}}, {false, "A.pdb", {}}};
    write(folder->staged_path("A.dll"), "instrumented A");
    write(folder->staged_path("sub/B.dll"), "instrumented B");
    write(folder->staged_path("A.pdb"), "instrumented A's PDB");
    EXPECT_TRUE(folder->write_journal(entries));
    EXPECT_TRUE(folder->replace_all(entries));
    EXPECT_EQ(read(dir / "A.dll"), "instrumented A");
    return entries;
  }

  fs::path root_;
};

TEST_F(ExecFolderTest, PlacedState) {
  fs::path file = root_ / "F.dll";
  write(file, "instrumented");
  auto placed = identify_file(file.string());
  ASSERT_TRUE(placed);
  EXPECT_EQ(placed->size, 12u);
  EXPECT_EQ(*placed_state(file.string(), *placed), PlacedState::Same);
  // A rebuild: new content, new mtime.
  write(file, "rebuilt, longer");
  EXPECT_EQ(*placed_state(file.string(), *placed), PlacedState::Changed);
  // Same size and the same mtime (cp -p, a build restoring timestamps): the hash tells.
  write(file, "INSTRUMENTED");
  struct timespec times[2] = {{0, UTIME_OMIT},
                              {static_cast<time_t>(placed->mtime_ns / 1000000000), static_cast<long>(placed->mtime_ns % 1000000000)}};
  ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
  auto now = identify_file(file.string());
  ASSERT_TRUE(now);
  EXPECT_EQ(now->size, placed->size);
  EXPECT_EQ(now->mtime_ns, placed->mtime_ns);
  EXPECT_EQ(*placed_state(file.string(), *placed), PlacedState::Changed);
  fs::remove(file);
  EXPECT_EQ(*placed_state(file.string(), *placed), PlacedState::Missing);
}

TEST_F(ExecFolderTest, RestorePutsBackOnlyOverTheFileExecWrote) {
  fs::path dir = root_ / "app";
  interrupted_run(dir);
  write(dir / "sub/B.dll", "rebuilt B");  // the build ran while B was instrumented
  auto folder = ExecFolder::lock(dir);
  ASSERT_TRUE(folder);
  EXPECT_TRUE(folder->interrupted());
  auto restored = folder->restore();
  ASSERT_TRUE(restored) << restored.error().to_string();
  EXPECT_EQ(read(dir / "A.dll"), "original A");
  EXPECT_EQ(read(dir / "sub/B.dll"), "rebuilt B");
  EXPECT_FALSE(fs::exists(dir / "A.pdb"));
  EXPECT_EQ(restored->put_back, 2u);  // A.dll back, A.pdb removed
  ASSERT_EQ(restored->notes.size(), 1u);
  EXPECT_EQ(restored->notes[0].first, (dir / "sub/B.dll").string());
  EXPECT_NE(restored->notes[0].second.find("changed since exec put the instrumented file in place"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / std::string(kExecStateDir)));
  // Idempotent.
  auto again = folder->restore();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->put_back, 0u);
}

TEST_F(ExecFolderTest, KilledBetweenKeepingAsideAndReplacing) {
  // The original has its second name under originals/ but is still in place: it never left, and
  // no line may call it changed.
  fs::path dir = root_ / "app";
  write(dir / "A.dll", "original A");
  {
    auto folder = ExecFolder::lock(dir);
    ASSERT_TRUE(folder);
    ASSERT_TRUE(folder->prepare());
    std::vector<JournalEntry> entries = {{true, "A.dll", {}}};
    write(folder->staged_path("A.dll"), "instrumented A");
    ASSERT_TRUE(folder->write_journal(entries));
    ASSERT_EQ(::link((dir / "A.dll").c_str(), (dir / std::string(kExecStateDir) / "originals/A.dll").c_str()), 0);
  }
  auto folder = ExecFolder::lock(dir);
  ASSERT_TRUE(folder);
  auto restored = folder->restore();
  ASSERT_TRUE(restored) << restored.error().to_string();
  EXPECT_EQ(read(dir / "A.dll"), "original A");
  EXPECT_EQ(restored->put_back, 1u);
  EXPECT_TRUE(restored->notes.empty());
  EXPECT_FALSE(fs::exists(dir / std::string(kExecStateDir)));
}

TEST_F(ExecFolderTest, ACorruptJournalTouchesNothingUntilForced) {
  fs::path dir = root_ / "app";
  interrupted_run(dir);
  auto folder = ExecFolder::lock(dir);
  ASSERT_TRUE(folder);
  std::string journal = folder->journal_path();
  std::string text = read(journal);
  write(journal, text.substr(0, text.size() / 2));
  auto refused = folder->restore();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().file, journal);
  EXPECT_NE(refused.error().message.find("restore --force"), std::string::npos) << refused.error().message;
  EXPECT_EQ(read(dir / "A.dll"), "instrumented A");
  EXPECT_TRUE(fs::exists(dir / std::string(kExecStateDir) / "originals/A.dll"));
  EXPECT_FALSE(folder->clear_leftovers());  // the originals are never removed unread
  auto forced = folder->restore(true);
  ASSERT_TRUE(forced) << forced.error().to_string();
  EXPECT_EQ(read(dir / "A.dll"), "original A");
  EXPECT_EQ(read(dir / "sub/B.dll"), "original B");
  EXPECT_EQ(forced->put_back, 2u);
  EXPECT_FALSE(fs::exists(dir / std::string(kExecStateDir)));
}

TEST_F(ExecFolderTest, AFolderAndTheFoldersInsideItAreOneLock) {
  fs::create_directories(root_ / "p/sub/deeper");
  fs::create_directories(root_ / "p/other");
  {
    auto outer = ExecFolder::lock((root_ / "p").string());
    ASSERT_TRUE(outer);
    EXPECT_FALSE(ExecFolder::lock((root_ / "p/sub").string()));
    EXPECT_FALSE(ExecFolder::lock((root_ / "p/sub/deeper").string()));
    EXPECT_FALSE(ExecFolder::lock((root_ / "p").string()));
  }
  {
    auto inner = ExecFolder::lock((root_ / "p/sub").string());
    ASSERT_TRUE(inner);
    auto outer = ExecFolder::lock((root_ / "p").string());
    ASSERT_FALSE(outer);
    EXPECT_NE(outer.error().message.find("on this folder or on a folder inside it"), std::string::npos) << outer.error().message;
    EXPECT_TRUE(ExecFolder::lock((root_ / "p/other").string()));  // a sibling shares the ancestors
  }
  EXPECT_TRUE(ExecFolder::lock((root_ / "p").string()));  // the locks went with their holders
}

}  // namespace
}  // namespace cil::cli
