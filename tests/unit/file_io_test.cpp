// Reading only regular files, and outputs that appear complete or not at all: unnamed or named
// temporary files, stale ones of killed writers swept, special destinations refused, modes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/file_io.h"

namespace cil {
namespace {

namespace fs = std::filesystem;

/// A fresh directory, removed with everything in it.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string templ = (fs::temp_directory_path() / "cil-file-io-XXXXXX").string();
    path = ::mkdtemp(templ.data());
  }
  ~ScratchDir() { fs::remove_all(path); }
  std::string operator/(std::string_view name) const { return (path / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const std::string& path, std::string_view text) { std::ofstream(path, std::ios::binary) << text; }

std::span<const uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

bool is_temp_name(const std::string& name) {
  return name.size() == kTempPrefix.size() + 6 + kTempSuffix.size() && name.starts_with(kTempPrefix) &&
         name.ends_with(kTempSuffix);
}

bool unnamed_files_supported(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return ::access("/proc/self/fd", X_OK) == 0;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

/// Records what an OutputFile says about its temporary name.
struct Recorder final : TempNameObserver {
  std::vector<std::string> events;
  void naming(const std::string& path) override { events.push_back("naming " + fs::path(path).filename().string()); }
  void unnamed() override { events.push_back("unnamed"); }
};

TEST(ReadFile, RefusesAFifoWithoutBlocking) {
  // open() of a FIFO without a writer waits forever; the type is checked first.
  ScratchDir dir;
  std::string fifo = dir / "f";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto read = read_file(fifo);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, "not a regular file (a FIFO)");
  auto mapped = MappedFile::open(fifo);
  ASSERT_FALSE(mapped);
  EXPECT_EQ(mapped.error().message, "not a regular file (a FIFO)");
}

TEST(ReadFile, RefusesDevicesAndDirectories) {
  auto device = read_file("/dev/zero");
  ASSERT_FALSE(device);
  EXPECT_EQ(device.error().message, "not a regular file (a character device)");
  ScratchDir dir;
  auto directory = read_file(dir.path.string());
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().message, "not a regular file (a directory)");
  auto missing = read_file(dir / "missing");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "cannot open: No such file or directory");
}

TEST(OutputFile, UnnamedFileHasNoNameUntilCommitted) {
  ScratchDir dir;
  if (!unnamed_files_supported(dir.path.string())) GTEST_SKIP() << "no O_TMPFILE here";
  Recorder recorder;
  std::string out = dir / "out.dll";
  {
    OutputFile file(out, {.unnamed = true, .observer = &recorder});
    ASSERT_TRUE(file.write_at(0, bytes_of("complete")));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{}) << "a name exists before commit";
    ASSERT_TRUE(file.commit());
  }
  EXPECT_EQ(contents(out), "complete");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.dll"});
  EXPECT_EQ(recorder.events, std::vector<std::string>{}) << "linked straight into place, never named";

  // Replacing: linked under a temporary name, then renamed over the old file.
  {
    OutputFile file(out, {.unnamed = true, .observer = &recorder});
    ASSERT_TRUE(file.write_at(0, bytes_of("new")));
    ASSERT_TRUE(file.commit());
  }
  EXPECT_EQ(contents(out), "new");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.dll"});
  ASSERT_EQ(recorder.events.size(), 2u);
  EXPECT_TRUE(is_temp_name(recorder.events[0].substr(7))) << recorder.events[0];
  EXPECT_EQ(recorder.events[1], "unnamed");

  // Never committed: nothing appears, the old file stays.
  {
    OutputFile file(out, {.unnamed = true});
    ASSERT_TRUE(file.write_at(0, bytes_of("abandoned")));
  }
  EXPECT_EQ(contents(out), "new");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.dll"});
}

TEST(OutputFile, NamedTemporaryFileIsRemovedWhenNotCommitted) {
  ScratchDir dir;
  Recorder recorder;
  std::string out = dir / "out.dll";
  {
    OutputFile file(out, {.unnamed = false, .observer = &recorder});
    ASSERT_TRUE(file.write_at(0, bytes_of("partial")));
    auto names = dir.entries();
    ASSERT_EQ(names.size(), 1u);
    EXPECT_TRUE(is_temp_name(names[0])) << names[0];
    ASSERT_EQ(recorder.events.size(), 1u);
    EXPECT_EQ(recorder.events[0], "naming " + names[0]);
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
  EXPECT_EQ(recorder.events.back(), "unnamed");

  {
    OutputFile file(out, {.unnamed = false, .observer = &recorder});
    ASSERT_TRUE(file.write_at(0, bytes_of("complete")));
    ASSERT_TRUE(file.commit());
  }
  EXPECT_EQ(contents(out), "complete");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.dll"});
  EXPECT_EQ(recorder.events.back(), "unnamed");
}

TEST(OutputFile, TemporaryNameFitsBesideTheLongestFileName) {
  // A destination name of 255 bytes (NAME_MAX) is valid; "OUT.tmp-XXXXXX" would not be.
  for (bool unnamed : {true, false}) {
    ScratchDir dir;
    std::string out = dir / (std::string(251, 'a') + ".dll");
    write_text(out, "old");  // so the unnamed file needs a temporary name too
    OutputFile file(out, {.unnamed = unnamed});
    ASSERT_TRUE(file.write_at(0, bytes_of("long")));
    Status committed = file.commit();
    ASSERT_TRUE(committed) << committed.error().to_string();
    EXPECT_EQ(contents(out), "long");
  }
}

TEST(OutputFile, StaleTemporaryFilesOfKilledWritersAreRemoved) {
  ScratchDir dir;
  std::string out = dir / "out.dll";
  // A writer killed (SIGKILL: no handler runs) while its named temporary file exists.
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    OutputFile file(out, {.unnamed = false});
    if (file.write_at(0, bytes_of("killed"))) ::raise(SIGKILL);
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  auto names = dir.entries();
  ASSERT_EQ(names.size(), 1u);
  ASSERT_TRUE(is_temp_name(names[0]));

  // Not stale while its writer lives (it holds the lock); other names are never touched.
  write_text(dir / ".cil-instrument-short.tmp", "not ours");
  write_text(dir / "out.dll.tmp-ABCDEF", "not ours");
  {
    OutputFile live(out, {.unnamed = false});
    ASSERT_TRUE(live.write_at(0, bytes_of("alive")));
    EXPECT_EQ(dir.entries().size(), 3u);  // the sweep at its creation removed the stale one
    EXPECT_EQ(remove_stale_temporaries(dir.path.string()), 0u);
    EXPECT_EQ(dir.entries().size(), 3u);
  }
  std::vector<std::string> left{".cil-instrument-short.tmp", "out.dll.tmp-ABCDEF"};
  EXPECT_EQ(dir.entries(), left);

  // The sweep on its own.
  child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    OutputFile file(out, {.unnamed = false});
    if (file.write_at(0, bytes_of("killed"))) ::raise(SIGKILL);
    ::_exit(1);
  }
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(dir.entries().size(), 3u);
  EXPECT_EQ(remove_stale_temporaries(dir.path.string()), 1u);
  EXPECT_EQ(dir.entries(), left);
}

TEST(OutputFile, SpecialDestinationsAreRefusedNotReplaced) {
  ScratchDir dir;
  std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string link = dir / "link.dll";
  write_text(dir / "target.dll", "target");
  ASSERT_EQ(::symlink("target.dll", link.c_str()), 0);
  std::string dangling = dir / "dangling.dll";
  ASSERT_EQ(::symlink("nowhere.dll", dangling.c_str()), 0);
  ::mkdir((dir / "subdir").c_str(), 0700);

  auto refused = [](const std::string& path) {
    Status s = OutputFile::check_destination(path);
    return s ? std::string("accepted") : s.error().message;
  };
  EXPECT_EQ(refused("/dev/null"), "exists and is not a regular file (a character device): refused rather than replaced");
  EXPECT_EQ(refused(fifo), "exists and is not a regular file (a FIFO): refused rather than replaced");
  EXPECT_EQ(refused(dir / "subdir"), "exists and is not a regular file (a directory): refused rather than replaced");
  EXPECT_EQ(refused(link), "is a symbolic link: refused rather than replaced (give the path of the file it points to)");
  EXPECT_EQ(refused(dangling), "is a symbolic link: refused rather than replaced (give the path of the file it points to)");
  EXPECT_EQ(refused(dir / "target.dll"), "accepted");
  EXPECT_EQ(refused(dir / "new.dll"), "accepted");

  // commit() checks again: the destination may have become special during the work.
  for (bool unnamed : {true, false}) {
    for (const std::string& path : {fifo, link, dangling}) {
      OutputFile file(path, {.unnamed = unnamed});
      ASSERT_TRUE(file.write_at(0, bytes_of("out")));
      Status s = file.commit();
      EXPECT_FALSE(s) << path;
    }
  }
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(contents(dir / "target.dll"), "target");
  std::vector<std::string> all{"dangling.dll", "fifo", "link.dll", "subdir", "target.dll"};
  EXPECT_EQ(dir.entries(), all) << "a refused commit left a temporary file";
}

TEST(OutputFile, PiecesAreWrittenInOrderWhicheverWayTheyGo) {
  // Small views of the source and bytes of the job go out together (a pwritev per run, more than
  // IOV_MAX of them here), large views through copy_file_range, and pieces in place are left as
  // they are.
  ScratchDir dir;
  std::string source_text;
  for (int i = 0; source_text.size() < 300 * 1024; ++i) source_text += fmt::format("line {:06}\n", i);
  write_text(dir / "source", source_text);
  auto source = MappedFile::open(dir / "source");
  ASSERT_TRUE(source) << source.error().to_string();
  std::span<const uint8_t> src = source->bytes();
  std::vector<std::string> owned;
  owned.reserve(3000);
  std::vector<FilePiece> pieces;
  std::string expected;
  auto view = [&](size_t offset, size_t length) {
    pieces.push_back({src.subspan(offset, length)});
    expected += source_text.substr(offset, length);
  };
  auto mine = [&](std::string text) {
    owned.push_back(std::move(text));
    pieces.push_back({bytes_of(owned.back())});
    expected += owned.back();
  };
  view(0, 100 * 1024);  // large: the kernel copies it
  for (int i = 0; i < 1500; ++i) {  // 3,000 small pieces in one run
    mine(fmt::format("<{}>", i));
    view(static_cast<size_t>(i) * 7, 5);
  }
  const std::string already = "ALREADY THERE";
  uint64_t in_place_at = expected.size();
  pieces.push_back({{}, already.size()});
  expected += already;
  view(120 * 1024, 40 * 1024);  // large again, after a piece in place
  mine("tail");
  view(1, 0);  // empty

  OutputFile out(dir / "out");
  // What is in place was written before (as the streamed new section is).
  ASSERT_TRUE(out.write_at(in_place_at, bytes_of(already)));
  ASSERT_TRUE(out.write_pieces(pieces, CopySource{source->fd(), src}));
  ASSERT_TRUE(out.commit());
  std::string written = contents(dir / "out");
  ASSERT_EQ(written.size(), expected.size());
  EXPECT_TRUE(written == expected);

  // Without a source to copy from, every piece goes through user space: the same file.
  OutputFile plain(dir / "plain");
  ASSERT_TRUE(plain.write_at(in_place_at, bytes_of(already)));
  ASSERT_TRUE(plain.write_pieces(pieces));
  ASSERT_TRUE(plain.commit());
  EXPECT_TRUE(contents(dir / "plain") == expected);
}

TEST(OutputFile, NewFilesFollowTheUmaskAndExistingOnesKeepTheirMode) {
  for (bool unnamed : {true, false}) {
    ScratchDir dir;
    mode_t old_mask = ::umask(027);
    {
      OutputFile file(dir / "new.dll", {.unnamed = unnamed});
      ASSERT_TRUE(file.write_at(0, bytes_of("new")));
      ASSERT_TRUE(file.commit());
    }
    ::umask(old_mask);
    EXPECT_EQ(mode_of(dir / "new.dll"), 0640u) << "unnamed=" << unnamed;

    write_text(dir / "kept.dll", "old");
    ASSERT_EQ(::chmod((dir / "kept.dll").c_str(), 0604), 0);
    {
      OutputFile file(dir / "kept.dll", {.unnamed = unnamed});
      ASSERT_TRUE(file.write_at(0, bytes_of("replaced")));
      ASSERT_TRUE(file.commit());
    }
    EXPECT_EQ(contents(dir / "kept.dll"), "replaced");
    EXPECT_EQ(mode_of(dir / "kept.dll"), 0604u) << "unnamed=" << unnamed;

    // Never set-user-ID or set-group-ID from the old file.
    ASSERT_EQ(::chmod((dir / "kept.dll").c_str(), 04755), 0);
    {
      OutputFile file(dir / "kept.dll", {.unnamed = unnamed});
      ASSERT_TRUE(file.write_at(0, bytes_of("again")));
      ASSERT_TRUE(file.commit());
    }
    EXPECT_EQ(mode_of(dir / "kept.dll"), 0755u) << "unnamed=" << unnamed;
  }
}

}  // namespace
}  // namespace cil
