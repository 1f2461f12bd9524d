#!/usr/bin/env bash
# The cost of instrument's self-check (issue 14): the same job with and without --no-verify, whole
# processes, runs interleaved so that load from elsewhere falls on both sides alike.
#
#   bench/self_check.sh [--tool PATH] [--runs N] [--mode MODE] [INPUT...]
#
#   --tool  cil-instrument to measure (default: build-bench/src/cil-instrument, then build/src/...)
#   --runs  runs per side and input (default 7); the table gives medians
#   --mode  the instrument mode (default count)
#   INPUT   default: the newest .NET System.Private.CoreLib.dll and Mono's mscorlib.dll
#
# Each run is `/usr/bin/time -f '%U %S'` (user and system CPU, hundredths of a second) timed by the
# shell's clock in microseconds. The check's share is (checked - unchecked) / checked, of wall
# and of CPU time. Every checked run's --json summary must say the check ran.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
tool=""
runs=7
mode=count
inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
if [ -z "$tool" ]; then
  tool="$repo/build-bench/src/cil-instrument"
  [ -x "$tool" ] || tool="$repo/build/src/cil-instrument"
fi
if [ ${#inputs[@]} -eq 0 ]; then
  fw=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2; d=$3} END{gsub(/[\[\]]/,"",d); print d"/"v}')
  inputs=("$fw/System.Private.CoreLib.dll")
  [ -f /usr/lib/mono/4.5/mscorlib.dll ] && inputs+=(/usr/lib/mono/4.5/mscorlib.dll)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# one LABEL ARGS...: one run; appends "wall_seconds cpu_seconds" to $work/LABEL
one() {
  local label=$1 start end cpu
  shift
  start=$EPOCHREALTIME
  cpu=$(/usr/bin/time -f '%U %S' "$tool" "$@" 2>&1 > "$work/json" | tail -1)
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" -v c="$cpu" 'BEGIN{split(c, t, " "); printf "%.6f %.2f\n", e - s, t[1] + t[2]}' >> "$work/$label"
}

echo "| input | MB | checked wall / CPU s | --no-verify wall / CPU s | check's share of wall (CPU) | tables, bodies, tokens read |"
echo "|---|---|---|---|---|---|"
for input in "${inputs[@]}"; do
  rm -f "$work/checked" "$work/unchecked"
  args=("$input" -o "$work/out.dll" --mode "$mode" --json)
  for ((i = 0; i < runs; i++)); do
    one checked "${args[@]}"
    python3 -c "import json,sys; sys.exit(not json.load(open('$work/json'))['selfCheck']['ran'])" || { echo "the check did not run on $input" >&2; exit 1; }
    cp "$work/json" "$work/checked.json"
    one unchecked "${args[@]}" --no-verify
  done
  cw=$(cut -d' ' -f1 "$work/checked" | median); cc=$(cut -d' ' -f2 "$work/checked" | median)
  uw=$(cut -d' ' -f1 "$work/unchecked" | median); uc=$(cut -d' ' -f2 "$work/unchecked" | median)
  mb=$(awk -v s="$(stat -c %s "$input")" 'BEGIN{printf "%.1f", s / 1048576}')
  read -r tables bodies tokens < <(python3 -c "import json; c=json.load(open('$work/checked.json'))['selfCheck']; print(c['tables'], c['bodies'], c['tokens'])")
  awk -v n="$(basename "$input")" -v mb="$mb" -v cw="$cw" -v cc="$cc" -v uw="$uw" -v uc="$uc" -v t="$tables" -v b="$bodies" -v k="$tokens" 'BEGIN{
    share = "n/a"
    if (cc > 0) share = sprintf("%.1f%%", 100 * (cc - uc) / cc)
    printf "| %s | %s | %.3f / %.2f | %.3f / %.2f | %.1f%% (%s) | %s, %s, %s |\n", n, mb, cw, cc, uw, uc, 100 * (cw - uw) / cw, share, t, b, k }'
done
