#!/usr/bin/env bash
# Builds the SRM oracle: tests/oracle/build.sh [OUTDIR]   (default: <repo>/build/oracle)
# Then: dotnet OUTDIR/Oracle.dll print FILE | compare --tool PATH FILE...
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/build/oracle}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Tests that run at the same time each call this: a build that is up to date is left alone, and
# a new one is compiled aside and renamed into place, so no test ever loads a half-written file.
stale=0
[ -f "$out/Oracle.dll" ] && [ -f "$out/Oracle.runtimeconfig.json" ] || stale=1
for f in "$here"/*.cs "$repo/scripts/csc.sh"; do [ "$f" -nt "$out/Oracle.dll" ] && stale=1; done
if [ "$stale" -eq 1 ]; then
  aside=$(mktemp -d "$out/.build-XXXXXX")
  trap 'rm -rf "$aside"' EXIT
  "$repo/scripts/csc.sh" "$aside/Oracle.dll" /nullable+ /optimize+ /langversion:latest /warnaserror+ "$here"/*.cs
  mv -f "$aside/Oracle.runtimeconfig.json" "$out/Oracle.runtimeconfig.json"
  mv -f "$aside/Oracle.dll" "$out/Oracle.dll"
fi
echo "built $out/Oracle.dll"
