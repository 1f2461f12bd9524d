#!/usr/bin/env bash
# Builds every peer driver and checker of bench/compare.sh into OUTDIR (default build-bench/peers):
#   OUTDIR/cecil-nuget/CecilNuGet.dll  bench/cecil/CecilCount.cs against Mono.Cecil 0.11.6
#                                      (netstandard2.0, with Rocks) from NuGet
#   OUTDIR/dnlib/DnlibCount.dll        bench/peers/DnlibCount.cs against dnlib 4.5.0 from NuGet
#       both .NET console programs published with ReadyToRun (`dotnet publish -c Release
#       -r linux-x64 --self-contained false -p:PublishReadyToRun=true`; crossgen comes from the
#       NuGet copy served here, at the version the SDK picks)
#   OUTDIR/cecil/CecilCount.exe        the Mono/GAC Cecil build, and ProbeCheck.dll (bench/cecil/build.sh)
#   OUTDIR/JitCheck.dll                tests/jitcheck/JitCheck.cs (the JIT compiles the outputs' methods)
#   OUTDIR/MonoCheck.exe               bench/peers/MonoCheck.cs, the same on mono (mcs)
# Idempotent: a driver is published again only when its sources changed (a stamp of their hashes).
#   bench/build_peers.sh [OUTDIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
out=${1:-$repo/build-bench/peers}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

# publish NAME PROJECT SOURCES...: a ReadyToRun publish of PROJECT (with SOURCES beside it) into OUTDIR/NAME.
publish() {
  local name=$1 project=$2; shift 2
  local src="$out/src/$name" stamp
  stamp=$(cat "$project" "$@" "${BASH_SOURCE[0]}" | sha256sum | cut -d' ' -f1)
  if [ -f "$out/$name/.stamp" ] && [ "$(cat "$out/$name/.stamp")" = "$stamp" ]; then
    echo "build_peers.sh: $name up to date"
    return
  fi
  rm -rf "$src" "$out/$name"
  mkdir -p "$src"
  cp "$project" "$@" "$src/"
  dotnet publish "$src/$(basename "$project")" -c Release -r linux-x64 --self-contained false \
    -p:PublishReadyToRun=true -o "$out/$name" > "$src/publish.log" 2>&1 ||
    { tail -n 20 "$src/publish.log" >&2; echo "build_peers.sh: $name does not build" >&2; exit 1; }
  echo "$stamp" > "$out/$name/.stamp"
  echo "build_peers.sh: built $out/$name"
}

publish cecil-nuget "$here/peers/CecilNuGet.csproj" "$here/cecil/CecilCount.cs"
publish dnlib "$here/peers/DnlibCount.csproj" "$here/peers/DnlibCount.cs"

if [ ! -f "$out/cecil/CecilCount.exe" ] || [ "$here/cecil/CecilCount.cs" -nt "$out/cecil/CecilCount.exe" ] ||
   [ ! -f "$out/cecil/ProbeCheck.dll" ] || [ "$here/cecil/ProbeCheck.cs" -nt "$out/cecil/ProbeCheck.dll" ]; then
  "$here/cecil/build.sh" "$out/cecil"
fi
if [ ! -f "$out/JitCheck.dll" ] || [ "$repo/tests/jitcheck/JitCheck.cs" -nt "$out/JitCheck.dll" ]; then
  "$repo/scripts/csc.sh" "$out/JitCheck.dll" /nullable+ /optimize+ /langversion:latest "$repo/tests/jitcheck/JitCheck.cs" > /dev/null
  echo "build_peers.sh: built $out/JitCheck.dll"
fi
if [ ! -f "$out/MonoCheck.exe" ] || [ "$here/peers/MonoCheck.cs" -nt "$out/MonoCheck.exe" ]; then
  mcs -nologo -optimize+ -out:"$out/MonoCheck.exe" "$here/peers/MonoCheck.cs"
  echo "build_peers.sh: built $out/MonoCheck.exe"
fi
