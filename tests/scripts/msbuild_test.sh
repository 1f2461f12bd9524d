#!/usr/bin/env bash
# MSBuild targets (issue 16, issue 20): the sample solution tests/apps/msbuild_sample (a library
# with CilInstrument=true, an xunit project; NuGet packages from the mirror) under `dotnet test`
# with msbuild/CilInstrument.targets imported: the library is instrumented after its build, the
# tests pass (one checks CIL_INSTRUMENT_OUTPUT and VSTEST_TESTHOST_SHUTDOWN_TIMEOUT in the test
# host), the report says 4,003 calls of Calc.Add; an incremental build runs the tool no more; a
# changed source and a full rebuild instrument again from obj/ (no "already instrumented").
#   tests/scripts/msbuild_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "msbuild: skipped under the sanitizers (it judges dotnet builds)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/tests/apps/msbuild_sample" "$work/sample"
cd "$work/sample"
export PATH="$(dirname "$TOOL"):$PATH" DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
targets=(-p:CilInstrumentTargets="$ROOT/msbuild/CilInstrument.targets" -nodeReuse:false)
set +e
timeout 900 dotnet test Sample.slnx "${targets[@]}" > "$work/test.log" 2>&1
rc=$?
set -e
if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/test.log"; then
  echo "the NuGet packages of the sample cannot be restored here: skipped" >&2
  exit 77
fi
[ $rc = 0 ] || { tail -30 "$work/test.log" >&2; fail "dotnet test failed (exit $rc)"; finish; }
grep -q "Counted.dll: instrumented 1 method (count mode)" "$work/test.log" || fail "the library was not instrumented"
grep -q "Passed!  - Failed:     0, Passed:     8" "$work/test.log" || fail "not 8 tests passed: $(grep -E 'Passed!|Failed!' "$work/test.log")"
grep -q "^ *4003  0x06000001  Counted.Calc::Add$" cil-instrument-output/report.txt || fail "report: $(cat cil-instrument-output/report.txt)"
"$TOOL" info Counted/bin/Debug/net10.0/Counted.dll > /dev/null || fail "the instrumented library does not read back"
"$TOOL" dump Counted/obj/Debug/net10.0/Counted.dll | grep -q CilInstrument && fail "obj/ was instrumented"

# Incremental: nothing changed, no tool run.
timeout 600 dotnet build Sample.slnx "${targets[@]}" > "$work/b2.log" 2>&1 || { tail -20 "$work/b2.log" >&2; fail "incremental build failed"; }
grep -q "instrumented" "$work/b2.log" && fail "an incremental build with no change instrumented again"
# A changed source: compiled, copied, instrumented again from obj/.
echo "// changed" >> Counted/Calc.cs
timeout 600 dotnet build Sample.slnx "${targets[@]}" > "$work/b3.log" 2>&1 || { tail -20 "$work/b3.log" >&2; fail "build after a change failed"; }
grep -q "Counted.dll: instrumented 1 method" "$work/b3.log" || fail "a changed library was not instrumented again"
# A full rebuild.
timeout 600 dotnet build Sample.slnx --no-incremental "${targets[@]}" > "$work/b4.log" 2>&1 || { tail -20 "$work/b4.log" >&2; fail "rebuild failed"; }
grep -q "Counted.dll: instrumented 1 method" "$work/b4.log" || fail "a rebuild did not instrument"
grep -qi "already instrumented" "$work/b2.log" "$work/b3.log" "$work/b4.log" && fail "the already-instrumented refusal appeared"
finish
