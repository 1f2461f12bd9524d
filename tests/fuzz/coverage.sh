#!/usr/bin/env bash
# Line coverage of src/ reached by the saved fuzz corpora, per directory, with clang's
# source-based coverage; then the same with info, dump, their --json forms and instrument run
# over testdata/bin and the peer corpus. Builds build-cov (clang, -DCIL_FUZZ=ON plus coverage
# mapping).
#   tests/fuzz/coverage.sh [CORPUS_ROOT]     (default tests/fuzz/corpus: one folder per target)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
corpora=${1:-$root/tests/fuzz/corpus}
build=${CIL_COVERAGE_BUILD:-$root/build-cov}
corpus=${CIL_CORPUS:-$root/../shared/corpus}
targets=(pe metadata signature il pipeline)
flags="-fprofile-instr-generate -fcoverage-mapping"
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCIL_FUZZ=ON \
  -DCIL_TESTS=OFF -DCIL_BENCH=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DCMAKE_SHARED_LINKER_FLAGS="$flags" > /dev/null
cmake --build "$build" -j 2 --target "${targets[@]/%/_fuzzer}" cil-instrument > "$build/build.log" 2>&1 || { tail -40 "$build/build.log"; exit 1; }
rm -rf "$build/profiles"
mkdir -p "$build/profiles"
export ASAN_OPTIONS=detect_leaks=0

for t in "${targets[@]}"; do
  LLVM_PROFILE_FILE="$build/profiles/fuzz-$t-%p.profraw" \
    "$build/tests/fuzz/${t}_fuzzer" -runs=0 -max_len=262144 "$corpora/$t" > /dev/null 2>&1
done
llvm-profdata-14 merge -sparse "$build"/profiles/fuzz-*.profraw -o "$build/fuzz.profdata"

# The command-line tool over the fixtures and the peer corpus: info, dump, instrument.
tool="$build/src/cil-instrument"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while IFS= read -r f; do
  for command in info dump "info --json" "dump --json"; do
    LLVM_PROFILE_FILE="$build/profiles/tool-%p.profraw" timeout 60 "$tool" $command "$f" > /dev/null 2>&1 || true
  done
  LLVM_PROFILE_FILE="$build/profiles/tool-%p.profraw" timeout 60 "$tool" instrument "$f" -o "$work/out.dll" > /dev/null 2>&1 || true
  rm -f "$work/out.dll"
done < <(find "$root/testdata/bin" "$corpus" -type f \( -name '*.dll' -o -name '*.exe' \) 2> /dev/null | sort)
llvm-profdata-14 merge -sparse "$build"/profiles/*.profraw -o "$build/all.profdata"

objects=()
for t in "${targets[@]}"; do objects+=(-object "$build/tests/fuzz/${t}_fuzzer"); done
by_directory() {  # by_directory PROFDATA BINARY... : lines covered per directory of src/
  local profdata=$1
  shift
  llvm-cov-14 export -summary-only -format=text -instr-profile="$profdata" "$@" |
    python3 -c '
import json, sys, collections
root = sys.argv[1] + "/src/"
totals = collections.defaultdict(lambda: [0, 0, 0, 0])
for f in json.load(sys.stdin)["data"][0]["files"]:
    name = f["filename"]
    if not name.startswith(root): continue
    d = name[len(root):].split("/")[0]
    if d == "profiler": continue
    s = f["summary"]
    totals[d][0] += s["lines"]["covered"]; totals[d][1] += s["lines"]["count"]
    totals[d][2] += s["functions"]["covered"]; totals[d][3] += s["functions"]["count"]
all_ = [sum(v[i] for v in totals.values()) for i in range(4)]
print("%-10s %8s %8s %8s %10s" % ("src/", "lines", "covered", "line %", "function %"))
for d in sorted(totals) + ["total"]:
    c, n, fc, fn = all_ if d == "total" else totals[d]
    print("%-10s %8d %8d %7.1f%% %9.1f%%" % (d, n, c, 100.0 * c / max(n, 1), 100.0 * fc / max(fn, 1)))
' "$root"
}
echo "== the fuzz corpora ($corpora) through the five fuzz targets"
by_directory "$build/fuzz.profdata" "${objects[@]:1}"
echo "== the same, plus info, dump and instrument over testdata/bin and the peer corpus"
by_directory "$build/all.profdata" "$tool" "${objects[@]}"
