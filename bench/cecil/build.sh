#!/usr/bin/env bash
# Builds the Cecil side of bench/compare.sh: bench/cecil/build.sh OUTDIR
#   OUTDIR/CecilCount.exe   compiled by mcs against Debian's Mono.Cecil 0.11 (the net40 build in
#                           Mono's GAC), copied beside it; runs on mono and, through
#                           CecilCount.runtimeconfig.json, on dotnet
#   OUTDIR/ProbeCheck.dll   the SRM check of instrumented outputs (dotnet)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:?usage: bench/cecil/build.sh OUTDIR}
cecil=${CECIL_DLL:-/usr/lib/mono/gac/Mono.Cecil/0.11.0.0__0738eb9f132ed756/Mono.Cecil.dll}
[ -f "$cecil" ] || { echo "build.sh: $cecil not found (apt-get install libmono-cecil-private-cil)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

cp "$cecil" "$out/Mono.Cecil.dll"
mcs -nologo -optimize+ -langversion:7.2 -r:"$out/Mono.Cecil.dll" -out:"$out/CecilCount.exe" "$here/CecilCount.cs"
fx_version=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2} END{print v}')
cat > "$out/CecilCount.runtimeconfig.json" <<JSON
{
  "runtimeOptions": {
    "tfm": "net${fx_version%%.*}.0",
    "framework": { "name": "Microsoft.NETCore.App", "version": "${fx_version%.*}.0" }
  }
}
JSON

"$repo/scripts/csc.sh" "$out/ProbeCheck.dll" /nullable+ /optimize+ /langversion:latest "$here/ProbeCheck.cs"
echo "built $out/CecilCount.exe and $out/ProbeCheck.dll"
