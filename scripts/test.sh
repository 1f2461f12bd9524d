#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, builds, runs every test, then
# builds again with AddressSanitizer and UndefinedBehaviorSanitizer and runs the tests labelled
# sanitize (tests/CMakeLists.txt) again,
# then builds the libFuzzer targets with clang and fuzzes each briefly (tests/fuzz/run_ci.sh).
#   scripts/test.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
start=$(date +%s)

scripts/setup.sh

echo "== build (RelWithDebInfo)"
scripts/build.sh build
echo "== tests"
(cd build && ctest --output-on-failure -j 2)

echo "== build (ASan + UBSan)"
# Without libcilprofiler.so: it is never sanitized (dotnet, which loads it, has no sanitizer
# runtime), so the profiler's end-to-end tests, which skip here, run in the plain build only.
# -O1 -g1: a third less compile time than -O2 -g under the sanitizers, line numbers kept for
# their reports.
scripts/build.sh build-asan -DCIL_SANITIZE=ON -DCIL_BENCH=OFF -DCIL_PROFILER_LIBRARY=OFF \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
echo "== tests under ASan + UBSan (label sanitize: our C++ on varied and hostile input)"
(cd build-asan && CIL_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j 2 -L sanitize)

echo "== fuzz targets (clang, libFuzzer + ASan + UBSan): reproducers, saved corpus, ${CIL_FUZZ_SECONDS:-30} s each"
tests/fuzz/run_ci.sh

echo "== all tests passed in $(( $(date +%s) - start )) s"
