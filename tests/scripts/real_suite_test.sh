#!/usr/bin/env bash
# A real library's own test suite (issue 39): Stateless and its 383 xUnit tests (382 run: one
# that races is left out, see suite() below), vendored in
# testdata/thirdparty/stateless (sources and tests as upstream has them), built once (Debug,
# packages from the NuGet mirror), then run four times with `dotnet test` on the built test
# assembly, as a coverlet user would:
#   plain         no coverage;
#   coverlet      coverlet.collector 10.0.1 (--collect "XPlat Code Coverage"), its Cobertura;
#   exec          cil-instrument exec --mode coverage --cobertura (offline: the folder
#                 instrumented in place, run, put back);
#   run           cil-instrument run --mode coverage (JIT time), then report --cobertura.
# Asserted:
#  - every run passes and fails the same tests as plain (each test's outcome, from a trx log);
#  - every line of Stateless is covered or not in both of ours as in coverlet's (the comparer of
#    coverlet_test.sh, tests/scripts/cobertura_lines.py); branch differences are counted, not
#    judged (coverlet_test.sh judges branches on fixtures made for that);
#  - exec put the folder back;
#  - a control: our Cobertura with one covered line made uncovered must give exactly that line.
# Skipped (77) without dotnet, under the sanitizers, or when the mirror cannot restore.
#   tests/scripts/real_suite_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
# What this judges runs on dotnet; the tool instruments one library.
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "real_suite: skipped under the sanitizers"; exit 77; }
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
work=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "work: $work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cp -r "$ROOT/testdata/thirdparty/stateless" "$work/src"
project="$work/src/test/Stateless.Tests"

# One build. Analyzers off: they only warn (upstream's tests stay as they are) and take a third
# of the build's CPU; the IL and PDB do not depend on them.
if ! (cd "$project" && timeout 600 dotnet build -nologo -v q -p:RunAnalyzers=false > "$work/build.log" 2>&1); then
  if grep -q "NU1101\|NU1102\|NU1301\|Unable to load the service index\|Unable to find package" "$work/build.log"; then
    echo "the NuGet packages cannot be restored here: skipped" >&2
    exit 77
  fi
  tail -20 "$work/build.log" >&2
  fail "Stateless's test project did not build"
  finish
fi
bin="$project/bin/Debug/net10.0"
# `dotnet test X.dll` finds a collector only through --test-adapter-path (a project's `dotnet
# test` gets the folder from the package's targets): the one the restore used.
packages=$(python3 -c 'import json, sys; print(next(iter(json.load(open(sys.argv[1]))["packageFolders"])))' "$project/obj/project.assets.json")
coverlet="$packages/coverlet.collector/10.0.1/build/net10.0"
[ -f "$coverlet/coverlet.collector.dll" ] || { fail "no coverlet.collector.dll in $coverlet"; finish; }
before=$(cd "$bin" && find . -type f | sort | xargs sha256sum)

# suite NAME [ARGS...]: `dotnet test` of the suite, with ARGS after it and the command in the
# array $under before it, from the source root (where a user runs it); the trx log and any
# collector's results in $work/NAME. One upstream test is left out, in every run alike: it races
# (Ensure_XUnit_can_lose_sync_context awaits a task completed on another thread and asserts that
# the continuation ran there; when that thread finishes first, the continuation runs inline on
# xunit's context and the test fails). It failed in plain runs and under Microsoft.CodeCoverage
# on a loaded machine, and it runs only test code (no line of Stateless).
flaky="FullyQualifiedName!=Stateless.Tests.SynchronizationContextFixture.Ensure_XUnit_can_lose_sync_context"
under=()
suite() {
  local name=$1
  shift
  (cd "$work/src" && timeout 600 "${under[@]}" dotnet test "$bin/Stateless.Tests.dll" --filter "$flaky" \
    --logger "trx;LogFileName=$name.trx" --results-directory "$work/$name" "$@" > "$work/$name.log" 2>&1) || { tail -20 "$work/$name.log" >&2; fail "$name: dotnet test failed"; }
  echo "$name: $(grep -E '^(Passed|Failed)!' "$work/$name.log" | tail -1)"
}
suite plain
suite coverlet --collect "XPlat Code Coverage" --test-adapter-path "$coverlet"
under=("$TOOL" exec --mode coverage -o "$work/exec-hits" --cobertura "$work/exec.xml" "$bin" --)
suite exec
[ "$(cd "$bin" && find . -type f | sort | xargs sha256sum)" = "$before" ] || fail "exec left the test folder changed"
under=()
if [ -f "$(dirname "$TOOL")/libcilprofiler.so" ]; then
  # Stateless only, as coverlet and exec cover it: by default run would also cover the test
  # assembly (its sources are under the folder it starts in).
  under=("$TOOL" run --mode coverage --assemblies Stateless.dll -o "$work/run-hits" -q --)
  suite run
  "$TOOL" report "$work"/run-hits/Stateless.*.hits.json --cobertura "$work/run.xml" > /dev/null || fail "report of run's hits failed"
  sides="exec run"
else
  echo "no libcilprofiler.so: JIT-time coverage skipped"
  sides="exec"
fi

echo "== each test's outcome as plain's"
outcomes() {  # outcomes TRX: "OUTCOME NAME" per test result, sorted
  python3 -c 'import sys, xml.etree.ElementTree as ET
ns = "{http://microsoft.com/schemas/VisualStudio/TeamTest/2010}"
for r in ET.parse(sys.argv[1]).getroot().iter(ns + "UnitTestResult"): print(r.get("outcome"), r.get("testName"))' "$1" | sort
}
for s in plain coverlet $sides; do
  trx=$(find "$work/$s" -name "$s.trx" | head -1)
  [ -n "$trx" ] || { fail "$s: no trx log"; continue; }
  outcomes "$trx" > "$work/$s.outcomes"
done
echo "plain: $(grep -c '^Passed ' "$work/plain.outcomes" || true) passed, $(grep -vc '^Passed ' "$work/plain.outcomes" || true) not"
for s in coverlet $sides; do
  if diff "$work/plain.outcomes" "$work/$s.outcomes" > "$work/$s.outcomes.diff"; then
    echo "ok   $s: the same $(wc -l < "$work/$s.outcomes") outcomes as plain"
  else
    head -10 "$work/$s.outcomes.diff" >&2
    fail "$s: tests whose outcome is not plain's"
  fi
done

echo "== every line of Stateless covered or not as coverlet says"
theirs=$(find "$work/coverlet" -name coverage.cobertura.xml | head -1)
[ -n "$theirs" ] || { fail "coverlet left no Cobertura"; finish; }
for s in $sides; do
  [ -f "$work/$s.xml" ] || { fail "$s: no Cobertura"; continue; }
  python3 "$ROOT/tests/scripts/cobertura_lines.py" "$theirs" "$work/$s.xml" > "$work/$s.diff"
  lines=$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get("lines-covered"), "of", r.get("lines-valid"))' "$work/$s.xml")
  if grep '^LINE' "$work/$s.diff" >&2; then
    fail "$s: line coverage differs from coverlet's"
  else
    echo "ok   $s: $lines lines covered, each as coverlet says ($(grep -c '^branch' "$work/$s.diff" || true) lines whose branch outcomes differ, not judged here)"
  fi
done

# The control: the comparer must find the one line that one side gets wrong.
[ -f "$work/exec.xml" ] || finish
python3 - "$work/exec.xml" "$work/wrong.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
tree = ET.parse(sys.argv[1])
root = tree.getroot()
first = next((c.get('filename'), l.get('number')) for c in root.iter('class') for l in c.find('lines').iter('line') if int(l.get('hits')) > 0)
for c in root.iter('class'):  # every listing of that line: its class's and its method's
    if c.get('filename') == first[0]:
        for l in c.iter('line'):
            if l.get('number') == first[1]: l.set('hits', '0')
tree.write(sys.argv[2])
PY
wrong=$(python3 "$ROOT/tests/scripts/cobertura_lines.py" "$theirs" "$work/wrong.xml" | grep -c '^LINE' || true)
if [ "$wrong" = 1 ]; then
  echo "ok   control: one line made uncovered is the one difference found"
else
  fail "control: one line made uncovered gave $wrong line differences, not 1"
fi
finish
