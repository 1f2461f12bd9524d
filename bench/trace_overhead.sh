#!/usr/bin/env bash
# Trace mode's per-call overhead: a tiny method (int Add(int, int)) called in a loop, untraced,
# traced with empty hooks that take nothing, and traced with hooks that take every parameter.
# Prints ns per call (best of 7 rounds of N calls) for each, and the overhead.
#   bench/trace_overhead.sh [TOOL] [CALLS]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=$(readlink -f "${1:-$root/build/src/cil-instrument}")
calls=${2:-20000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$root/scripts/csc.sh" plain/TraceBench.dll /optimize+ /debug- "$root/bench/trace/TraceBench.cs" > /dev/null
for hooks in EmptyHooks FullHooks; do
  "$root/scripts/csc.sh" "$hooks.dll" /optimize+ /debug- /target:library "$root/bench/trace/$hooks.cs" > /dev/null
  mkdir -p "$hooks"
  cp "$hooks.dll" plain/TraceBench.runtimeconfig.json "$hooks/"
  "$tool" plain/TraceBench.dll -o "$hooks/TraceBench.dll" --mode trace --hooks "$hooks.dll" --include 'TraceBench.Target::*' > /dev/null
done
base=$(dotnet plain/TraceBench.dll "$calls" | cut -d' ' -f1)
printf '%-34s %10s %12s\n' "variant" "ns/call" "overhead"
printf '%-34s %10s %12s\n' "untraced" "$base" "-"
for hooks in EmptyHooks FullHooks; do
  ns=$(dotnet "$hooks/TraceBench.dll" "$calls" | cut -d' ' -f1)
  printf '%-34s %10s %12s\n' "traced, $hooks" "$ns" "$(python3 -c "print(f'{$ns - $base:.2f} ns')")"
done
