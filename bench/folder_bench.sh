#!/usr/bin/env bash
# A whole folder at once: `cil-instrument DIR -o OUT --assemblies '*'` in count mode with -j 1
# and -j N (default 2), best of R runs (default 3), wall time and files per second, and a check
# that both outputs are the same bytes. Default input: every managed DLL of the newest installed
# shared framework (shared/Microsoft.NETCore.App/10.*).
#   bench/folder_bench.sh [TOOL] [DIR] [N] [R]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${1:-$root/build/src/cil-instrument}
dir=${2:-$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2; d=$3} END{gsub(/[\[\]]/,"",d); print d"/"v}')}
jobs=${3:-2}
runs=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$(find "$dir" -type f | wc -l)
best() {  # best wall seconds of $runs runs of -j $1 into $work/out$1
  local j=$1 b=999999 t
  for ((r = 0; r < runs; r++)); do
    rm -rf "$work/out$j"
    local t0 t1
    t0=$(date +%s.%N)
    "$tool" "$dir" -o "$work/out$j" --assemblies '*' -j "$j" > "$work/log$j" 2> "$work/err$j" || true
    t1=$(date +%s.%N)
    t=$(python3 -c "print($t1 - $t0)")
    b=$(python3 -c "print(min($b, $t))")
  done
  echo "$b"
}
s1=$(best 1)
sn=$(best "$jobs")
(cd "$work/out1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) > "$work/h1"
(cd "$work/out$jobs" && find . -type f -print0 | sort -z | xargs -0 sha256sum) > "$work/hn"
cmp -s "$work/h1" "$work/hn" && same=yes || same=NO
echo "input: $dir ($files files; $(grep -c ': instrumented ' "$work/log1") instrumented, $(grep -c 'error' "$work/err1" || true) errors)"
printf '%-6s %8s %10s\n' jobs seconds files/s
printf '%-6s %8.2f %10.1f\n' 1 "$s1" "$(python3 -c "print($files / $s1)")"
printf '%-6s %8.2f %10.1f\n' "$jobs" "$sn" "$(python3 -c "print($files / $sn)")"
echo "same bytes: $same"
