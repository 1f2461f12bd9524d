#!/usr/bin/env bash
# Our CPU time against input size and method count, one process per file over the shared
# framework's managed files (issue 18): the least-squares line, its intercept (the fixed cost of a
# process), and the files furthest from it.
#
#   bench/scaling.sh [--tool PATH] [--runs N] [--svg FILE] [--work DIR] [DIR]
#
#   DIR     default: the newest Microsoft.NETCore.App shared framework
#   --runs  runs per file (default 3; CPU = median); the files go round robin
#   --svg   also draw CPU ms against MB, with the fit line, into FILE
# Every run is `cil-instrument FILE -o OUT` through cil_bench_run (user + system CPU from wait4;
# the split between the two is the kernel's tick-based estimate, rough for a process this short).
# For the fixed cost, the same timer runs `cil-instrument --version` (the process without an
# input) and `/bin/true` (a process at all). Files the tool refuses are left out; facades (no
# method body) are in, as the fixed cost's own points.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
tool="" runs=3 svg="" work="" dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --svg) svg=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "scaling.sh: unknown option $1" >&2; exit 2 ;;
    *) dir=$1; shift ;;
  esac
done
if [ -z "$tool" ]; then
  for t in "$repo/build-bench/src/cil-instrument" "$repo/build/src/cil-instrument"; do
    [ -x "$t" ] && { tool=$t; break; }
  done
fi
[ -n "$tool" ] && [ -x "$tool" ] || { echo "scaling.sh: no cil-instrument (build it, or pass --tool)" >&2; exit 2; }
tool=$(readlink -f "$tool")
timer=""
for t in "$(dirname "$tool")/../bench/cil_bench_run" "$repo/build-bench/bench/cil_bench_run" "$repo/build/bench/cil_bench_run"; do
  [ -x "$t" ] && { timer=$(readlink -f "$t"); break; }
done
[ -n "$timer" ] || { echo "scaling.sh: no cil_bench_run" >&2; exit 2; }
[ -n "$dir" ] || dir=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2; d=$3} END{gsub(/[][]/,"",d); print d "/" v}')
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/cil-scaling.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
export CIL_INSTRUMENT_OUTPUT="$work/counts"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
files=("$dir"/*.dll)
: > "$work/runs.tsv"
for ((i = 0; i < runs; i++)); do
  for f in "${files[@]}"; do
    name=$(basename "$f" .dll)
    read -r wall cpu kb status user sys faults < <("$timer" --stdout "$work/$name.out" --stderr "$work/$name.err" -- "$tool" "$f" -o "$work/$name.dll")
    methods=$(grep -oE 'instrumented [0-9]+ method' "$work/$name.out" | grep -oE '[0-9]+' || echo 0)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(stat -L -c %s "$f")" "$methods" "$cpu" "$wall" "$status" \
      "$user" "$sys" "$faults" >> "$work/runs.tsv"
  done
  for c in version true; do
    if [ "$c" = version ]; then cmd=("$tool" --version); else cmd=(/bin/true); fi
    read -r wall cpu kb status user sys faults < <("$timer" --stdout /dev/null --stderr /dev/null -- "${cmd[@]}")
    printf '%s\t0\t0\t%s\t%s\t%s\t%s\t%s\t%s\n' "($c)" "$cpu" "$wall" "$status" "$user" "$sys" "$faults" >> "$work/runs.tsv"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$work/runs.tsv" "$svg" "$tool" "$dir" <<'PY'
import statistics, sys
from collections import defaultdict
runs, svg, tool, folder = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
by = defaultdict(list)
split = defaultdict(list)
meta = {}
for line in open(runs):
    name, size, methods, cpu, wall, status, user, sys_, faults = line.rstrip('\n').split('\t')
    meta[name] = (int(size), int(methods))
    if status != '0':
        continue
    by[name].append(int(cpu))
    split[name].append((int(user), int(sys_), int(faults)))

def parts(names):
    """median user ms, system ms and minor faults over the runs of NAMES"""
    runs_ = [r for n in names for r in split[n]]
    return tuple(statistics.median(r[i] for r in runs_) / (1000 if i < 2 else 1) for i in range(3)) if runs_ else (0, 0, 0)
version_parts, true_parts = parts(['(version)']), parts(['(true)'])
version = statistics.median(by.pop('(version)', [0])) / 1000
true = statistics.median(by.pop('(true)', [0])) / 1000
meta.pop('(version)', None); meta.pop('(true)', None)
rows = [(n, meta[n][0] / 1048576, meta[n][1], statistics.median(v) / 1000) for n, v in by.items()]
facades = sorted(n for n in by if meta[n][1] == 0)
refused = sorted(set(meta) - set(by))

def fit(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    res = [y - (a + b * x) for x, y in zip(xs, ys)]
    ss = sum((y - my) ** 2 for y in ys)
    r2 = 1 - sum(r * r for r in res) / ss if ss else 1
    return a, b, r2, res

mb = [r[1] for r in rows]; me = [r[2] for r in rows]; cpu = [r[3] for r in rows]
a1, b1, r21, res1 = fit(mb, cpu)
a2, b2, r22, res2 = fit(me, cpu)
print(f"{len(rows)} files instrumented ({sum(mb):.1f} MB, {sum(me):,} methods) from {folder}, of which {len(facades)} "
      f"with no method body (facades: the whole job but the probes); refused: {', '.join(refused) or 'none'}")
small = [r[3] for r in rows if r[2] == 0]
if small:
    u, s_, f = parts(facades)
    print(f"median CPU of the facades: {statistics.median(small):.2f} ms (user {u:.2f}, system {s_:.2f}, {f:.0f} minor faults)")
print(f"CPU ms = {a1:.2f} + {b1:.2f} x MB            (R^2 {r21:.3f})")
print(f"CPU ms = {a2:.2f} + {b2 * 1000:.3f} x thousand methods   (R^2 {r22:.3f})")
# Both at once (normal equations, 3x3, Cramer's rule): size stands for the bytes read and
# written (ReadyToRun code is copied as is), methods for the bodies rewritten.
def fit2(x1, x2, ys):
    n = len(ys)
    S = lambda f: sum(f(i) for i in range(n))
    A = [[n, S(lambda i: x1[i]), S(lambda i: x2[i])],
         [S(lambda i: x1[i]), S(lambda i: x1[i] ** 2), S(lambda i: x1[i] * x2[i])],
         [S(lambda i: x2[i]), S(lambda i: x1[i] * x2[i]), S(lambda i: x2[i] ** 2)]]
    v = [S(lambda i: ys[i]), S(lambda i: x1[i] * ys[i]), S(lambda i: x2[i] * ys[i])]
    det = lambda m: (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                     + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    d = det(A)
    out = []
    for k in range(3):
        m = [row[:] for row in A]
        for r in range(3):
            m[r][k] = v[r]
        out.append(det(m) / d)
    res = [ys[i] - (out[0] + out[1] * x1[i] + out[2] * x2[i]) for i in range(n)]
    my = sum(ys) / n
    r2 = 1 - sum(r * r for r in res) / sum((y - my) ** 2 for y in ys)
    return out, r2, res
(c0, c1, c2), r2b, res3 = fit2(mb, [k / 1000 for k in me], cpu)
print(f"CPU ms = {c0:.2f} + {c1:.2f} x MB + {c2:.3f} x thousand methods   (R^2 {r2b:.3f}; "
      f"largest residual {max(abs(r) for r in res3):.1f} ms)")
print(f"a process without input: cil-instrument --version {version:.2f} ms CPU (user {version_parts[0]:.2f}, system "
      f"{version_parts[1]:.2f}, {version_parts[2]:.0f} minor faults), /bin/true {true:.2f} ms CPU (user {true_parts[0]:.2f}, "
      f"system {true_parts[1]:.2f}, {true_parts[2]:.0f} minor faults)")
print(f"sum of per-file CPU: {sum(cpu):.0f} ms, of which the fitted fixed cost x files: {a1 * len(rows):.0f} ms")
print()
print("the files furthest from the MB line (ms CPU above (+) or below (-) it):")
order = sorted(range(len(rows)), key=lambda i: -abs(res1[i]))
print("  file | MB | methods | CPU ms | residual ms | ms per 1000 methods")
for i in order[:8]:
    n, m, k, c = rows[i]
    print(f"  {n} | {m:.2f} | {k} | {c:.1f} | {res1[i]:+.1f} | {1000 * (c - a1) / max(k, 1):.2f}")
print()
print("by size (every 10th file, and the largest):")
srt = sorted(rows, key=lambda r: r[1])
for r in srt[::10] + [srt[-1]]:
    print(f"  {r[0]} | {r[1]:.2f} MB | {r[2]} methods | {r[3]:.1f} ms")

if svg:
    W, H, L, B = 720, 440, 60, 40
    xmax = max(mb) * 1.05; ymax = max(cpu) * 1.1
    X = lambda x: L + (W - L - 20) * x / xmax
    Y = lambda y: H - B - (H - B - 20) * y / ymax
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<line x1="{L}" y1="{H-B}" x2="{W-20}" y2="{H-B}" stroke="black"/>',
           f'<line x1="{L}" y1="{H-B}" x2="{L}" y2="20" stroke="black"/>',
           f'<text x="{W/2}" y="{H-8}" text-anchor="middle">input MB</text>',
           f'<text x="14" y="{H/2}" transform="rotate(-90 14 {H/2})" text-anchor="middle">CPU ms (user + system)</text>']
    for t in range(0, int(xmax) + 1, max(1, int(xmax / 8))):
        out.append(f'<text x="{X(t)}" y="{H-B+14}" text-anchor="middle">{t}</text>')
    step = max(5, int(ymax / 8 / 5) * 5)
    for t in range(0, int(ymax) + 1, step):
        out.append(f'<text x="{L-6}" y="{Y(t)+4}" text-anchor="end">{t}</text>')
    for (n, m, k, c) in rows:
        out.append(f'<circle cx="{X(m):.1f}" cy="{Y(c):.1f}" r="2.5" fill="steelblue"><title>{n}: {m:.2f} MB, {k} methods, {c:.1f} ms</title></circle>')
    out.append(f'<line x1="{X(0)}" y1="{Y(a1):.1f}" x2="{X(xmax):.1f}" y2="{Y(a1 + b1 * xmax):.1f}" stroke="firebrick"/>')
    out.append(f'<text x="{L+10}" y="30" fill="firebrick">CPU ms = {a1:.1f} + {b1:.2f} x MB (R² {r21:.3f}), {len(rows)} files</text>')
    out.append('</svg>')
    open(svg, 'w').write('\n'.join(out) + '\n')
    print(f"\nwrote {svg}")
PY
