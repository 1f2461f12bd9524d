#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, builds, runs every test while it
# builds again with clang, AddressSanitizer and UndefinedBehaviorSanitizer at the lowest priority,
# then runs the tests labelled sanitize (tests/CMakeLists.txt) in that tree and fuzzes each
# libFuzzer target built there briefly (tests/fuzz/run_ci.sh).
#   scripts/test.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
start=$(date +%s)
# stage NAME: announces a stage with the time since the start, so CI logs show where time goes.
stage() { echo "== [$(( $(date +%s) - start )) s] $*"; }

scripts/setup.sh

stage "build (RelWithDebInfo)"
scripts/build.sh build

# The sanitized build: clang with ASan and UBSan, the tests and the libFuzzer targets in one tree.
# One build serves both later stages: the tool and the tests are built with ASan and UBSan (and
# libFuzzer's coverage counters, which cost little), the fuzz targets link libFuzzer.
# Without libcilprofiler.so: it is never sanitized (dotnet, which loads it, has no sanitizer
# runtime), so the profiler's end-to-end tests run in the plain build only. -O1: a third less
# compile time than -O2 under the sanitizers.
# A build-asan of an older layout (g++, without the fuzz targets) is configured afresh.
sanitized_build() {
  grep -q '^CIL_FUZZ:BOOL=ON' build-asan/CMakeCache.txt 2> /dev/null || rm -rf build-asan
  cmake -S . -B build-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCIL_FUZZ=ON \
    -DCIL_BENCH=OFF -DCIL_PROFILER_LIBRARY=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" > /dev/null
  cmake --build build-asan -j "$(nproc)"
}

# It runs beside the plain tests at the lowest priority (nice 19): the tests wait on the runtime,
# on sleeps and on files much of the time, and the compiler takes only what they leave idle (the
# scheduler gives a nice-19 process about 1.5% of a core that a test wants). Its output is kept
# in build/sanitized-build.log and shown if it fails. It gets a process group of its own (job
# control, set -m), so that a failing run stops the compilers too, but stays in this session: with
# the kernel's autogroup scheduling (sched_autogroup_enabled), a new session (setsid) would be a
# group of its own, shared with the tests as an equal, whatever its nice value.
stage "tests, with the sanitized build (clang: ASan + UBSan) beside them at the lowest priority"
build_log=$root/build/sanitized-build.log
set -m
nice -n 19 bash -c "$(declare -f sanitized_build); set -euo pipefail; sanitized_build" > "$build_log" 2>&1 &
sanitized=$!
set +m
trap 'kill -- -"$sanitized" 2> /dev/null || true' EXIT
tests_status=0
(cd build && ctest --output-on-failure -j "$(nproc)") || tests_status=$?
stage "the sanitized build, finishing"
build_status=0
wait "$sanitized" || build_status=$?
trap - EXIT
if [ "$build_status" -ne 0 ]; then
  tail -50 "$build_log"
  echo "== the sanitized build failed ($build_log)"
  exit 1
fi
[ "$tests_status" -eq 0 ] || exit "$tests_status"
stage "tests under ASan + UBSan (label sanitize: our C++ on varied and hostile input)"
(cd build-asan && CIL_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc)" -L sanitize)

stage "fuzz targets (libFuzzer + ASan + UBSan): reproducers, saved corpus, ${CIL_FUZZ_SECONDS:-5} s each"
CIL_FUZZ_BUILD="$root/build-asan" tests/fuzz/run_ci.sh "${CIL_FUZZ_SECONDS:-5}"

echo "== all tests passed in $(( $(date +%s) - start )) s"
