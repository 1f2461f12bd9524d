#!/usr/bin/env bash
# The cost of writing the counts file at exit (issue 20): a generated app with N trivial methods,
# each called once, instrumented in count mode by each TOOL. The app registers its own
# ProcessExit handler after the helper's (the helper's class constructor runs at Main's first
# probe), so handlers run helper first; the app's handler prints the Stopwatch time since the
# end of Main. That is the helper's whole exit path, from ProcessExit to the file's rename (plus
# the runtime's step from Main's return to ProcessExit, which the uninstrumented "plain" line
# shows). Median of RUNS runs, round robin over the tools. Each line also gives the median wall
# time of the whole process (start-up, where the helper's class constructor writes and maps the
# live file, to exit), which "plain" gives for the uninstrumented app.
#
#   bench/count_exit.sh [--runs N] [--methods "3000 40000"] TOOL [TOOL...]
# e.g. bench/count_exit.sh /tmp/before/cil-instrument build/src/cil-instrument
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=7
sizes="3000 40000"
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --methods) sizes=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--runs N] [--methods \"3000 40000\"] TOOL..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for n in $sizes; do
  src="$work/Exit$n.cs"
  python3 - "$n" > "$src" <<'PY'
import sys
n = int(sys.argv[1])
print("using System; using System.Diagnostics;")
print("static class M {")
for i in range(n):
    print(f"  public static int M{i}(int x) => x + {i};")
print("}")
print("""static class Program {
  static long end;
  static void OnExit(object s, EventArgs e) {
    long now = Stopwatch.GetTimestamp();
    if (s == null) return;
    Console.WriteLine(((now - end) * 1000000 / Stopwatch.Frequency).ToString());
  }
  static int Main() {
    OnExit(null, null);  // compiled before the measured interval
    AppDomain.CurrentDomain.ProcessExit += OnExit;
    int x = 0;""")
for i in range(n):
    print(f"    x = M.M{i}(x);")
print("""    end = Stopwatch.GetTimestamp();
    return x == 0 ? 1 : 0;
  }
}""")
PY
  bash "$ROOT/scripts/csc.sh" "$work/plain$n/Exit$n.dll" /optimize+ "$src" > /dev/null
  i=0
  for tool in "$@"; do
    i=$((i + 1))
    mkdir -p "$work/t$i-$n"
    cp "$work/plain$n/Exit$n.runtimeconfig.json" "$work/t$i-$n/"
    "$tool" "$work/plain$n/Exit$n.dll" -o "$work/t$i-$n/Exit$n.dll" > /dev/null
  done
  declare -A times=() walls=()
  now_us() { local t=$EPOCHREALTIME; echo $((10#${t/./})); }
  for ((r = 0; r < runs; r++)); do
    t0=$(now_us)
    times[plain]+="$(dotnet "$work/plain$n/Exit$n.dll") "
    walls[plain]+="$(($(now_us) - t0)) "
    for ((j = 1; j <= $#; j++)); do
      rm -rf "$work/out" && mkdir "$work/out"
      t0=$(now_us)
      times[$j]+="$(CIL_INSTRUMENT_OUTPUT="$work/out" dotnet "$work/t$j-$n/Exit$n.dll") "
      walls[$j]+="$(($(now_us) - t0)) "
      ls "$work/out"/*.counts.json > /dev/null  # the file was written
    done
  done
  median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
  echo "$n methods: plain $(echo "${times[plain]}" | median) us; process $(echo "${walls[plain]}" | median) us"
  for ((j = 1; j <= $#; j++)); do
    echo "$n methods: ${!j}: $(echo "${times[$j]}" | median) us; process $(echo "${walls[$j]}" | median) us (exit path runs: ${times[$j]})"
  done
  unset times walls
done
