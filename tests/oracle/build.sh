#!/usr/bin/env bash
# Builds the SRM oracle: tests/oracle/build.sh [OUTDIR]   (default: <repo>/build/oracle)
# Then: dotnet OUTDIR/Oracle.dll print FILE | compare --tool PATH FILE...
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/build/oracle}
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$repo/scripts/csc.sh" "$out/Oracle.dll" /nullable+ /optimize+ /langversion:latest /warnaserror+ "$here"/*.cs
echo "built $out/Oracle.dll"
