#!/usr/bin/env bash
# MSBuild targets (issue 16, issue 20): the sample solution tests/apps/msbuild_sample (a library
# with CilInstrument=true, an xunit project; NuGet packages from the mirror) under `dotnet test`
# with msbuild/CilInstrument.targets imported: the library is instrumented after its build, the
# tests pass (one checks CIL_INSTRUMENT_OUTPUT and VSTEST_TESTHOST_SHUTDOWN_TIMEOUT in the test
# host), the report says 4,003 calls of Calc.Add; the library, strong-named with its own key, is
# re-signed with it (sn -v); an incremental build runs the tool no more; a changed source and a
# full rebuild instrument again from obj/ (no "already instrumented"); another mode instruments
# again: coverage mode writes Cobertura XML (one line of two covered) and a threshold above that
# fails `dotnet test` with the report's exit status 6.
#   tests/scripts/msbuild_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
command -v sn > /dev/null || { echo "sn (mono-utils) not found" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "msbuild: skipped under the sanitizers (it judges dotnet builds)"; exit 77; }
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
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
grep -q "Counted.dll: instrumented 2 methods (count mode)" "$work/test.log" || fail "the library was not instrumented"
grep -q "Passed!  - Failed:     0, Passed:     8" "$work/test.log" || fail "not 8 tests passed: $(grep -E 'Passed!|Failed!' "$work/test.log")"
grep -q "^ *4003  0x06000001  Counted.Calc::Add$" cil-instrument-output/report.txt || fail "report: $(cat cil-instrument-output/report.txt)"
"$TOOL" info Counted/bin/Debug/net10.0/Counted.dll > /dev/null || fail "the instrumented library does not read back"
sn -q -v Counted/bin/Debug/net10.0/Counted.dll > /dev/null 2>&1 ||
  fail "the instrumented library's strong name is not valid: $(sn -v Counted/bin/Debug/net10.0/Counted.dll 2>&1 | tail -1)"
"$TOOL" dump Counted/obj/Debug/net10.0/Counted.dll | has CilInstrument && fail "obj/ was instrumented"

# bin/ holds the instrumented copy after every build, whether the tool ran or not (the build's own
# copy puts the compiler's output there whenever the two differ).
bin_instrumented() {
  "$TOOL" dump Counted/bin/Debug/net10.0/Counted.dll | has CilInstrument || fail "$1: bin/Counted.dll is not instrumented"
}
bin_instrumented "dotnet test"

# Incremental: nothing changed, no tool run.
timeout 600 dotnet build Sample.slnx "${targets[@]}" > "$work/b2.log" 2>&1 || { tail -20 "$work/b2.log" >&2; fail "incremental build failed"; }
grep -q "instrumented" "$work/b2.log" && fail "an incremental build with no change instrumented again"
bin_instrumented "an incremental build"
# A changed source: compiled, copied, instrumented again from obj/.
echo "// changed" >> Counted/Calc.cs
timeout 600 dotnet build Sample.slnx "${targets[@]}" > "$work/b3.log" 2>&1 || { tail -20 "$work/b3.log" >&2; fail "build after a change failed"; }
grep -q "Counted.dll: instrumented 2 methods" "$work/b3.log" || fail "a changed library was not instrumented again"
bin_instrumented "a build after a change"
# A full rebuild.
timeout 600 dotnet build Sample.slnx --no-incremental "${targets[@]}" > "$work/b4.log" 2>&1 || { tail -20 "$work/b4.log" >&2; fail "rebuild failed"; }
grep -q "Counted.dll: instrumented 2 methods" "$work/b4.log" || fail "a rebuild did not instrument"
bin_instrumented "a rebuild"
grep -qi "already instrumented" "$work/b2.log" "$work/b3.log" "$work/b4.log" && fail "the already-instrumented refusal appeared"

# Another mode: instrumented again (the arguments are an input of the step); coverage mode's hits
# files, Cobertura XML, and the threshold.
# The include list (two patterns) checks that list properties reach the tool as separate options.
coverage=(-p:CilInstrumentMode=coverage -p:CilInstrumentReportFormat=cobertura -p:CilInstrumentThresholdType=line
          '-p:CilInstrumentInclude="Counted.Calc::Add;Counted.Calc::Sub"')
set +e
timeout 600 dotnet test Sample.slnx "${targets[@]}" "${coverage[@]}" -p:CilInstrumentThreshold=40 > "$work/c1.log" 2>&1
rc=$?
set -e
[ $rc = 0 ] || { tail -20 "$work/c1.log" >&2; fail "coverage run with a threshold of 40% failed (exit $rc)"; }
grep -q "Counted.dll: instrumented 2 methods (coverage mode)" "$work/c1.log" || fail "a new mode did not instrument again"
grep -q 'line-rate="0.50*"' cil-instrument-output/coverage.cobertura.xml 2> /dev/null ||
  fail "Cobertura: not one line of two covered: $(head -c 300 cil-instrument-output/coverage.cobertura.xml 2>&1)"
ls cil-instrument-output/*.counts.json > /dev/null 2>&1 && fail "coverage run: counts files left from the count run"
sn -q -v Counted/bin/Debug/net10.0/Counted.dll > /dev/null 2>&1 || fail "coverage mode: the strong name is not valid"
set +e
timeout 600 dotnet test Sample.slnx "${targets[@]}" "${coverage[@]}" -p:CilInstrumentThreshold=60 > "$work/c2.log" 2>&1
rc=$?
set -e
[ $rc != 0 ] || fail "coverage under the threshold of 60% did not fail dotnet test"
grep -q "exited with code 6" "$work/c2.log" || fail "the threshold failure is not the report's exit status 6: $(grep -i error "$work/c2.log" | head -3)"
grep -q "Counted.dll: instrumented" "$work/c2.log" && fail "the same mode and arguments instrumented again"
finish
