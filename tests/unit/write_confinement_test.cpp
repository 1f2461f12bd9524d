// The write rule (support/write_confinement.h): inputs by identity, named outputs, and outputs
// under a root that never climb out, never go through a link and never land on an input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <stdlib.h>
#include <unistd.h>

#include "cli/jobs/batch_instrument.h"
#include "support/write_confinement.h"

namespace cil {
namespace {

namespace fs = std::filesystem;

struct ConfineDir {
  fs::path path;
  ConfineDir() {
    std::string templ = (fs::temp_directory_path() / "cil-confine-XXXXXX").string();
    path = ::mkdtemp(templ.data());
  }
  ~ConfineDir() { fs::remove_all(path); }
  std::string operator/(std::string_view name) const { return (path / name).string(); }
};

void put_text(const std::string& path, std::string_view text) { std::ofstream(path, std::ios::binary) << text; }

TEST(WriteConfinement, InputsAreKnownByIdentityWhateverTheName) {
  ConfineDir d;
  put_text(d / "a.dll", "a");
  fs::create_hard_link(d / "a.dll", d / "hard.dll");
  fs::create_symlink("a.dll", d / "soft.dll");
  put_text(d / "b.dll", "b");
  WriteConfinement c;
  c.add_input(d / "a.dll");
  c.add_input(d / "missing.dll");  // ignored: nothing to protect
  EXPECT_EQ(c.input_count(), 1u);
  EXPECT_TRUE(c.is_input(d / "a.dll"));
  EXPECT_TRUE(c.is_input(d / "./a.dll"));
  EXPECT_TRUE(c.is_input(d / "hard.dll"));
  EXPECT_TRUE(c.is_input(d / "soft.dll"));
  EXPECT_FALSE(c.is_input(d / "b.dll"));
}

TEST(WriteConfinement, NamedOutputs) {
  ConfineDir d;
  put_text(d / "in.dll", "in");
  fs::create_hard_link(d / "in.dll", d / "hard.dll");
  fs::create_symlink("in.dll", d / "link.dll");
  put_text(d / "old.dll", "old");
  WriteConfinement c;
  c.add_input(d / "in.dll");
  EXPECT_TRUE(c.check_named(d / "new.dll"));
  EXPECT_TRUE(c.check_named(d / "old.dll"));
  auto same = c.check_named(d / "in.dll");
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error().kind, ErrorKind::Usage);
  EXPECT_EQ(same.error().file, d / "in.dll");
  EXPECT_FALSE(c.check_named(d / "hard.dll"));
  auto link = c.check_named(d / "link.dll");
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().kind, ErrorKind::Io);
  EXPECT_FALSE(c.check_named(d.path.string()));  // a directory
}

TEST(WriteConfinement, UnderARootPlainPathsOnly) {
  ConfineDir d;
  WriteConfinement c;
  for (const char* bad : {"../x.dll", "a/../../x.dll", "/etc/passwd", "", ".", "a/.."}) {
    auto placed = c.check_under(d / "out", bad, true);
    EXPECT_FALSE(placed) << bad;
    if (!placed) {
      EXPECT_EQ(placed.error().kind, ErrorKind::Usage) << bad;
    }
  }
  EXPECT_FALSE(fs::exists(d / "x.dll"));
  auto placed = c.check_under(d / "out", "./a/b/c.dll", true);
  ASSERT_TRUE(placed) << placed.error().to_string();
  EXPECT_EQ(*placed, d / "out/a/b/c.dll");
  EXPECT_TRUE(fs::is_directory(d / "out/a/b"));
  EXPECT_FALSE(fs::exists(d / "out/a/b/c.dll"));
}

TEST(WriteConfinement, UnderARootWithoutCreateMakesNothing) {
  ConfineDir d;
  WriteConfinement c;
  auto placed = c.check_under(d / "out", "a/b.dll", false);
  ASSERT_TRUE(placed);
  EXPECT_FALSE(fs::exists(d / "out"));
}

TEST(WriteConfinement, NoLinkInsideTheRootIsWrittenThrough) {
  ConfineDir d;
  fs::create_directories(d / "elsewhere");
  put_text(d / "elsewhere/x.dll", "keep");
  fs::create_directories(d / "out");
  fs::create_directory_symlink("../elsewhere", d / "out/lib");
  fs::create_symlink("../elsewhere/x.dll", d / "out/x.dll");
  fs::create_symlink("../elsewhere/new.dll", d / "out/dangling.dll");
  WriteConfinement c;
  for (bool create : {false, true}) {
    EXPECT_FALSE(c.check_under(d / "out", "lib/x.dll", create));
    EXPECT_FALSE(c.check_under(d / "out", "lib/sub/y.dll", create));
    EXPECT_FALSE(c.check_under(d / "out", "x.dll", create));
    EXPECT_FALSE(c.check_under(d / "out", "dangling.dll", create));
  }
  EXPECT_FALSE(fs::exists(d / "elsewhere/sub"));
  // The root itself is the user's to name: a link to a directory is taken as named.
  fs::create_directory_symlink("elsewhere", d / "root-link");
  EXPECT_TRUE(c.check_under(d / "root-link", "z.dll", true));
}

TEST(WriteConfinement, UnderARootNeverOnAnInput) {
  ConfineDir d;
  fs::create_directories(d / "out");
  put_text(d / "out/in.dll", "in");
  fs::create_hard_link(d / "out/in.dll", d / "out/hard.dll");
  put_text(d / "out/file", "in the way");
  WriteConfinement c;
  c.add_input(d / "out/in.dll");
  auto same = c.check_under(d / "out", "in.dll", false);
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error().kind, ErrorKind::Usage);
  EXPECT_FALSE(c.check_under(d / "out", "hard.dll", false));
  EXPECT_FALSE(c.check_under(d / "out", "file/x.dll", true));  // a file where a directory goes
  EXPECT_TRUE(c.check_under(d / "out", "other.dll", false));
}

TEST(WriteConfinement, NameFits) {
  EXPECT_TRUE(name_fits("/tmp/" + std::string(255, 'a')));
  EXPECT_FALSE(name_fits("/tmp/" + std::string(256, 'a')));
  EXPECT_TRUE(name_fits(std::string(10, 'a')));
}

std::string confine_fixture(const std::string& name) { return std::string(CIL_TESTDATA_DIR) + "/bin/" + name; }

size_t count_lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// An output that cannot be written is said once: the copy of the input that follows a failure
// would fail on the same output and said the same line again.
TEST(WriteConfinement, AFileWhoseOutputFailsIsReportedOnce) {
  ConfineDir d;
  fs::create_directories(d / "out/Basics.dll");  // a directory where the output goes
  cli::BatchSetup setup;
  setup.instrument.mode_name = "count";
  setup.instrument.interruptible = false;
  cli::PlannedFile file{confine_fixture("Basics.dll"), "Basics.dll", {}};
  cli::FileDone done;
  cli::JobResult result = cli::process_file(file, d / "out/Basics.dll", setup, done);
  EXPECT_EQ(done.status, cli::FileStatus::Failed);
  EXPECT_NE(result.exit, 0);
  EXPECT_EQ(count_lines(result.err), 1u) << result.err;
}

// Under an output root, the same refusal comes before any work, as one line too.
TEST(WriteConfinement, FolderModeRefusesALinkInTheOutputOnce) {
  ConfineDir d;
  fs::create_directories(d / "out");
  fs::create_directories(d / "elsewhere");
  fs::create_symlink("../elsewhere", d / "out/sub");
  WriteConfinement confinement;
  cli::BatchSetup setup;
  setup.instrument.mode_name = "count";
  setup.instrument.interruptible = false;
  setup.confinement = &confinement;
  setup.out_dir = d / "out";
  cli::PlannedFile file{confine_fixture("Basics.dll"), "sub/Basics.dll", {}};
  cli::FileDone done;
  cli::JobResult result = cli::process_file(file, d / "out/sub/Basics.dll", setup, done);
  EXPECT_EQ(done.status, cli::FileStatus::Failed);
  EXPECT_EQ(count_lines(result.err), 1u) << result.err;
  EXPECT_TRUE(fs::is_empty(d / "elsewhere"));
}

}  // namespace
}  // namespace cil
