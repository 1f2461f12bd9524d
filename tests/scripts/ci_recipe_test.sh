#!/usr/bin/env bash
# The CI recipes (issues 16, 40) run as written on the sample solution tests/apps/msbuild_sample
# (without its Directory.Build.targets: a plain solution), the tool package installed from the
# shared local feed (nuget_feed), only the settings set for the sample:
#  1. README's shell recipe: it installs the tool, builds, the tests pass, the folder is put back,
#     counts.json has Calc.Add's 4,003 calls and no other assembly than Counted (exec's "my code"
#     default leaves xunit, its adapter and the test assembly), and the gate passes. A control
#     with a gate that cannot pass must fail.
#  2. docs/ci/github-actions.yml's `run:` lines, threshold 40%: they pass and write Cobertura with
#     the one package Counted, one line of two covered.
#  3. docs/ci/gitlab-ci.yml's `script:` lines, threshold 60%: the gate fails the job, Cobertura is
#     still written, and the job's `coverage:` pattern finds 50.00 in the log.
#   tests/scripts/ci_recipe_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_feed ci_recipe
cp -r "$ROOT/tests/apps/msbuild_sample" "$work/sample"
rm "$work/sample/Directory.Build.targets" "$work/sample/CountedTests/EnvironmentTests.cs"
(cd "$work/sample" && dotnet new nugetconfig > /dev/null &&
  dotnet nuget add source "$feed" --name cil-instrument-feed --configfile nuget.config > /dev/null)
# The tool comes from the feed, never from the build tree or PATH.
export PATH=$(echo "$PATH" | tr ':' '\n' | grep -vx "$(dirname "$TOOL")" | paste -sd:)
command -v cil-instrument > /dev/null && { echo "a cil-instrument is on PATH: the recipe must install its own" >&2; exit 77; }

# 1. The shell recipe: the block after the marker, with the sample's settings.
awk '/<!-- ci-recipe:/{on=1; next} on && /^```sh/{inblock=1; next} inblock && /^```/{exit} inblock{print}' "$ROOT/README.md" > "$work/recipe.sh"
grep -q '^cil-instrument exec ' "$work/recipe.sh" || { fail "no recipe found in README.md"; finish; }
grep -q '^dotnet tool install ' "$work/recipe.sh" || fail "the recipe installs no tool"
sed -i -e 's|^SOLUTION=.*|SOLUTION=Sample.slnx|' -e 's|^TESTS=.*|TESTS=CountedTests/bin/Release/net10.0|' "$work/recipe.sh"
set +e
(cd "$work/sample" && timeout 900 bash "$work/recipe.sh") > "$work/recipe.log" 2>&1
rc=$?
set -e
if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/recipe.log" && ! grep -q "cil-instrument" <(grep "NU1101" "$work/recipe.log"); then
  echo "the NuGet packages of the sample cannot be restored here: skipped" >&2
  exit 77
fi
[ $rc = 0 ] || { tail -30 "$work/recipe.log" >&2; fail "the recipe failed (exit $rc)"; }
grep -q "Passed!  - Failed:     0, Passed:     7" "$work/recipe.log" || fail "the tests did not pass"
grep -q "^1 of 2 methods called$" "$work/recipe.log" || fail "the gate did not report: $(tail -3 "$work/recipe.log")"
python3 - "$work/sample/counts.json" <<'PY' || fail "counts.json does not have 4003 calls of Calc.Add"
import json, sys
r = json.load(open(sys.argv[1]))
assert sum(m["count"] for a in r["assemblies"] for m in a["methods"] if m["name"] == "Counted.Calc::Add") == 4003
PY
python3 -c 'import json,sys; print(" ".join(sorted({a["assembly"] for a in json.load(open(sys.argv[1]))["assemblies"]})))' \
  "$work/sample/counts.json" > "$work/assemblies.txt"
[ "$(cat "$work/assemblies.txt")" = Counted ] || fail "exec's default instrumented more than the user's library: $(cat "$work/assemblies.txt")"
# The test folder is as the build left it: Counted.dll is the compiler's output again.
cmp -s "$work/sample/Counted/bin/Release/net10.0/Counted.dll" "$work/sample/CountedTests/bin/Release/net10.0/Counted.dll" ||
  fail "the test folder's Counted.dll was not put back"
[ ! -e "$work/sample/CountedTests/bin/Release/net10.0/.cil-instrument-exec" ] || fail "exec's state directory is left"
# Control: the same gate on counts where nothing was called fails.
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); [m.update(count=0) for a in r["assemblies"] for m in a["methods"]]; [a.update(calledMethods=0) for a in r["assemblies"]]; json.dump(r, open(sys.argv[1], "w"))' "$work/sample/counts.json"
awk '/^# 6\. Gate/{on=1} on' "$work/recipe.sh" > "$work/gate.sh"
(cd "$work/sample" && bash "$work/gate.sh" > /dev/null 2>&1) && fail "control: the gate passed with no method called"

# ci_lines NAME FILE AWK: the lines AWK takes from docs/ci/FILE into $work/NAME.sh (set -e, the
# sample's settings first); the tool is installed afresh.
ci_lines() {
  { echo "set -e"; echo "SOLUTION=Sample.slnx TESTS=CountedTests/bin/Release/net10.0 THRESHOLD=$4"
    awk "$3" "$ROOT/docs/ci/$2"; } > "$work/$1.sh"
  grep -q 'dotnet tool install' "$work/$1.sh" || fail "$2: no dotnet tool install line"
  grep -q 'cil-instrument exec' "$work/$1.sh" || fail "$2: no cil-instrument exec line"
  rm -rf "$work/sample/.tools" "$work/sample/coverage.cobertura.xml"
}

# 2. GitHub Actions: the `run:` lines, threshold 40%: passes.
ci_lines github github-actions.yml '/^ *run: /{sub(/^ *run: /, ""); print}' 40
set +e
(cd "$work/sample" && timeout 900 bash "$work/github.sh") > "$work/github.log" 2>&1
rc=$?
set -e
[ $rc = 0 ] || { tail -30 "$work/github.log" >&2; fail "the GitHub Actions steps failed (exit $rc)"; }
packages=$(grep -o '<package name="[^"]*"' "$work/sample/coverage.cobertura.xml" 2> /dev/null | tr '\n' ' ')
[ "$packages" = '<package name="Counted" ' ] || fail "GitHub Actions: Cobertura's packages are not just Counted: $packages"
grep -q 'line-rate="0.50*"' "$work/sample/coverage.cobertura.xml" 2> /dev/null || fail "GitHub Actions: not one line of two covered"

# 3. GitLab CI: the `script:` lines, threshold 60%: the gate fails the job; the report is there.
ci_lines gitlab gitlab-ci.yml '/^  script:/{on=1; next} on && /^    - /{sub(/^    - /, ""); print; next} on{exit}' 60
set +e
(cd "$work/sample" && timeout 900 bash "$work/gitlab.sh") > "$work/gitlab.log" 2>&1
rc=$?
set -e
[ $rc = 6 ] || { tail -30 "$work/gitlab.log" >&2; fail "GitLab CI: a threshold of 60% gave exit $rc, not the gate's 6"; }
[ -f "$work/sample/coverage.cobertura.xml" ] || fail "GitLab CI: no Cobertura after the failed gate"
pattern=$(sed -n "s|^  coverage: '/\(.*\)/'$|\1|p" "$ROOT/docs/ci/gitlab-ci.yml")
python3 - "$pattern" "$work/gitlab.log" <<'PY' || fail "GitLab CI: the coverage pattern '$pattern' does not find 50.00 in the log"
import re, sys
found = [m.group(1) for m in re.finditer(sys.argv[1], open(sys.argv[2]).read(), re.M)]
sys.exit(0 if found == ["50.00"] else 1)
PY
finish
