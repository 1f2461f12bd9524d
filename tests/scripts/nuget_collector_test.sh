#!/usr/bin/env bash
# The VSTest data collector package CilInstrument.Collector (issue 40), made by scripts/pack.sh
# into a folder feed, on the sample solution tests/apps/msbuild_sample without its import of the
# repository's targets, the package added to the test project, a temporary HOME and NuGet cache:
#  0. The collector and its exec killed with SIGKILL while the test host runs: the journal is
#     left, and run 1 (the next run) puts every original back first.
#  1. `dotnet test --collect CilInstrument --results-directory R` (runsettings: threshold 40% of
#     lines, no Assemblies: the "my code" default) passes and attaches coverage.cobertura.xml
#     under R: the one package Counted (not xunit, its adapter or the tests), one line of two
#     covered, Calc.Add's line hit 4,003 times (HitCounts true); every assembly of the test folder is back byte
#     for byte afterwards.
#  2. A threshold of 60% fails the run; its Cobertura (HitCounts left at its default) has
#     Calc.Add's line hit once (hit or not, the cheaper probe).
#  3. An unknown Mode in runsettings gives one error line naming it; the tests still run and
#     nothing is instrumented.
#  4. Instrumentation jit: coverage at JIT time through the profiler in the test host; the
#     attached Cobertura has the same per-line hits as run 1's, and no file of the test folder
#     was ever changed (the folder's files keep their modification times).
#   tests/scripts/nuget_collector_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_feed nuget_collector

cp -r "$ROOT/tests/apps/msbuild_sample" "$work/sample"
rm "$work/sample/Directory.Build.targets"
# A test that says it holds the test host (CIL_SAMPLE_RELEASE.holding) and holds it until the file
# CIL_SAMPLE_RELEASE names exists (the kill run below); without the variable it returns at once,
# and the other runs filter it out.
cat > "$work/sample/CountedTests/KillWaitTests.cs" <<'EOF_CS'
using System;
using System.IO;
using System.Threading;
using Xunit;

public class KillWaitTests {
  [Fact] public void HoldsTheHost() {
    string release = Environment.GetEnvironmentVariable("CIL_SAMPLE_RELEASE");
    if (string.IsNullOrEmpty(release)) return;
    File.WriteAllText(release + ".holding", "");
    for (int i = 0; i < 6000 && !File.Exists(release); i++) Thread.Sleep(50);
  }
}
EOF_CS
cd "$work/sample"
dotnet new nugetconfig > /dev/null
dotnet nuget add source "$feed" --name cil-instrument-feed --configfile nuget.config > /dev/null
dotnet add CountedTests/CountedTests.csproj package CilInstrument.Collector --version "$version" > "$work/add.log" 2>&1 ||
  { cat "$work/add.log" >&2; fail "dotnet add package failed"; finish; }
dotnet_build_or_skip Sample.slnx
bin=CountedTests/bin/Debug/net10.0
(cd "$bin" && sha256sum ./*.dll) > "$work/before.sha"

# EnvironmentTests checks what the MSBuild targets give the test run, not the collector.
filter=(--filter 'FullyQualifiedName!~EnvironmentTests&FullyQualifiedName!~KillWaitTests')

# runsettings FILE MODE THRESHOLD [INSTRUMENTATION]
runsettings() {
  cat > "$1" <<EOF
<RunSettings>
  <DataCollectionRunSettings>
    <DataCollectors>
      <DataCollector friendlyName="CilInstrument">
        <Configuration>
          <Mode>$2</Mode>
          <Threshold>$3</Threshold>
          <ThresholdType>line</ThresholdType>
          <Instrumentation>${4:-files}</Instrumentation>
          <HitCounts>${5:-true}</HitCounts>
        </Configuration>
      </DataCollector>
    </DataCollectors>
  </DataCollectionRunSettings>
</RunSettings>
EOF
}

# 0. The collector and its exec killed (SIGKILL) while the test host runs on the instrumented
# folder: exec's journal is left (the files are judged by it, not by time); run 1 below, the next
# run, puts every original back before it instruments again.
runsettings "$work/kill.runsettings" coverage 40
bin_abs=$PWD/$bin
CIL_SAMPLE_RELEASE=$work/release timeout 900 dotnet test Sample.slnx --no-build --filter 'FullyQualifiedName~KillWaitTests' \
  --collect CilInstrument --settings "$work/kill.runsettings" --results-directory "$work/results0" > "$work/t0.log" 2>&1 &
test_pid=$!
# The test host holding: exec has replaced the files and run its command before it started.
for _ in $(seq 6000); do [ -e "$work/release.holding" ] && break; kill -0 "$test_pid" 2> /dev/null || break; sleep 0.05; done
exec_pid=$(pgrep -f -- "cil-instrument exec .*$bin_abs" | head -1 || true)
if [ -z "$exec_pid" ] || [ ! -e "$bin_abs/.cil-instrument-exec/journal" ]; then
  fail "kill run: exec never instrumented the folder: $(tail -5 "$work/t0.log")"
else
  collector_pid=$(ps -o ppid= -p "$exec_pid" | tr -d ' ')
  kill -KILL "$exec_pid" "$collector_pid"
  (cd "$bin" && sha256sum -c --quiet "$work/before.sha" > /dev/null 2>&1) && fail "kill run: the folder was not instrumented when the collector was killed"
fi
touch "$work/release"
wait "$test_pid" || true
[ -e "$bin_abs/.cil-instrument-exec/journal" ] || fail "kill run: no journal left after the kill (was exec killed mid-run?)"

# 1. Coverage, attached to the results; the next run after the kill: the originals come back first.
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
  packages=$(grep -o '<package name="[^"]*"' "$cobertura" | tr '\n' ' ')
  [ "$packages" = '<package name="Counted" ' ] || fail "Cobertura: packages other than Counted: $packages"
  grep -q 'line-rate="0.50*"' "$cobertura" || fail "Cobertura: not one line of two covered: $(head -c 400 "$cobertura")"
  grep -q 'hits="4003"' "$cobertura" || fail "Cobertura: Calc.Add's line not hit 4,003 times"
  grep -o '<line number="[0-9]*" hits="[0-9]*"' "$cobertura" > "$work/lines-files.txt"
fi
(cd "$bin" && sha256sum -c --quiet "$work/before.sha") || fail "the test folder's assemblies are not all back byte for byte"
[ ! -e "$bin/.cil-instrument-exec/journal" ] || fail "the journal of the killed run is still there"

# 2. Under the threshold: the run fails.
runsettings "$work/fail.runsettings" coverage 60 files false
set +e
timeout 900 dotnet test Sample.slnx --no-build "${filter[@]}" --collect CilInstrument --settings "$work/fail.runsettings" \
  --results-directory "$work/results2" > "$work/t2.log" 2>&1
rc=$?
set -e
[ $rc != 0 ] || fail "coverage under the threshold of 60% did not fail dotnet test"
grep -q "under the threshold" "$work/t2.log" || fail "no line says the coverage is under the threshold"
(cd "$bin" && sha256sum -c --quiet "$work/before.sha") || fail "threshold run: the assemblies are not all back"
cobertura2=$(find "$work/results2" -name coverage.cobertura.xml | head -1)
if [ -z "$cobertura2" ]; then
  fail "threshold run: no coverage.cobertura.xml under --results-directory"
else
  grep -q 'hits="1"' "$cobertura2" && ! grep -q 'hits="4003"' "$cobertura2" ||
    fail "without HitCounts: Calc.Add's line not hit once: $(grep -o '<line number="[0-9]*" hits="[0-9]*"' "$cobertura2" | head -3)"
fi

# 3. An unknown mode: one error line; the tests run, uninstrumented.
runsettings "$work/bad.runsettings" bogus 40
set +e
timeout 900 dotnet test Sample.slnx --no-build "${filter[@]}" --collect CilInstrument --settings "$work/bad.runsettings" \
  --results-directory "$work/results3" > "$work/t3.log" 2>&1
set -e
[ "$(grep -c "Mode 'bogus' is not coverage or count" "$work/t3.log")" -ge 1 ] || fail "no error line names the unknown mode: $(grep -i error "$work/t3.log" | head -3)"
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/t3.log" || fail "bad runsettings: the tests did not run"
[ -z "$(find "$work/results3" -name coverage.cobertura.xml)" ] || fail "bad runsettings: a Cobertura file was attached"

# 4. At JIT time: the same lines hit as often, and no file touched.
(cd "$bin" && find . -type f -printf '%p %s %T@\n' | sort) > "$work/before.times"
runsettings "$work/jit.runsettings" coverage 40 jit
set +e
timeout 900 dotnet test Sample.slnx --no-build "${filter[@]}" --collect CilInstrument --settings "$work/jit.runsettings" \
  --results-directory "$work/results4" > "$work/t4.log" 2>&1
rc=$?
set -e
[ $rc = 0 ] || { tail -30 "$work/t4.log" >&2; fail "JIT mode: dotnet test failed (exit $rc)"; }
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/t4.log" || fail "JIT mode: not 7 tests passed"
cobertura=$(find "$work/results4" -name coverage.cobertura.xml | head -1)
if [ -z "$cobertura" ]; then
  fail "JIT mode: no coverage.cobertura.xml under --results-directory: $(grep -i error "$work/t4.log" | head -3)"
else
  grep -o '<line number="[0-9]*" hits="[0-9]*"' "$cobertura" > "$work/lines-jit.txt"
  [ -s "$work/lines-jit.txt" ] && cmp -s "$work/lines-files.txt" "$work/lines-jit.txt" ||
    fail "JIT mode: the per-line hits differ from the files mode's: $(diff "$work/lines-files.txt" "$work/lines-jit.txt" | head -5)"
fi
(cd "$bin" && find . -type f -printf '%p %s %T@\n' | sort) > "$work/after.times"
cmp -s "$work/before.times" "$work/after.times" || fail "JIT mode: files of the test folder changed: $(diff "$work/before.times" "$work/after.times" | head -5)"
finish
