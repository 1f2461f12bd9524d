#!/usr/bin/env bash
# The release, and the nuget_pack fixture (issues 16 and 40): scripts/package.sh's artifacts made
# once into the build tree's shared folder build/tests/nuget-feed (with the stamp of what they were
# made from), which nuget_feed in lib.sh then gives every test that uses the packages as their
# NuGet folder feed (nuget_tool installs the tool from it into a tool manifest), instead of
# packing again for each. Checked here:
#  - package.sh's refusals, before anything is written: a DIR that is a symbolic link, the source
#    tree, the build tree, or a folder holding the build tree;
#  - package.sh with its standard output closed succeeds (its final listing fails quietly);
#  - SHA256SUMS lists exactly the folder's artifacts and `sha256sum -c` passes;
#  - the Debian package, unpacked with dpkg -x into a temporary root: the installed tool's
#    --version, a folder instrumented, the instrumented program run with its counts reported,
#    `run --mode count` with the installed profiler (found beside the real path of
#    bin/cil-instrument, a symbolic link), the man page and the MSBuild targets in place;
#  - the tarball, unpacked: the same files, its tool's --version and its profiler found.
#   tests/scripts/nuget_pack_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_shared_feed nuget_pack
command -v cpack > /dev/null || { echo "no cpack: skipped" >&2; exit 77; }
command -v dpkg-deb > /dev/null || { echo "no dpkg-deb: skipped" >&2; exit 77; }
# The NuGet packages hold the profiler: a tree configured without it (-DCIL_PROFILER_LIBRARY=OFF) makes no release.
[ -f "$build/src/libcilprofiler.so" ] || { echo "nuget_pack: no profiler in $build: skipped" >&2; exit 77; }
rm -rf "$nuget_shared" "$nuget_shared.tmp"
# Packed as each test packed before: with a HOME and a NuGet cache of its own.
work=$(mktemp -d)
trap 'rm -rf "$work" "$nuget_shared.tmp"' EXIT
export HOME=$work/home DOTNET_CLI_HOME=$work/home NUGET_PACKAGES=$work/nuget-packages
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
mkdir -p "$HOME"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")

echo "== refused: a link, the source tree, the build tree, a folder holding it"
mkdir -p "$work/target"
ln -s "$work/target" "$work/link"
for dir in "$work/link" "$ROOT" "$build" "$(dirname "$build")"; do
  set +e
  bash "$ROOT/scripts/package.sh" "$dir" "$build" > "$work/refused.log" 2>&1
  rc=$?
  set -e
  [ $rc = 2 ] && [ "$(wc -l < "$work/refused.log")" = 1 ] && has "^package.sh: $dir: " < "$work/refused.log" ||
    fail "package.sh $dir: exit $rc, not one line and 2: $(cat "$work/refused.log")"
done
[ -z "$(ls -A "$work/target")" ] || fail "package.sh wrote through the link: $(ls -A "$work/target")"

echo "== scripts/package.sh"
release=$nuget_shared.tmp
# With its standard output closed: the listing it ends with must not fail a complete release
# (sed's write error made it exit 4).
bash "$ROOT/scripts/package.sh" "$release" "$build" >&- 2> "$work/package.log" ||
  { cat "$work/package.log" >&2; fail "scripts/package.sh failed (standard output closed)"; finish; }
(cd "$release" && sha256sum -c --quiet SHA256SUMS) || fail "sha256sum -c SHA256SUMS failed"
(cd "$release" && ls -A | grep -v -x SHA256SUMS) > "$work/files.txt"
sed 's/^[0-9a-f]*  //' "$release/SHA256SUMS" | sort | cmp -s - "$work/files.txt" ||
  fail "SHA256SUMS does not list exactly the folder's files: $(cat "$release/SHA256SUMS") / $(cat "$work/files.txt")"
for name in cil-instrument_${version}_amd64.deb cil-instrument-$version-linux-x64.tar.gz cil-instrument.$version.nupkg \
    cil-instrument.linux-x64.$version.nupkg CilInstrument.MSBuild.$version.nupkg CilInstrument.Collector.$version.nupkg; do
  [ -f "$release/$name" ] || fail "no $name in the release: $(ls "$release")"
done

echo "== the Debian package"
deb=$release/cil-instrument_${version}_amd64.deb
dpkg-deb -I "$deb" > "$work/info.txt" || fail "dpkg-deb cannot read the package"
grep -q "Package: cil-instrument" "$work/info.txt" || fail "package name: $(cat "$work/info.txt")"
dpkg -x "$deb" "$work/root"
T=$work/root/usr/bin/cil-instrument
[ -L "$T" ] || fail "usr/bin/cil-instrument is not a symbolic link"
"$T" --version | has "^cil-instrument " || fail "the installed tool does not run"
[ -f "$work/root/usr/share/man/man1/cil-instrument.1" ] || fail "no man page"
cmp -s "$work/root/usr/share/cil-instrument/msbuild/CilInstrument.targets" "$ROOT/msbuild/CilInstrument.targets" || fail "no MSBuild targets"
[ -f "$work/root/usr/lib/cil-instrument/libcilprofiler.so" ] || fail "no profiler library"
mkdir -p "$work/app"
cp "$ROOT/testdata/bin/Basics.dll" "$ROOT/testdata/bin/Basics.runtimeconfig.json" "$work/app/"
"$T" "$work/app" -o "$work/out" > "$work/instrument.log" 2>&1 || { cat "$work/instrument.log" >&2; fail "the installed tool failed to instrument"; }
mkdir -p "$work/counts" "$work/prof"
expected=$(cd "$work/app" && dotnet Basics.dll)
[ "$(cd "$work/out" && CIL_INSTRUMENT_OUTPUT="$work/counts" dotnet Basics.dll)" = "$expected" ] || fail "the instrumented program prints otherwise"
"$T" report "$work"/counts/*.counts.json | has "^Basics (mvid" || fail "no report of the counts"
[ "$(cd "$work/app" && "$T" run -q --mode count -o "$work/prof" -- dotnet Basics.dll)" = "$expected" ] || fail "run prints otherwise"
ls "$work"/prof/Basics.*.counts.json > /dev/null 2>&1 || fail "the installed profiler wrote no counts"

echo "== the tarball"
mkdir -p "$work/tar"
tar -xzf "$release/cil-instrument-$version-linux-x64.tar.gz" -C "$work/tar"
[ "$(ls "$work/tar")" = "cil-instrument-$version" ] || fail "the tarball is not one folder cil-instrument-$version: $(ls "$work/tar")"
# The same files as the .deb has under usr/.
(cd "$work/root/usr" && find . | sort) > "$work/deb-files.txt"
(cd "$work/tar/cil-instrument-$version" && find . | sort) > "$work/tar-files.txt"
diff "$work/deb-files.txt" "$work/tar-files.txt" >&2 || fail "the tarball's files are not the .deb's"
T=$work/tar/cil-instrument-$version/bin/cil-instrument
[ "$("$T" --version)" = "cil-instrument $version" ] || fail "the tarball's tool does not say cil-instrument $version"
[ "$(cd "$work/app" && "$T" run -q --mode count -o "$work/prof-tar" -- dotnet Basics.dll)" = "$expected" ] || fail "run (tarball) prints otherwise"
ls "$work"/prof-tar/Basics.*.counts.json > /dev/null 2>&1 || fail "the tarball's profiler wrote no counts"

# Only a release that passed every check becomes the shared feed.
if [ "$FAILURES" -eq 0 ]; then
  nuget_pack_stamp > "$release/stamp"
  mv "$release" "$nuget_shared"
fi
finish
