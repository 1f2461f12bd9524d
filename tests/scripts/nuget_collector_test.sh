#!/usr/bin/env bash
# The VSTest data collector package CilInstrument.Collector (issue 40), made by scripts/pack.sh
# into a folder feed, on the sample solution tests/apps/msbuild_sample without its import of the
# repository's targets, the package added to the test project, a temporary HOME and NuGet cache:
#  1. `dotnet test --collect CilInstrument --results-directory R` (runsettings: Counted.dll,
#     threshold 40% of lines) passes and attaches coverage.cobertura.xml under R: one line of
#     two covered, Calc.Add's line hit 4,003 times; every assembly of the test folder is back
#     byte for byte afterwards.
#  2. A threshold of 60% fails the run.
#  3. An unknown Mode in runsettings gives one error line naming it; the tests still run and
#     nothing is instrumented.
#   tests/scripts/nuget_collector_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_feed nuget_collector

cp -r "$ROOT/tests/apps/msbuild_sample" "$work/sample"
rm "$work/sample/Directory.Build.targets"
cd "$work/sample"
dotnet new nugetconfig > /dev/null
dotnet nuget add source "$feed" --name cil-instrument-feed --configfile nuget.config > /dev/null
dotnet add CountedTests/CountedTests.csproj package CilInstrument.Collector --version "$version" > "$work/add.log" 2>&1 ||
  { cat "$work/add.log" >&2; fail "dotnet add package failed"; finish; }
set +e
timeout 900 dotnet build Sample.slnx -nodeReuse:false > "$work/build.log" 2>&1
rc=$?
set -e
if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/build.log"; then
  echo "the NuGet packages of the sample cannot be restored here: skipped" >&2
  exit 77
fi
[ $rc = 0 ] || { tail -20 "$work/build.log" >&2; fail "the sample did not build"; finish; }
bin=CountedTests/bin/Debug/net10.0
(cd "$bin" && sha256sum ./*.dll) > "$work/before.sha"

# EnvironmentTests checks what the MSBuild targets give the test run, not the collector.
filter=(--filter 'FullyQualifiedName!~EnvironmentTests')

# runsettings FILE MODE THRESHOLD
runsettings() {
  cat > "$1" <<EOF
<RunSettings>
  <DataCollectionRunSettings>
    <DataCollectors>
      <DataCollector friendlyName="CilInstrument">
        <Configuration>
          <Mode>$2</Mode>
          <Assemblies>Counted.dll</Assemblies>
          <Threshold>$3</Threshold>
          <ThresholdType>line</ThresholdType>
        </Configuration>
      </DataCollector>
    </DataCollectors>
  </DataCollectionRunSettings>
</RunSettings>
EOF
}

# 1. Coverage, attached to the results.
runsettings "$work/pass.runsettings" coverage 40
set +e
timeout 900 dotnet test Sample.slnx --no-build "${filter[@]}" --collect CilInstrument --settings "$work/pass.runsettings" \
  --results-directory "$work/results" > "$work/t1.log" 2>&1
rc=$?
set -e
[ $rc = 0 ] || { tail -30 "$work/t1.log" >&2; fail "dotnet test --collect CilInstrument failed (exit $rc)"; }
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/t1.log" || fail "not 7 tests passed: $(grep -E 'Passed!|Failed!' "$work/t1.log")"
cobertura=$(find "$work/results" -name coverage.cobertura.xml | head -1)
if [ -z "$cobertura" ]; then
  fail "no coverage.cobertura.xml under --results-directory: $(find "$work/results" -type f | head)"
else
  grep -q 'line-rate="0.50*"' "$cobertura" || fail "Cobertura: not one line of two covered: $(head -c 400 "$cobertura")"
  grep -q 'hits="4003"' "$cobertura" || fail "Cobertura: Calc.Add's line not hit 4,003 times"
fi
(cd "$bin" && sha256sum -c --quiet "$work/before.sha") || fail "the test folder's assemblies are not all back byte for byte"

# 2. Under the threshold: the run fails.
runsettings "$work/fail.runsettings" coverage 60
set +e
timeout 900 dotnet test Sample.slnx --no-build "${filter[@]}" --collect CilInstrument --settings "$work/fail.runsettings" \
  --results-directory "$work/results2" > "$work/t2.log" 2>&1
rc=$?
set -e
[ $rc != 0 ] || fail "coverage under the threshold of 60% did not fail dotnet test"
grep -q "under the threshold" "$work/t2.log" || fail "no line says the coverage is under the threshold"
(cd "$bin" && sha256sum -c --quiet "$work/before.sha") || fail "threshold run: the assemblies are not all back"

# 3. An unknown mode: one error line; the tests run, uninstrumented.
runsettings "$work/bad.runsettings" bogus 40
set +e
timeout 900 dotnet test Sample.slnx --no-build "${filter[@]}" --collect CilInstrument --settings "$work/bad.runsettings" \
  --results-directory "$work/results3" > "$work/t3.log" 2>&1
set -e
[ "$(grep -c "Mode 'bogus' is not coverage or count" "$work/t3.log")" -ge 1 ] || fail "no error line names the unknown mode: $(grep -i error "$work/t3.log" | head -3)"
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/t3.log" || fail "bad runsettings: the tests did not run"
[ -z "$(find "$work/results3" -name coverage.cobertura.xml)" ] || fail "bad runsettings: a Cobertura file was attached"
finish
