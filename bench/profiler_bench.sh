#!/usr/bin/env bash
# What the runtime profiler costs, in whole processes on the installed dotnet.
#
#  1. Wall time of testdata/bin/profiler/CpuBound.dll ROUNDS (a CPU-bound loop of small calls)
#     in five configurations, RUNS times each, round robin (so that load from elsewhere falls on
#     all of them), median wall and CPU time:
#       plain         dotnet CpuBound.dll
#       attached      run --mode count --include 'None.*'      the profiler loaded, selecting nothing
#       count app     run --mode count --include 'Fixtures.*'  probes in the app's methods
#       count all     run --mode count                         every method; precompiled code and
#                                                              inlining off for the whole process
#       offline       the offline count-instrumented copy      same probes, written before the run
#       rejit         run --start-after 1ms --include 'Fixtures.*'   the same probes put in through
#                     ReJIT (as `attach` and `run --window` do), from 1 ms after start to the end
#  2. The profiler's cost per JIT-compiled method, from its own timings (CIL_INSTRUMENT_STATS):
#     median and 99th percentile of the JITCompilationStarted callbacks that rewrote a method,
#     and of those that did not, for the runs above and for the SDK's C# compiler compiling
#     tests/data/realworld/Program.cs under --include 'Microsoft.CodeAnalysis.*'.
#
#   bench/profiler_bench.sh [--runs N] [--rounds R] [--tool PATH] [--no-roslyn]
# Defaults: 7 runs, 20000000 rounds (about 1.4 s plain on a 2-CPU machine), build-bench/src/cil-instrument (else build/src/...).
# Needs GNU time (/usr/bin/time).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=7
rounds=20000000
tool=""
roslyn=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --tool) tool=$2; shift 2 ;;
    --no-roslyn) roslyn=0; shift ;;
    *) echo "usage: $0 [--runs N] [--rounds R] [--tool PATH] [--no-roslyn]" >&2; exit 2 ;;
  esac
done
if [ -z "$tool" ]; then
  for t in "$ROOT/build-bench/src/cil-instrument" "$ROOT/build/src/cil-instrument"; do
    [ -x "$t" ] && { tool=$t; break; }
  done
fi
[ -x "$tool" ] || { echo "no cil-instrument (build it, or pass --tool)" >&2; exit 1; }
tool=$(readlink -f "$tool")
[ -f "$(dirname "$tool")/libcilprofiler.so" ] || { echo "no libcilprofiler.so next to $tool" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 1; }
export LC_ALL=C
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
app=$ROOT/testdata/bin/profiler/CpuBound.dll
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/offline" "$work/out"
cp "${app%.dll}.runtimeconfig.json" "$work/offline/"
"$tool" "$app" -o "$work/offline/CpuBound.dll" --include 'Fixtures.*' > /dev/null

configs=(plain attached count_app count_all offline rejit)
label() {
  case "$1" in
    plain) echo "plain dotnet" ;;
    attached) echo "profiler attached, nothing selected" ;;
    count_app) echo "run --mode count --include 'Fixtures.*'" ;;
    count_all) echo "run --mode count (every method)" ;;
    offline) echo "offline count-instrumented copy" ;;
    rejit) echo "run --start-after 1ms --include 'Fixtures.*'" ;;
  esac
}
set_command() {  # sets cmd to the command line of a configuration
  local stats=$work/stats.$1.jsonl
  case "$1" in
    plain) cmd=(dotnet "$app" "$rounds") ;;
    attached) cmd=("$tool" run -q -o "$work/out" --stats "$stats" --include 'None.*' -- dotnet "$app" "$rounds") ;;
    count_app) cmd=("$tool" run -q -o "$work/out" --stats "$stats" --include 'Fixtures.*' -- dotnet "$app" "$rounds") ;;
    count_all) cmd=("$tool" run -q -o "$work/out" --stats "$stats" -- dotnet "$app" "$rounds") ;;
    offline) cmd=(env CIL_INSTRUMENT_OUTPUT="$work/out" dotnet "$work/offline/CpuBound.dll" "$rounds") ;;
    rejit) cmd=("$tool" run -q -o "$work/out" --stats "$stats" --start-after 1ms --include 'Fixtures.*' -- dotnet "$app" "$rounds") ;;
  esac
}

echo "CpuBound.dll $rounds rounds, $runs runs per configuration, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
dotnet "$app" "$rounds" > "$work/expected.txt"
for ((i = 0; i < runs; i++)); do
  for c in "${configs[@]}"; do
    set_command "$c"
    /usr/bin/time -f '%e %U %S' -o "$work/time.$c.$i" "${cmd[@]}" > "$work/out.$c.txt"
    cmp -s "$work/expected.txt" "$work/out.$c.txt" || { echo "$c: the program's output differs" >&2; exit 1; }
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
base=$(for ((i = 0; i < runs; i++)); do cut -d' ' -f1 "$work/time.plain.$i"; done | median)
base_cpu=$(for ((i = 0; i < runs; i++)); do awk '{ print $2 + $3 }' "$work/time.plain.$i"; done | median)
percent() { awk -v v="$1" -v b="$2" 'BEGIN { printf "%+.0f%%", (v / b - 1) * 100 }'; }
printf '\n| %-42s | %8s | %8s | %8s | %8s |\n' configuration "wall s" "+wall" "CPU s" "+CPU"
printf '|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..44})" "----------" "----------" "----------" "----------"
for c in "${configs[@]}"; do
  wall=$(for ((i = 0; i < runs; i++)); do cut -d' ' -f1 "$work/time.$c.$i"; done | median)
  cpu=$(for ((i = 0; i < runs; i++)); do awk '{ print $2 + $3 }' "$work/time.$c.$i"; done | median)
  printf '| %-42s | %8.2f | %8s | %8.2f | %8s |\n' "$(label "$c")" "$wall" "$(percent "$wall" "$base")" "$cpu" \
    "$(percent "$cpu" "$base_cpu")"
done

stats_table() {  # stats_table LABEL FILE: median of the per-run medians and p99s
  python3 - "$@" <<'PY'
import json, statistics, sys
label, path = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(path) if l.strip()]
def part(key):
    parts = [r[key] for r in rows if r[key]["count"]]
    if not parts:
        return "-", "-", "-"
    return (str(round(statistics.median(p["count"] for p in parts))),
            f"{statistics.median(p['median_us'] for p in parts):.1f}",
            f"{statistics.median(p['p99_us'] for p in parts):.1f}")
r, p = part("rewritten"), part("passed")
print(f"| {label:<46} | {r[0]:>9} | {r[1]:>9} | {r[2]:>8} | {p[0]:>7} | {p[1]:>9} | {p[2]:>8} |")
PY
}
printf '\n| %-46s | %9s | %9s | %8s | %7s | %9s | %8s |\n' "JIT callbacks (us)" rewritten median p99 others median p99
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..48})" "-----------" "-----------" "----------" "---------" "-----------" "----------"
stats_table "CpuBound, nothing selected" "$work/stats.attached.jsonl"
stats_table "CpuBound, --include 'Fixtures.*'" "$work/stats.count_app.jsonl"
stats_table "CpuBound, every method" "$work/stats.count_all.jsonl"
stats_table "CpuBound, --include 'Fixtures.*' through ReJIT" "$work/stats.rejit.jsonl"

if [ $roslyn = 1 ] && [ -n "$(dotnet --list-sdks 2> /dev/null)" ]; then
  sdk_dir=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
  dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
  ref_dir=$(ls -d "$dotnet_root"/packs/Microsoft.NETCore.App.Ref/*/ref/net* | sort -V | tail -n1)
  refs=()
  for r in "$ref_dir"/*.dll; do refs+=("/reference:$r"); done
  csc=(dotnet "$sdk_dir/Roslyn/bincore/csc.dll" /nologo /noconfig /nostdlib+ /deterministic+ "${refs[@]}"
       "/out:$work/Program.dll" "$ROOT/tests/data/realworld/Program.cs")
  roslyn_runs=$(( runs < 3 ? runs : 3 ))
  for ((i = 0; i < roslyn_runs; i++)); do
    /usr/bin/time -f '%e' -o "$work/csc.plain.$i" "${csc[@]}" > /dev/null
    /usr/bin/time -f '%e' -o "$work/csc.count.$i" "$tool" run -q -o "$work/out" --stats "$work/stats.csc.jsonl" \
      --include 'Microsoft.CodeAnalysis.*' -- "${csc[@]}" > /dev/null
  done
  stats_table "csc, --include 'Microsoft.CodeAnalysis.*'" "$work/stats.csc.jsonl"
  plain=$(cat "$work"/csc.plain.* | median)
  counted=$(cat "$work"/csc.count.* | median)
  echo
  echo "csc compiling tests/data/realworld/Program.cs ($roslyn_runs runs): plain $plain s, under run --mode count --include 'Microsoft.CodeAnalysis.*' $counted s"
fi
