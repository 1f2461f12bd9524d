#!/usr/bin/env bash
# The CI recipes (issues 16 and 40) run as written on the sample solution tests/apps/msbuild_sample
# (without its Directory.Build.targets: a plain solution), with the tool installed from a folder
# feed that scripts/pack.sh makes from this build (packed once), into a tool manifest, from a
# NuGet cache of the test's own (the user's cache serves the sample's packages as a fallback):
#  - the README's shell recipe, with only FEED, SOLUTION, TESTS and ASSEMBLIES set for it: it
#    builds, the tests pass, the folder is put back, counts.json has Calc.Add's 4,003 calls and
#    the gate passes; a control with a gate that cannot pass must fail;
#  - docs/ci/github-actions.yml's `run: |` blocks and docs/ci/gitlab-ci.yml's `script:` lines
#    (read by ci_yaml_steps.py), with the same settings, after the first (so the sample is
#    built once; the later builds find it up to date): GitHub's with THRESHOLD=50 (the sample
#    covers one line of two) passes and writes the Cobertura file it publishes; GitLab's with
#    THRESHOLD=100 writes it too and fails with exec's status 6, the gate.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "ci_recipe: skipped under the sanitizers (it judges dotnet builds)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/tests/apps/msbuild_sample" "$work/sample"
rm "$work/sample/Directory.Build.targets" "$work/sample/CountedTests/EnvironmentTests.cs"
build=$(dirname "$(dirname "$TOOL")")
[ -f "$build/CMakeCache.txt" ] || { echo "no build tree above $TOOL" >&2; exit 77; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
# The tool package goes into a cache of the test's own (a package of this version in the user's
# cache would be taken instead of the feed's); the user's cache still serves the sample's.
export NUGET_FALLBACK_PACKAGES=${NUGET_PACKAGES:-$HOME/.nuget/packages} NUGET_PACKAGES=$work/nuget-packages
# The SDK's home of the test's own too: its tool resolver cache would keep the path of an earlier
# run's package (and point the user's dotnet cil-instrument at this test's).
export DOTNET_CLI_HOME=$work/home
mkdir -p "$DOTNET_CLI_HOME"
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE
bash "$ROOT/scripts/pack.sh" "$build" "$work/feed" > "$work/pack.log" 2>&1 || { cat "$work/pack.log" >&2; fail "scripts/pack.sh failed"; finish; }
# recipe NAME SCRIPT: runs SCRIPT in the sample as a fresh checkout has it (no tool manifest, no
# outputs of an earlier recipe); its output in $work/NAME.log, its status in $rc.
recipe() {
  rm -rf "$work/sample/.config" "$work/sample/dotnet-tools.json" "$work/sample/counts" "$work/sample/counts.json" \
    "$work/sample/coverage" "$work/sample/coverage.cobertura.xml"
  set +e
  (cd "$work/sample" && timeout 900 bash "$2") > "$work/$1.log" 2>&1
  rc=$?
  set -e
  if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/$1.log"; then
    echo "$1: the NuGet packages of the sample cannot be restored here: skipped" >&2
    exit 77
  fi
  grep -q "Passed!  - Failed:     0, Passed:     7" "$work/$1.log" || fail "$1: the tests did not pass: $(tail -5 "$work/$1.log")"
  said=$(cd "$work/sample" && dotnet cil-instrument --version 2>&1) || true
  [ "$said" = "cil-instrument $version" ] || fail "$1: the manifest's dotnet cil-instrument --version says '$said'"
  # The test folder is as the build left it: Counted.dll is the compiler's output again.
  cmp -s "$work/sample/Counted/bin/Release/net10.0/Counted.dll" "$work/sample/CountedTests/bin/Release/net10.0/Counted.dll" ||
    fail "$1: the test folder's Counted.dll was not put back"
  [ ! -e "$work/sample/CountedTests/bin/Release/net10.0/.cil-instrument-exec" ] || fail "$1: exec's state directory is left"
}

echo "== the README's shell recipe"
# The block after the marker, with the sample's four settings.
awk '/<!-- ci-recipe:/{on=1; next} on && /^```sh/{inblock=1; next} inblock && /^```/{exit} inblock{print}' "$ROOT/README.md" > "$work/recipe.sh"
grep -q '^dotnet tool install cil-instrument ' "$work/recipe.sh" && grep -q '^dotnet cil-instrument exec ' "$work/recipe.sh" ||
  { fail "no recipe found in README.md"; finish; }
sed -i -e "s|^FEED=.*|FEED=$work/feed|" -e 's|^SOLUTION=.*|SOLUTION=Sample.slnx|' -e 's|^TESTS=.*|TESTS=CountedTests/bin/Release/net10.0|' \
  -e "s|^ASSEMBLIES=.*|ASSEMBLIES='Counted.dll'|" "$work/recipe.sh"
recipe shell "$work/recipe.sh"
[ $rc = 0 ] || { tail -30 "$work/shell.log" >&2; fail "the recipe failed (exit $rc)"; }
grep -q "^1 of 2 methods called$" "$work/shell.log" || fail "the gate did not report: $(tail -3 "$work/shell.log")"
python3 - "$work/sample/counts.json" <<'PY' || fail "counts.json does not have 4003 calls of Calc.Add"
import json, sys
r = json.load(open(sys.argv[1]))
assert sum(m["count"] for a in r["assemblies"] for m in a["methods"] if m["name"] == "Counted.Calc::Add") == 4003
PY
# Control: the same gate on counts where nothing was called fails.
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); [m.update(count=0) for a in r["assemblies"] for m in a["methods"]]; [a.update(calledMethods=0) for a in r["assemblies"]]; json.dump(r, open(sys.argv[1], "w"))' "$work/sample/counts.json"
awk '/^# 6\. Gate/{on=1} on' "$work/recipe.sh" > "$work/gate.sh"
(cd "$work/sample" && bash "$work/gate.sh" > /dev/null 2>&1) && fail "control: the gate passed with no method called"

settings=(CIL_INSTRUMENT_FEED="$work/feed" SOLUTION=Sample.slnx TESTS=CountedTests/bin/Release/net10.0 ASSEMBLIES=Counted.dll)
# cobertura NAME: the recipe's Cobertura file is there, with Calc's two lines, one of them hit.
cobertura() {
  python3 - "$work/sample/coverage.cobertura.xml" <<'PY' || fail "$1: coverage.cobertura.xml is missing or does not have Calc's lines"
import sys, xml.etree.ElementTree as ET
lines = [l for c in ET.parse(sys.argv[1]).getroot().iter("class") if c.get("name") == "Counted.Calc" for l in c.find("lines")]
assert sorted(int(l.get("hits")) > 0 for l in lines) == [False, True], lines
PY
}
echo "== docs/ci/github-actions.yml"
python3 "$ROOT/tests/scripts/ci_yaml_steps.py" "$ROOT/docs/ci/github-actions.yml" "${settings[@]}" THRESHOLD=50 > "$work/github.sh" ||
  fail "docs/ci/github-actions.yml: no steps read"
recipe github "$work/github.sh"
[ $rc = 0 ] || { tail -30 "$work/github.log" >&2; fail "github-actions.yml failed (exit $rc)"; }
cobertura github
echo "== docs/ci/gitlab-ci.yml"
python3 "$ROOT/tests/scripts/ci_yaml_steps.py" "$ROOT/docs/ci/gitlab-ci.yml" "${settings[@]}" THRESHOLD=100 > "$work/gitlab.sh" ||
  fail "docs/ci/gitlab-ci.yml: no steps read"
recipe gitlab "$work/gitlab.sh"
[ $rc = 6 ] || { tail -30 "$work/gitlab.log" >&2; fail "gitlab-ci.yml under its threshold: exit $rc, not exec's 6"; }
cobertura gitlab
finish
