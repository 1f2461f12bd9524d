#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on a bundled sample: instruments a
# testdata app in count mode, runs the original and the instrumented app on dotnet, and shows
# the call-count report.
#   scripts/quickstart.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh build > /dev/null
tool=build/src/cil-instrument
sample=testdata/bin/Basics.dll
out=out/quickstart
rm -rf "$out"
mkdir -p "$out"
cp testdata/bin/Basics.runtimeconfig.json "$out/"

echo
echo "\$ $tool $sample -o $out/Basics.dll"
"$tool" "$sample" -o "$out/Basics.dll"

echo
echo "\$ dotnet $sample          # the original"
dotnet "$sample" > "$out/original.txt"
echo "\$ dotnet $out/Basics.dll  # the instrumented copy"
CIL_INSTRUMENT_OUTPUT="$out" dotnet "$out/Basics.dll" > "$out/instrumented.txt"
if cmp -s "$out/original.txt" "$out/instrumented.txt"; then
  echo "same output ($(wc -l < "$out/original.txt") lines), and it wrote $(cd "$out" && ls Basics.*.counts.json)"
else
  echo "the outputs differ:" >&2
  diff "$out/original.txt" "$out/instrumented.txt" >&2
  exit 1
fi

echo
echo "\$ $tool report $out/Basics.*.counts.json --top 12"
"$tool" report "$out"/Basics.*.counts.json --top 12
