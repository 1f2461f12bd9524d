#!/usr/bin/env bash
# The collector package's Microsoft.Testing.Platform extension (issue 40), from scripts/pack.sh's
# folder feed, on one MSTest project (tests/apps/mtp_sample, MSTest's runner: an MTP app) testing
# the sample library (tests/apps/msbuild_sample/Counted), built once; a temporary HOME, NuGet cache
# and TMPDIR:
#  1. VSTest (`dotnet test --collect CilInstrument`, the MSTest runner off for that run): the
#     reference Cobertura. Only Counted is covered (MSTest 4's test assembly is a test assembly).
#  2. The test app run directly with --cil-instrument (files mode, settings from the same
#     runsettings file): the report, under --results-directory, has the VSTest collector's
#     per-line hits, and every file of the app's folder is back byte for byte.
#  3. The same with --cil-instrument jit: the same hits, and no file of the folder changed.
#  4. `dotnet test` in MTP mode (global.json's test runner) with --cil-instrument jit: the same.
#  5. An unknown Instrumentation in the settings: one error line naming it; the tests run,
#     uninstrumented, and no report is made; the same file given to the VSTest collector too.
#  Every run's temporary folder (cil-instrument-collector-*) is gone at the end.
#   tests/scripts/nuget_mtp_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_feed nuget_mtp

mkdir -p "$work/sample" "$work/tmp"
export TMPDIR=$work/tmp
cp -r "$ROOT/tests/apps/msbuild_sample/Counted" "$work/sample/"
cp -r "$ROOT/tests/apps/mtp_sample" "$work/sample/MtpTests"
cd "$work/sample"
touch Sample.slnx  # the "my code" source root: the folder above the projects
dotnet new nugetconfig > /dev/null
dotnet nuget add source "$feed" --name cil-instrument-feed --configfile nuget.config > /dev/null
# The reference as `dotnet add package` writes it, without the restore of its own that it runs
# (the build restores once).
sed -i "s|<PackageReference Include=\"MSTest\" Version=\"4.5.2\" />|&\n    <PackageReference Include=\"CilInstrument.Collector\" Version=\"$version\" />|" MtpTests/MtpTests.csproj
grep -q '"CilInstrument.Collector"' MtpTests/MtpTests.csproj || fail "no PackageReference written into MtpTests.csproj"
dotnet_build_or_skip MtpTests
bin=MtpTests/bin/Debug/net10.0
app=$bin/MtpTests.dll
(cd "$bin" && sha256sum ./*.dll) > "$work/before.sha"
(cd "$bin" && find . -type f -printf '%p %s %T@\n' | sort) > "$work/before.times"

# runsettings FILE INSTRUMENTATION: exact hit counts, so that equal lines mean equal counts.
runsettings() {
  cat > "$1" <<EOF2
<RunSettings><DataCollectionRunSettings><DataCollectors>
  <DataCollector friendlyName="CilInstrument">
    <Configuration>
      <Instrumentation>$2</Instrumentation>
      <HitCounts>true</HitCounts>
    </Configuration>
  </DataCollector>
</DataCollectors></DataCollectionRunSettings></RunSettings>
EOF2
}
runsettings "$work/files.runsettings" files
runsettings "$work/bogus.runsettings" bogus

# lines NAME RESULTS: the Cobertura under RESULTS, its per-line hits into $work/lines-NAME.txt.
lines() {
  local cobertura
  cobertura=$(find "$2" -name coverage.cobertura.xml | head -1)
  if [ -z "$cobertura" ]; then
    fail "$1: no coverage.cobertura.xml under --results-directory: $(grep -i error "$work/$1.log" | head -3)"
    return 0
  fi
  grep -o '<line number="[0-9]*" hits="[0-9]*"' "$cobertura" > "$work/lines-$1.txt"
  packages=$(grep -o '<package name="[^"]*"' "$cobertura" | tr '\n' ' ')
  [ "$packages" = '<package name="Counted" ' ] || fail "$1: Cobertura packages other than Counted: $packages"
}
# same NAME: NAME's lines are the VSTest collector's.
same() {
  [ -s "$work/lines-$1.txt" ] && cmp -s "$work/lines-vstest.txt" "$work/lines-$1.txt" ||
    fail "$1: per-line hits differ from the VSTest collector's: $(diff "$work/lines-vstest.txt" "$work/lines-$1.txt" 2>&1 | head -5)"
}
# run NAME COMMAND...: the command's output into $work/NAME.log; fails the test when it fails.
run() {
  local name=$1 rc
  shift
  set +e
  timeout 900 "$@" > "$work/$name.log" 2>&1
  rc=$?
  set -e
  [ $rc = 0 ] || { tail -30 "$work/$name.log" >&2; fail "$name: exit $rc"; }
}
unchanged() {
  (cd "$bin" && find . -type f -printf '%p %s %T@\n' | sort) > "$work/after.times"
  cmp -s "$work/before.times" "$work/after.times" || fail "$1: files of the test folder changed: $(diff "$work/before.times" "$work/after.times" | head -5)"
}

# 1. The VSTest collector on the same project: the reference.
run vstest dotnet test MtpTests --no-build -p:EnableMSTestRunner=false --collect CilInstrument \
  --settings "$work/files.runsettings" --results-directory "$work/results-vstest"
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/vstest.log" || fail "vstest: not 7 tests passed"
lines vstest "$work/results-vstest"
grep -q 'hits="4003"' "$work/lines-vstest.txt" 2> /dev/null || fail "vstest: Calc.Add's line not hit 4,003 times"
(cd "$bin" && sha256sum -c --quiet "$work/before.sha") || fail "vstest: the assemblies are not all back"

# 2. The app itself, files mode.
run mtp-files dotnet "$app" --cil-instrument --cil-instrument-settings "$work/files.runsettings" --results-directory "$work/results-files"
grep -q "succeeded: 7" "$work/mtp-files.log" || fail "mtp-files: not 7 tests passed"
lines mtp-files "$work/results-files"
same mtp-files
(cd "$bin" && sha256sum -c --quiet "$work/before.sha") || fail "mtp-files: the assemblies are not all back byte for byte"
[ ! -e "$bin/.cil-instrument-exec" ] || fail "mtp-files: exec's journal folder is left"

# 3. The app itself, at JIT time.
(cd "$bin" && find . -type f -printf '%p %s %T@\n' | sort) > "$work/before.times"
run mtp-jit dotnet "$app" --cil-instrument jit --cil-instrument-settings "$work/files.runsettings" --results-directory "$work/results-jit"
grep -q "succeeded: 7" "$work/mtp-jit.log" || fail "mtp-jit: not 7 tests passed"
lines mtp-jit "$work/results-jit"
same mtp-jit
unchanged mtp-jit

# 4. dotnet test in MTP mode, at JIT time.
echo '{ "test": { "runner": "Microsoft.Testing.Platform" } }' > global.json
run dotnet-test-jit dotnet test --project MtpTests --no-build --cil-instrument jit \
  --cil-instrument-settings "$work/files.runsettings" --results-directory "$work/results-dotnet-test"
grep -q "succeeded: 7" "$work/dotnet-test-jit.log" || fail "dotnet-test-jit: not 7 tests passed"
lines dotnet-test-jit "$work/results-dotnet-test"
same dotnet-test-jit
unchanged dotnet-test-jit
rm global.json

# 5. An unknown Instrumentation: one error line; the tests run uninstrumented.
run mtp-bogus dotnet "$app" --cil-instrument --cil-instrument-settings "$work/bogus.runsettings" --results-directory "$work/results-bogus"
[ "$(grep -c "Instrumentation 'bogus' is not files or jit" "$work/mtp-bogus.log")" = 1 ] ||
  fail "mtp-bogus: not one error line names the unknown Instrumentation: $(grep -i error "$work/mtp-bogus.log" | head -3)"
grep -q "succeeded: 7" "$work/mtp-bogus.log" || fail "mtp-bogus: the tests did not run"
[ -z "$(find "$work/results-bogus" -name coverage.cobertura.xml)" ] || fail "mtp-bogus: a report was made"
unchanged mtp-bogus

# The same file given to the VSTest collector: its error line, the tests run uninstrumented.
set +e
timeout 900 dotnet test MtpTests --no-build -p:EnableMSTestRunner=false --collect CilInstrument \
  --settings "$work/bogus.runsettings" --results-directory "$work/results-vstest-bogus" > "$work/vstest-bogus.log" 2>&1
set -e
[ "$(grep -c "Instrumentation 'bogus' is not files or jit" "$work/vstest-bogus.log")" -ge 1 ] ||
  fail "vstest-bogus: no error line names the unknown Instrumentation: $(grep -i error "$work/vstest-bogus.log" | head -3)"
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/vstest-bogus.log" || fail "vstest-bogus: the tests did not run"
[ -z "$(find "$work/results-vstest-bogus" -name coverage.cobertura.xml)" ] || fail "vstest-bogus: a report was attached"
unchanged vstest-bogus

left=$(find "$TMPDIR" -maxdepth 1 -name 'cil-instrument-collector-*')
[ -z "$left" ] || fail "temporary folders left: $left"
finish
