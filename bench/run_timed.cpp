// Runs one command and prints what wait4 says it cost, for bench/compare.sh:
//   cil_bench_run [--stdout FILE] [--stderr FILE] -- COMMAND [ARGS...]
// prints "WALL_US CPU_US MAXRSS_KB STATUS USER_US SYS_US MINFLT": wall time from fork to wait4's
// return (monotonic clock), user + system CPU and peak RSS of the child from wait4's rusage
// (microseconds, KB), the command's exit status (128 + N when killed by signal N; 127 when it
// cannot be started), then the CPU split into user and system time and the minor page faults.
// A fork and an exec stand between the two clocks and the command, and nothing else: no shell,
// no GNU time (whose CPU figures have hundredths of a second).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

int64_t now_us() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1000000 + t.tv_nsec / 1000;
}

int64_t to_us(const timeval& t) { return int64_t{t.tv_sec} * 1000000 + t.tv_usec; }

int usage() {
  std::fprintf(stderr, "usage: cil_bench_run [--stdout FILE] [--stderr FILE] -- COMMAND [ARGS...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const char* out_path = nullptr;
  const char* err_path = nullptr;
  int i = 1;
  for (; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) {
      ++i;
      break;
    }
    if (i + 1 >= argc) return usage();
    if (std::strcmp(argv[i], "--stdout") == 0) {
      out_path = argv[++i];
    } else if (std::strcmp(argv[i], "--stderr") == 0) {
      err_path = argv[++i];
    } else {
      return usage();
    }
  }
  if (i >= argc) return usage();
  // Opened before the clock starts, so the child's redirection costs nothing measured.
  int out_fd = out_path ? open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
  int err_fd = err_path ? open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
  if ((out_path && out_fd < 0) || (err_path && err_fd < 0)) {
    std::perror("cil_bench_run: open");
    return 2;
  }
  std::fflush(nullptr);
  int64_t started = now_us();
  pid_t child = fork();
  if (child < 0) {
    std::perror("cil_bench_run: fork");
    return 2;
  }
  if (child == 0) {
    if (out_fd >= 0) dup2(out_fd, 1);
    if (err_fd >= 0) dup2(err_fd, 2);
    execvp(argv[i], argv + i);
    std::perror("cil_bench_run: exec");
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  while (wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::perror("cil_bench_run: wait4");
      return 2;
    }
  }
  int64_t wall = now_us() - started;
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::printf("%lld %lld %ld %d %lld %lld %ld\n", static_cast<long long>(wall),
              static_cast<long long>(to_us(usage.ru_utime) + to_us(usage.ru_stime)), usage.ru_maxrss, code,
              static_cast<long long>(to_us(usage.ru_utime)), static_cast<long long>(to_us(usage.ru_stime)), usage.ru_minflt);
  return 0;
}
