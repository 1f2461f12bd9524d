#!/usr/bin/env bash
# What `cil-instrument attach` costs per method (issue 17): a generated program with N small
# methods (Many.C::M0..M{N-1}, none inlined) calls each of them every 100 ms; `attach --include
# 'Many.C::*'` puts a probe in every one through ReJIT, collects for 2 s, reverts.
# Printed, from the session record and the profiler's statistics (--stats):
#   - RequestReJIT of the N methods (window-full-ns - window-start-ns), per method;
#   - GetReJITParameters (our rewrite: original IL, engine, probe, SetILFunctionBody), median,
#     p99 and total;
#   - RequestRevert of the N methods, per method;
#   - the process's extra CPU time in the session (the runtime recompiling the N methods twice,
#     with the probe and back), against the same length of time before the attach, per method;
#   - each method's count (20 expected: 2 s at one call per 100 ms, give or take one).
#   bench/attach_bench.sh [--methods N] [--tool PATH]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
methods=2000
tool=""
while [ $# -gt 0 ]; do
  case "$1" in
    --methods) methods=$2; shift 2 ;;
    --tool) tool=$2; shift 2 ;;
    *) echo "usage: $0 [--methods N] [--tool PATH]" >&2; exit 2 ;;
  esac
done
if [ -z "$tool" ]; then
  for t in "$ROOT/build-bench/src/cil-instrument" "$ROOT/build/src/cil-instrument"; do
    [ -x "$t" ] && { tool=$t; break; }
  done
fi
[ -x "$tool" ] || { echo "no cil-instrument (build it, or pass --tool)" >&2; exit 1; }
tool=$(readlink -f "$tool")
work=$(mktemp -d)
app_pid=""
trap '[ -n "$app_pid" ] && kill "$app_pid" 2> /dev/null; rm -rf "$work"' EXIT
cd "$work"

python3 - "$methods" > Many.cs << 'PY'
import sys
n = int(sys.argv[1])
print('using System; using System.Runtime.CompilerServices; using System.Threading;')
print('namespace Many {')
print('static class C {')
for i in range(n):
    print(f'  [MethodImpl(MethodImplOptions.NoInlining)] public static long M{i}(long x) => x * {i + 3} + {i};')
print('}')
print('static class Program {')
print('  static long Round(long r) { long s = 0;')
for i in range(n):
    print(f'    s += C.M{i}(r);')
print('    return s; }')
print('  static int Main(string[] a) {')
print('    int rounds = int.Parse(a[0]);')
print('    System.IO.File.WriteAllText(a[1], Environment.ProcessId.ToString());')
print('    long t = 0;')
print('    for (int r = 0; r < rounds; r++) { t += Round(r); Thread.Sleep(100); }')
print('    Console.WriteLine(t);')
print('    return 0; } } }')
PY
"$ROOT/scripts/csc.sh" Many.dll /optimize+ /debug- Many.cs > /dev/null
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

dotnet Many.dll 100 ready > /dev/null &
app_pid=$!
for _ in $(seq 1 200); do [ -s ready ] && break; sleep 0.05; done
pid=$(cat ready)
sleep 1.5  # past start-up and tier-up
quiet_start=$(cpu_ticks "$pid")
sleep 2.5
quiet_end=$(cpu_ticks "$pid")
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $methods methods"
session_start=$(cpu_ticks "$pid")
"$tool" attach "$pid" --include 'Many.C::*' --duration 2s --stats stats.jsonl -o out -q
session_end=$(cpu_ticks "$pid")
kill "$app_pid" 2> /dev/null || true
python3 - "$methods" "$quiet_start" "$quiet_end" "$session_start" "$session_end" "$(getconf CLK_TCK)" << 'PY'
import glob, json, sys
n = int(sys.argv[1])
q0, q1, s0, s1, hz = (int(v) for v in sys.argv[2:7])
rec = dict(l.split(' ', 1) for l in open(glob.glob('out/*.session')[0]).read().splitlines())
ns = {k: int(v) for k, v in rec.items() if k.endswith('-ns')}
stats = json.loads(open('stats.jsonl').readline())['rewritten']
counts = [m['count'] for m in json.load(open(glob.glob('out/*.counts.json')[0]))['methods']]
request = (ns['window-full-ns'] - ns['window-start-ns']) / 1e3
revert = (ns['window-closed-ns'] - ns['window-end-ns']) / 1e3
session_s = (ns['window-closed-ns'] - ns['window-start-ns']) / 1e9
quiet_cpu = (q1 - q0) / hz * 1e3 / 2.5 * session_s   # ms, scaled to the session's length
extra = (s1 - s0) / hz * 1e3 - quiet_cpu
print(f"| {'step':<44} | {'total':>10} | {'per method':>11} |")
print(f"|{'-' * 46}|{'-' * 12}|{'-' * 13}|")
print(f"| {'RequestReJIT of every method':<44} | {request / 1e3:>7.1f} ms | {request / n:>8.2f} us |")
print(f"| {'GetReJITParameters (ours), total':<44} | {stats['total_us'] / 1e3:>7.1f} ms | {stats['total_us'] / max(stats['count'], 1):>8.2f} us |")
print(f"| {'  median / p99 of one':<44} | {'':>10} | {stats['median_us']:>5.2f} / {stats['p99_us']:.1f} us |")
print(f"| {'RequestRevert of every method':<44} | {revert / 1e3:>7.1f} ms | {revert / n:>8.2f} us |")
print(f"| {'process CPU beyond its idle rate (JIT twice)':<44} | {extra:>7.0f} ms | {extra * 1e3 / n:>8.0f} us |")
print(f"methods rewritten {stats['count']} of {n}; counts per method: min {min(counts)}, max {max(counts)} (expected about 20)")
PY
