#!/usr/bin/env bash
# The CI fuzz step: builds the libFuzzer targets with clang in build-fuzz (-DCIL_FUZZ=ON: ASan
# and UBSan), replays every crash reproducer ever found (regressions/<target>/, one file per
# defect, named after it) and the saved corpus (corpus/<target>/), then fuzzes each target for a
# short while from that corpus with the dictionary. Any crash, leak, UBSan report, timeout
# (10 s per input) or out-of-memory fails the step; the input is kept in build-fuzz/artifacts.
#   tests/fuzz/run_ci.sh [SECONDS_PER_TARGET]      (default 10, or CIL_FUZZ_SECONDS)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fuzz="$root/tests/fuzz"
seconds=${1:-${CIL_FUZZ_SECONDS:-10}}
build=${CIL_FUZZ_BUILD:-$root/build-fuzz}
targets=(pe metadata signature il pipeline pdb)
start=$(date +%s)

# Largest input per target: whole files for pe and pipeline, smaller units for the others.
max_len() {
  case $1 in
    pe|pipeline) echo 262144 ;;
    metadata) echo 8192 ;;
    pdb) echo 16384 ;;
    signature) echo 4096 ;;
    il) echo 65536 ;;
  esac
}

command -v clang++ > /dev/null || { echo "run_ci.sh: clang++ is required for the fuzz targets" >&2; exit 1; }
echo "== build fuzz targets (clang, ASan + UBSan + libFuzzer) in $build"
# A tree already configured for fuzzing (scripts/test.sh's sanitized build, which also holds the
# tests) is reused as it is; otherwise one is configured for the fuzz targets alone.
if ! grep -q '^CIL_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2> /dev/null; then
  cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCIL_FUZZ=ON \
    -DCIL_TESTS=OFF -DCIL_BENCH=OFF > /dev/null
fi
mkdir -p "$build"
cmake --build "$build" -j 2 --target "${targets[@]/%/_fuzzer}" > "$build/build.log" 2>&1 || { tail -50 "$build/build.log"; exit 1; }
built=$(date +%s)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$build/artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
report=()

keep_artifacts() {
  local t=$1
  for a in "$work/$t-"*; do
    [ -e "$a" ] || continue
    cp "$a" "$build/artifacts/"
    echo "run_ci.sh: $t: input kept in $build/artifacts/$(basename "$a"); once fixed, add it as" \
         "tests/fuzz/regressions/$t/<defect-name>" >&2
  done
}

# fuzz_one TARGET: replays and fuzzes one target; its summary line goes to $work/TARGET.report,
# and $work/TARGET.failed marks a failure.
fuzz_one() {
  local t=$1 bin="$build/tests/fuzz/${1}_fuzzer" rc runs speed
  local common=(-max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048
                -artifact_prefix="$work/$t-")
  # Every reproducer ever found, one by one.
  local regressions
  mapfile -t regressions < <(find "$fuzz/regressions/$t" -type f 2> /dev/null | sort)
  if [ ${#regressions[@]} -gt 0 ]; then
    if ! "$bin" "${common[@]}" "${regressions[@]}" > "$work/$t-replay.log" 2>&1; then
      tail -30 "$work/$t-replay.log" >&2
      echo "run_ci.sh: $t: a regression input fails again" >&2
      keep_artifacts "$t"
      printf '%-10s FAILED: a regression input fails again\n' "$t" > "$work/$t.report"
      touch "$work/$t.failed"
      return
    fi
  fi
  # The saved corpus (executed once while loading), then fuzzing from it into a scratch corpus.
  mkdir -p "$work/corpus-$t"
  set +e
  "$bin" "${common[@]}" -dict="$fuzz/cil.dict" -max_total_time="$seconds" -print_final_stats=1 \
    "$work/corpus-$t" "$fuzz/corpus/$t" > "$work/$t.log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$t.log")
  if [ $rc -ne 0 ]; then
    grep -E -m 20 'ERROR|SUMMARY|fuzz check|runtime error|Test unit written' "$work/$t.log" >&2 || tail -30 "$work/$t.log" >&2
    keep_artifacts "$t"
    touch "$work/$t.failed"
    printf '%-10s FAILED (exit %s) after %s executions\n' "$t" "$rc" "${runs:-?}" > "$work/$t.report"
  else
    printf '%-10s %6s regressions  %9s executions  %6s exec/s  %4s new inputs\n' "$t" \
      "${#regressions[@]}" "${runs:-?}" "${speed:-?}" "$(find "$work/corpus-$t" -type f | wc -l)" > "$work/$t.report"
  fi
}

# The targets run side by side, as many at a time as there are cores (each fuzzer is one thread).
jobs_max=$(nproc)
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
for t in "${targets[@]}"; do
  [ -f "$work/$t.report" ] && report+=("$(cat "$work/$t.report")") || report+=("$(printf '%-10s FAILED: no report' "$t")")
  [ -f "$work/$t.report" ] && [ ! -e "$work/$t.failed" ] || failed=1
done

echo "== fuzz summary (${seconds} s per target; build $((built - start)) s, total $(( $(date +%s) - start )) s)"
printf '%s\n' "${report[@]}"
exit $failed
