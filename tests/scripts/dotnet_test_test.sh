#!/usr/bin/env bash
# `dotnet test` never loses counts (issue 20, offline part): an xunit project
# (tests/apps/dotnet_test, restored from NuGet by this test) whose tests make 4,003 calls of
# Calc.Add in a library instrumented in count mode runs RUNS times (default 10) under `dotnet
# test` with the default VSTest settings (the test host is killed 100 ms after the session ends),
# with a CPU burner this test starts running beside it (one core kept busy: with ctest's other
# test alongside, a 2-core machine has no core to spare). Each run must leave Counted's counts
# with exactly 4,003 calls: its counts file, or, when the host was killed before or during the
# final write, its live file (report reads it, and prefers it when both are there). The test says
# how many runs needed the live file. Nothing is asserted on the wall clock.
# MODE profiler: the library is not instrumented; `cil-instrument run --mode count -- dotnet test`
# profiles it (5 runs by default: run sets the shutdown timeout, so the race is gone by design);
# a run that leaves no counts shows its output and the profiler's statistics (--stats: a line per
# process whose profiler reached Shutdown), which tell a missing shutdown from a failed write.
# Then one run under `run --mode trace --hooks TraceHooks.dll`: the suite passes and every traced
# method's enters and leaves balance in the hooks' log.
# MODE exec: `cil-instrument exec BIN -- dotnet test` instruments the test folder in place (3 runs
# by default), and the folder must be back each time.
#   tests/scripts/dotnet_test_test.sh [TOOL] [offline|profiler|exec]
#   (CIL_DOTNET_TEST_RUNS=N to change the number of runs)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mode=${2:-offline}
case $mode in
  offline) default_runs=10 ;;
  profiler) default_runs=5 ;;
  exec) default_runs=3 ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
# What this judges runs on dotnet, not in the tool (which instruments one small library): the
# sanitized pass would only repeat the plain one at three times the cost.
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "dotnet_test: skipped under the sanitizers"; exit 77; }
runs=${CIL_DOTNET_TEST_RUNS:-$default_runs}
work=$(mktemp -d)
burners=()
cleanup() {
  for p in "${burners[@]}"; do kill "$p" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
bash "$ROOT/scripts/csc.sh" "$work/lib/Counted.dll" /target:library "$ROOT/tests/apps/dotnet_test/Counted.cs" > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the library did not compile"; finish; }
cp -r "$ROOT/tests/apps/dotnet_test/CountedTests" "$work/"
if ! (cd "$work/CountedTests" && timeout 600 dotnet build -nologo -v q -p:CountedPath="$work/lib/Counted.dll" -o "$work/bin" > "$work/build.log" 2>&1); then
  if grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/build.log"; then
    echo "the NuGet packages of the test project cannot be restored here: skipped" >&2
    exit 77
  fi
  cat "$work/build.log" >&2
  fail "the test project did not build"
  finish
fi
if [ "$mode" = offline ]; then
  "$TOOL" "$work/lib/Counted.dll" -o "$work/bin/Counted.dll" > /dev/null || { fail "instrumenting failed"; finish; }
fi
original=$(cd "$work/bin" && find . -type f | sort | xargs sha256sum)

python3 -c 'while True: pass' &
burners+=($!)
complete=0
from_live=0
shopt -s nullglob
for ((r = 1; r <= runs; r++)); do
  out="$work/counts/$r"
  mkdir -p "$out" "$work/stats"
  case $mode in
    offline) command=(env CIL_INSTRUMENT_OUTPUT="$out" dotnet test "$work/bin/CountedTests.dll") ;;
    profiler) command=("$TOOL" run --mode count --include 'Counted.*' -o "$out" --stats "$work/stats/$r.jsonl" -q -- dotnet test "$work/bin/CountedTests.dll") ;;
    exec) command=("$TOOL" exec --assemblies Counted.dll -o "$out" "$work/bin" -- dotnet test "$work/bin/CountedTests.dll") ;;
  esac
  ok=1
  (cd "$work" && timeout 600 "${command[@]}" > "$work/test.log" 2>&1) || ok=0
  if [ "$mode" = exec ] && [ "$(cd "$work/bin" && find . -type f | sort | xargs sha256sum)" != "$original" ]; then
    fail "run $r: exec left the test folder changed"
  fi
  if [ $ok = 0 ]; then
    tail -20 "$work/test.log" >&2
    fail "run $r: dotnet test failed"
    continue
  fi
  # The profiler also writes the other modules its filter selected none of: only Counted matters.
  json_files=("$out"/Counted.*.counts.json)
  live_files=("$out"/Counted.*.counts.live)
  if [ ${#json_files[@]} -gt 1 ] || [ ${#live_files[@]} -gt 1 ] || [ $((${#json_files[@]} + ${#live_files[@]})) -eq 0 ]; then
    # What tells a missing write from a missing shutdown: the run's output, and (profiler) one
    # statistics line per process whose profiler reached Shutdown.
    tail -20 "$work/test.log" >&2
    [ -f "$work/stats/$r.jsonl" ] && { echo "profiler statistics of run $r:" >&2; cat "$work/stats/$r.jsonl" >&2; }
    fail "run $r: expected one counts file or live file, found: $(ls "$out")"
    continue
  fi
  [ ${#live_files[@]} -eq 1 ] && from_live=$((from_live + 1))
  calls=$("$TOOL" report --json "${json_files[@]}" "${live_files[@]}" | python3 -c 'import json,sys
r = json.load(sys.stdin)
print(sum(m["count"] for a in r["assemblies"] for m in a["methods"] if m["name"] == "Counted.Calc::Add"))') ||
    { fail "run $r: report refused the counts file"; continue; }
  [ "$calls" = 4003 ] || { fail "run $r: Counted.Calc::Add counted $calls times, not 4003"; continue; }
  complete=$((complete + 1))
done
echo "$complete of $runs dotnet test runs left Counted's counts with 4003 calls ($from_live of them in the live file: the host was killed before its final write)"

if [ "$mode" = profiler ]; then
  # The same suite once under trace mode at JIT time (issue 38), the hooks loaded by the profiler
  # into the test host: it passes, and TraceHooks' log has, for every traced method, as many
  # leaves as enters (Calc.Add 4,003 of each, CalcTests.Adds 3).
  for p in "${burners[@]}"; do kill "$p" 2> /dev/null || true; done
  burners=()
  if (cd "$work" && CIL_TRACE_LOG="$work/trace.log" timeout 600 "$TOOL" run -q --mode trace --hooks "$ROOT/testdata/bin/trace/TraceHooks.dll" \
    --include 'Counted.*' --include 'CalcTests::*' -o "$work/trace" -- dotnet test "$work/bin/CountedTests.dll" > "$work/trace-test.log" 2>&1); then
    balance=$(python3 - "$work/trace.log" <<'PY'
import collections, re, sys
enters, leaves = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    m = re.match(r"\s*(enter|leave) (\S+?)(?: 0x| ->| threw|$)", line)
    if m: (enters if m[1] == "enter" else leaves)[m[2]] += 1
bad = [f"{k}: {enters[k]} enters, {leaves[k]} leaves" for k in sorted(set(enters) | set(leaves)) if enters[k] != leaves[k]]
if enters["Counted.Calc::Add"] != 4003: bad.append(f"Counted.Calc::Add entered {enters['Counted.Calc::Add']} times, not 4003")
if enters["CalcTests::Adds"] != 3: bad.append(f"CalcTests::Adds entered {enters['CalcTests::Adds']} times, not 3")
print("; ".join(bad) if bad else f"ok {len(enters)} {sum(enters.values())}")
PY
)
    case $balance in
      ok*) set -- $balance; echo "ok   dotnet test under run --mode trace: passed; $3 calls of $2 methods, each with as many leaves as enters" ;;
      *) fail "dotnet test under run --mode trace: $balance" ;;
    esac
  else
    tail -20 "$work/trace-test.log" >&2
    fail "dotnet test failed under run --mode trace"
  fi
fi
finish
