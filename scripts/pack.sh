#!/usr/bin/env bash
# Builds the tool and the profiler in DIR (default build/) and makes the NuGet packages into OUT
# (default DIR/packages), a folder that is then a NuGet feed:
#   cil-instrument.VERSION.nupkg            the `dotnet tool` package (a pointer, SDK 10)
#   cil-instrument.linux-x64.VERSION.nupkg  its linux-x64 files: the tool and libcilprofiler.so
#   CilInstrument.MSBuild.VERSION.nupkg     the MSBuild targets with the tool
#   CilInstrument.Collector.VERSION.nupkg   the VSTest data collector and the MTP extension with the tool
# VERSION is CMake's project VERSION (CMakeLists.txt), the one `cil-instrument --version` prints.
#   scripts/pack.sh [DIR [OUT]]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$(mkdir -p "${1:-$root/build}" && cd "${1:-$root/build}" && pwd)
out=${2:-$dir/packages}
command -v dotnet > /dev/null || { echo "pack.sh: dotnet (the .NET SDK 10) is needed to make the packages" >&2; exit 1; }

# A configured tree keeps its own settings (scripts/build.sh's, or the caller's).
[ -f "$dir/CMakeCache.txt" ] || cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$dir" -j "$(nproc)" --target cil-instrument cilprofiler
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$dir/CMakeCache.txt")
tool=$dir/src/cil-instrument
profiler=$dir/src/libcilprofiler.so
[ -n "$version" ] || { echo "pack.sh: $dir/CMakeCache.txt: no CMAKE_PROJECT_VERSION" >&2; exit 1; }
[ -f "$profiler" ] || { echo "pack.sh: $profiler: not built (the profiler is part of the packages)" >&2; exit 1; }
said=$("$tool" --version)
[ "$said" = "cil-instrument $version" ] || { echo "pack.sh: the tool says '$said', the project's version is $version" >&2; exit 1; }

# The staging folder is this run's own, so that two runs on one tree (tests) do not meet.
mkdir -p "$out"
stage=$(mktemp -d "$dir/packaging.XXXXXX")
trap 'rm -rf "$stage"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

# stage NAME: packaging/NAME (the .nuspec and the fixed files) copied to the staging folder, with
# the project that packs it.
stage() {
  cp -r "$root/packaging/$1" "$stage/$1"
  cp "$root/packaging/Pack.csproj" "$stage/$1/$1.csproj"
}
# binaries TO: the tool and the profiler, without their debug information, into TO.
binaries() {
  mkdir -p "$1"
  strip --strip-debug -o "$1/cil-instrument" "$tool"
  strip --strip-debug -o "$1/libcilprofiler.so" "$profiler"
  chmod 755 "$1/cil-instrument"
}
pack() {
  rm -f "$out/$1.$version.nupkg"
  local options=(-p:ImportDirectoryBuildProps=false -p:ImportDirectoryBuildTargets=false)
  # Restored, then packed without a build: the project compiles nothing that goes in.
  { dotnet restore "$stage/$1/$1.csproj" "${options[@]}" &&
    dotnet pack "$stage/$1/$1.csproj" --no-build -c Release --output "$out" -p:NuspecFile="$1.nuspec" \
      -p:NuspecBasePath="$stage/$1" -p:NuspecProperties="version=$version" "${options[@]}"; } > "$stage/$1.log" 2>&1 ||
    { cat "$stage/$1.log" >&2; echo "pack.sh: dotnet pack of $1 failed" >&2; exit 1; }
  echo "$out/$1.$version.nupkg"
}

stage cil-instrument
cp "$root/README.md" "$stage/cil-instrument/"
stage cil-instrument.linux-x64
binaries "$stage/cil-instrument.linux-x64/tools/any/linux-x64"
stage CilInstrument.MSBuild
cp "$root/README.md" "$stage/CilInstrument.MSBuild/"
cp "$root/msbuild/CilInstrument.targets" "$stage/CilInstrument.MSBuild/build/"
binaries "$stage/CilInstrument.MSBuild/tools/linux-x64"

stage CilInstrument.Collector
cp "$root/README.md" "$stage/CilInstrument.Collector/"
binaries "$stage/CilInstrument.Collector/tools/linux-x64"
# The collector's assembly, built from its sources into the staging folder.
dotnet build "$stage/CilInstrument.Collector/src/CilInstrument.Collector.csproj" -c Release \
  -p:CilInstrumentVersion="$version" -p:ImportDirectoryBuildProps=false -p:ImportDirectoryBuildTargets=false \
  -o "$stage/CilInstrument.Collector/out" > "$stage/collector-build.log" 2>&1 ||
  { cat "$stage/collector-build.log" >&2; echo "pack.sh: the collector did not build" >&2; exit 1; }
cp "$stage/CilInstrument.Collector/out/CilInstrument.Collector.dll" "$stage/CilInstrument.Collector/build/"
# Its Microsoft.Testing.Platform extension, the same way.
dotnet build "$stage/CilInstrument.Collector/mtp/CilInstrument.Mtp.csproj" -c Release \
  -p:CilInstrumentVersion="$version" -p:ImportDirectoryBuildProps=false -p:ImportDirectoryBuildTargets=false \
  -o "$stage/CilInstrument.Collector/out-mtp" > "$stage/mtp-build.log" 2>&1 ||
  { cat "$stage/mtp-build.log" >&2; echo "pack.sh: the MTP extension did not build" >&2; exit 1; }
cp "$stage/CilInstrument.Collector/out-mtp/CilInstrument.Mtp.dll" "$stage/CilInstrument.Collector/build/"

pack cil-instrument
pack cil-instrument.linux-x64
pack CilInstrument.MSBuild
pack CilInstrument.Collector
