// The tool's heap policy: memory made ready at once is written without a page fault per page.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cli/jobs/heap_policy.h"

namespace cil::cli {
namespace {

long minor_faults() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

constexpr size_t kJobBytes = 6 << 20;  // 1,536 pages

/// The job itself, in a process of its own: the minor faults taken while it allocates and writes
/// kJobBytes in blocks of 64 KiB to 1 MiB, after `ready` bytes were made ready (none when 0); -1
/// when ready_heap refused.
long run_job(uint64_t ready) {
  // Counted in 4 KiB pages whatever the host's transparent huge page setting.
  ::prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
  keep_heap();
  if (ready != 0 && !ready_heap(ready)) return -1;
  long before = minor_faults();
  size_t done = 0;
  for (size_t size = 64 << 10; done < kJobBytes; size = size * 2 > (1 << 20) ? 64 << 10 : size * 2) {
    auto* p = static_cast<char*>(std::malloc(size));
    std::memset(p, 0x5a, size);
    done += size;
    // Kept: the job's blocks are all live at once.
  }
  return minor_faults() - before;
}

constexpr const char* kChildVariable = "CIL_HEAP_POLICY_TEST_JOB";

/// The child side: this test binary started again with kChildVariable set ("READY FD") runs the
/// job before main and writes its result to FD. A fresh process, not a fork: a forked child
/// inherits the parent's heap, whose free chunks are shared copy-on-write with the parent, so
/// the job's first write to each costs a fault that no policy can save (and how many depends on
/// which tests ran before).
[[maybe_unused]] const bool kChildRan = [] {
  const char* spec = std::getenv(kChildVariable);
  if (!spec) return false;
  unsigned long long ready = 0;
  int fd = -1;
  if (std::sscanf(spec, "%llu %d", &ready, &fd) != 2) ::_exit(2);
  long result = run_job(ready);
  (void)!::write(fd, &result, sizeof result);
  ::_exit(0);
}();

/// The faults of the job in a fresh process; -1 when ready_heap refused, -2 when the child failed.
long faults_of_job(uint64_t ready) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return -2;
  std::string spec = std::to_string(ready) + " " + std::to_string(pipe_fds[1]);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe_fds[0]);
    ::setenv(kChildVariable, spec.c_str(), 1);
    char self[] = "/proc/self/exe";
    char* argv[] = {self, nullptr};
    ::execv(self, argv);
    ::_exit(3);
  }
  ::close(pipe_fds[1]);
  long result = -2;
  if (::read(pipe_fds[0], &result, sizeof result) != sizeof result) result = -2;
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return result;
}

/// Whether this kernel makes pages ready on request (MADV_POPULATE_WRITE, Linux 5.14).
bool kernel_makes_pages_ready() {
  void* p = ::mmap(nullptr, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  bool ok = ::madvise(p, 1 << 16, 23 /* MADV_POPULATE_WRITE */) == 0;
  ::munmap(p, 1 << 16);
  return ok;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitizedAllocator = true;
#else
constexpr bool kSanitizedAllocator = false;
#endif
#else
constexpr bool kSanitizedAllocator = false;
#endif

TEST(HeapPolicy, ReadyHeapSavesAFaultPerPage) {
  // AddressSanitizer's allocator takes malloc's place: mallopt and the heap's top mean nothing.
  if (kSanitizedAllocator) GTEST_SKIP() << "the sanitizer's allocator replaces malloc";
  if (!kernel_makes_pages_ready()) GTEST_SKIP() << "MADV_POPULATE_WRITE refused (a kernel before 5.14)";
  long plain = faults_of_job(0);
  ASSERT_GE(plain, 0);
  // Without it, every page of the job's memory is a fault (the measure works).
  EXPECT_GE(plain, static_cast<long>(kJobBytes / 4096) * 9 / 10);
  long ready = faults_of_job(kJobBytes + (1 << 20));
  ASSERT_GE(ready, 0) << "ready_heap made nothing ready on a kernel that can";
  EXPECT_LT(ready, plain / 10) << "plain " << plain;
}

TEST(HeapPolicy, ExpectedHeapGrowsWithMethodsAndPdbAndHasACeiling) {
  EXPECT_GT(expected_heap(0, 0), 0u);
  EXPECT_GT(expected_heap(1000, 0), expected_heap(0, 0));
  EXPECT_GT(expected_heap(1000, 100000), expected_heap(1000, 0));
  // Mono's mscorlib (24,400 methods) touches about 4.5 MB: the guess covers it.
  EXPECT_GE(expected_heap(24400, 0), 4400000u);
  EXPECT_EQ(expected_heap(10000000, 0), expected_heap(20000000, 1u << 30));
  EXPECT_LT(expected_heap(10000000, 0), 32u << 20);
  EXPECT_FALSE(ready_heap(0));
  // Not before keep_heap (this process never calls it; the jobs above ran in children): the
  // block would be mapped on its own.
  EXPECT_FALSE(ready_heap(1 << 20));
}

}  // namespace
}  // namespace cil::cli
