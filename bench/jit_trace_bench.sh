#!/usr/bin/env bash
# Trace mode at JIT time (`run --mode trace --hooks`) against offline trace mode (issue 38):
#  1. the per-call cost: bench/trace/TraceBench.cs (a tiny int Add(int, int) in a loop, best of 7
#     rounds of CALLS calls) traced with EmptyHooks (OnEnter() and OnLeave() that take nothing),
#     offline (an instrumented copy) and at JIT time (the plain program under `run`), ROUNDS
#     processes each, medians; target: JIT time within 10% of offline;
#  2. the cost of the rewrite per method: Roslyn (csc from the SDK) compiling
#     tests/data/realworld/Program.cs with every Microsoft.CodeAnalysis.* method traced with
#     EmptyHooks; the profiler's --stats line gives the rewrite's CPU time per method (the module's
#     set-up, the definitions of its helper type, included); target: at most 20 us on average.
# Prints a table of both and the load average. Nothing is asserted: bench/README.md keeps the figures.
#   bench/jit_trace_bench.sh [TOOL] [ROUNDS] [CALLS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=$(readlink -f "${1:-$root/build/src/cil-instrument}")
rounds=${2:-5}
calls=${3:-20000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

"$root/scripts/csc.sh" plain/TraceBench.dll /optimize+ /debug- "$root/bench/trace/TraceBench.cs" > /dev/null
"$root/scripts/csc.sh" EmptyHooks.dll /optimize+ /debug- /target:library "$root/bench/trace/EmptyHooks.cs" > /dev/null
mkdir -p offline
cp EmptyHooks.dll plain/TraceBench.runtimeconfig.json offline/
"$tool" plain/TraceBench.dll -o offline/TraceBench.dll --mode trace --hooks EmptyHooks.dll --include 'TraceBench.Target::*' > /dev/null

for ((i = 0; i < rounds; i++)); do
  dotnet plain/TraceBench.dll "$calls" | cut -d' ' -f1 >> untraced.ns
  dotnet offline/TraceBench.dll "$calls" | cut -d' ' -f1 >> offline.ns
  "$tool" run -q -o "$work/out" --mode trace --hooks "$work/EmptyHooks.dll" --include 'TraceBench.Target::*' \
    -- dotnet plain/TraceBench.dll "$calls" | cut -d' ' -f1 >> jit.ns
done
base=$(median < untraced.ns)
offline=$(median < offline.ns)
jit=$(median < jit.ns)
printf '%-44s %10s %14s\n' "TraceBench, $calls calls x 7 rounds" "ns/call" "over untraced"
printf '%-44s %10s %14s\n' "untraced" "$base" "-"
printf '%-44s %10s %14s\n' "offline trace, EmptyHooks" "$offline" "$(python3 -c "print(f'{$offline - $base:.2f} ns')")"
printf '%-44s %10s %14s\n' "run --mode trace, EmptyHooks" "$jit" "$(python3 -c "print(f'{$jit - $base:.2f} ns')")"
python3 -c "print(f'JIT time against offline: {100 * ($jit - $offline) / $offline:+.1f}% per call (target: within 10%)')"

sdk_dir=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
ref_dir=$(ls -d "$dotnet_root"/packs/Microsoft.NETCore.App.Ref/*/ref/net* | sort -V | tail -n1)
refs=()
for r in "$ref_dir"/*.dll; do refs+=("/reference:$r"); done
csc=(dotnet "$sdk_dir/Roslyn/bincore/csc.dll" /nologo /noconfig /nostdlib+ /deterministic+ "${refs[@]}"
     "/out:$work/Program.dll" "$root/tests/data/realworld/Program.cs")
csc_runs=$(( rounds < 3 ? rounds : 3 ))
for ((i = 0; i < csc_runs; i++)); do
  /usr/bin/time -f '%e %U %S' -o "csc.plain.$i" "${csc[@]}" > /dev/null
  /usr/bin/time -f '%e %U %S' -o "csc.trace.$i" "$tool" run -q -o "$work/out" --stats "$work/stats.csc.jsonl" --mode trace \
    --hooks "$work/EmptyHooks.dll" --include 'Microsoft.CodeAnalysis.*' -- "${csc[@]}" > /dev/null
done
echo
python3 - "$work/stats.csc.jsonl" "$csc_runs" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
# csc is one process; a line per process whose profiler shut down, the one that rewrote counts.
rows = [r["rewritten"] for r in rows if r["rewritten"]["count"]]
avg = [r["total_us"] / r["count"] for r in rows]
print(f"csc under run --mode trace --include 'Microsoft.CodeAnalysis.*' ({len(rows)} runs): "
      f"{round(statistics.median(r['count'] for r in rows))} methods rewritten per run; CPU per rewrite: "
      f"average {statistics.median(avg):.1f} us, median {statistics.median(r['median_us'] for r in rows):.1f} us, "
      f"p99 {statistics.median(r['p99_us'] for r in rows):.1f} us (target: average at most 20 us)")
PY
plain=$(cut -d' ' -f1 csc.plain.* | median)
traced=$(cut -d' ' -f1 csc.trace.* | median)
plain_cpu=$(awk '{print $2 + $3}' csc.plain.* | median)
traced_cpu=$(awk '{print $2 + $3}' csc.trace.* | median)
echo "csc wall: plain $plain s, traced $traced s; CPU (user+sys): plain $plain_cpu s, traced $traced_cpu s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
