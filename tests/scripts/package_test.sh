#!/usr/bin/env bash
# The Debian package (issue 16): cpack -G DEB from this build tree into a temporary directory,
# dpkg -x into a temporary root, then the installed tool: --version, a folder instrumented, the
# instrumented program run with its counts reported, `run --mode count` with the installed
# profiler (found beside the real path of bin/cil-instrument, a symbolic link), the man page
# and the MSBuild targets in place.
#   tests/scripts/package_test.sh TOOL BUILD_DIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build=${2:?usage: package_test.sh TOOL BUILD_DIR}
command -v dpkg-deb > /dev/null || { echo "no dpkg-deb: skipped" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" > "$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log" >&2; fail "cpack failed"; finish; }
deb=$(ls "$work"/pkg/*.deb)
dpkg-deb -I "$deb" > "$work/info.txt" || fail "dpkg-deb cannot read the package"
grep -q "Package: cil-instrument" "$work/info.txt" || fail "package name: $(cat "$work/info.txt")"
dpkg -x "$deb" "$work/root"
T=$work/root/usr/bin/cil-instrument
[ -L "$T" ] || fail "usr/bin/cil-instrument is not a symbolic link"
"$T" --version | has "^cil-instrument " || fail "the installed tool does not run"
[ -f "$work/root/usr/share/man/man1/cil-instrument.1" ] || fail "no man page"
cmp -s "$work/root/usr/share/cil-instrument/msbuild/CilInstrument.targets" "$ROOT/msbuild/CilInstrument.targets" || fail "no MSBuild targets"
# A tree configured without the profiler (-DCIL_PROFILER_LIBRARY=OFF) packages none.
profiler=0
[ -f "$build/src/libcilprofiler.so" ] && profiler=1
[ $profiler = 0 ] || [ -f "$work/root/usr/lib/cil-instrument/libcilprofiler.so" ] || fail "no profiler library"
mkdir -p "$work/app"
cp "$ROOT/testdata/bin/Basics.dll" "$ROOT/testdata/bin/Basics.runtimeconfig.json" "$work/app/"
"$T" "$work/app" -o "$work/out" > "$work/instrument.log" 2>&1 || { cat "$work/instrument.log" >&2; fail "the installed tool failed to instrument"; }
mkdir -p "$work/counts" "$work/prof"
expected=$(cd "$work/app" && dotnet Basics.dll)
[ "$(cd "$work/out" && CIL_INSTRUMENT_OUTPUT="$work/counts" dotnet Basics.dll)" = "$expected" ] || fail "the instrumented program prints otherwise"
"$T" report "$work"/counts/*.counts.json | has "^Basics (mvid" || fail "no report of the counts"
if [ $profiler = 1 ]; then
  [ "$(cd "$work/app" && "$T" run -q --mode count -o "$work/prof" -- dotnet Basics.dll)" = "$expected" ] || fail "run prints otherwise"
  ls "$work"/prof/Basics.*.counts.json > /dev/null 2>&1 || fail "the installed profiler wrote no counts"
fi
finish
