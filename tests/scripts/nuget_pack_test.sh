#!/usr/bin/env bash
# The nuget_pack fixture: scripts/package.sh's release artifacts made once into the build tree's
# shared folder build/tests/nuget-feed (with the stamp of what they were made from), which
# nuget_feed in lib.sh then gives every test that uses the packages as their NuGet folder feed,
# instead of packing again for each. Checked here: the .deb, the tarball (its tool runs and says
# the project's version, the profiler beside it), the four NuGet packages, and SHA256SUMS, which
# `sha256sum -c` accepts and which names every artifact.
#   tests/scripts/nuget_pack_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_shared_feed nuget_pack
command -v cpack > /dev/null || { echo "no cpack: skipped" >&2; exit 77; }
rm -rf "$nuget_shared" "$nuget_shared.tmp"
# Packed as each test packed before: with a HOME and a NuGet cache of its own.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home DOTNET_CLI_HOME=$work/home NUGET_PACKAGES=$work/nuget-packages
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
mkdir -p "$HOME"
bash "$ROOT/scripts/package.sh" "$nuget_shared.tmp" "$build" > "$work/package.log" 2>&1 ||
  { cat "$work/package.log" >&2; rm -rf "$nuget_shared.tmp"; fail "scripts/package.sh failed"; finish; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
cd "$nuget_shared.tmp"
for artifact in "cil-instrument_${version}_amd64.deb" "cil-instrument-$version-linux-x64.tar.gz" "cil-instrument.$version.nupkg" \
                "cil-instrument.linux-x64.$version.nupkg" "CilInstrument.MSBuild.$version.nupkg" "CilInstrument.Collector.$version.nupkg"; do
  [ -f "$artifact" ] || fail "package.sh made no $artifact: $(ls)"
  grep -q "  $artifact\$" SHA256SUMS || fail "SHA256SUMS does not name $artifact"
done
sha256sum -c --quiet SHA256SUMS || fail "sha256sum -c SHA256SUMS fails"
mkdir "$work/tar"
tar -C "$work/tar" -xzf "cil-instrument-$version-linux-x64.tar.gz"
said=$("$work/tar/cil-instrument-$version-linux-x64/bin/cil-instrument" --version 2>&1) || true
[ "$said" = "cil-instrument $version" ] || fail "the tarball's bin/cil-instrument says '$said'"
[ -f "$work/tar/cil-instrument-$version-linux-x64/lib/cil-instrument/libcilprofiler.so" ] || fail "the tarball has no profiler beside the tool"
cd /
nuget_pack_stamp > "$nuget_shared.tmp/stamp"
mv "$nuget_shared.tmp" "$nuget_shared"
finish
