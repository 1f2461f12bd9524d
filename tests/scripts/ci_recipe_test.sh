#!/usr/bin/env bash
# The README's CI recipe (issue 16) runs as written on the sample solution tests/apps/msbuild_sample
# (without its Directory.Build.targets: a plain solution), with only SOLUTION, TESTS and
# ASSEMBLIES set for it: it builds, the tests pass, the folder is put back, counts.json has
# Calc.Add's 4,003 calls and the gate passes. A control with a gate that cannot pass must fail.
#   tests/scripts/ci_recipe_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "ci_recipe: skipped under the sanitizers (it judges dotnet builds)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/tests/apps/msbuild_sample" "$work/sample"
rm "$work/sample/Directory.Build.targets" "$work/sample/CountedTests/EnvironmentTests.cs"
# The block after the marker, with the sample's three settings.
awk '/<!-- ci-recipe:/{on=1; next} on && /^```sh/{inblock=1; next} inblock && /^```/{exit} inblock{print}' "$ROOT/README.md" > "$work/recipe.sh"
grep -q '^cil-instrument exec ' "$work/recipe.sh" || { fail "no recipe found in README.md"; finish; }
sed -i -e 's|^SOLUTION=.*|SOLUTION=Sample.slnx|' -e 's|^TESTS=.*|TESTS=CountedTests/bin/Release/net10.0|' \
  -e "s|^ASSEMBLIES=.*|ASSEMBLIES='Counted.dll'|" "$work/recipe.sh"
export PATH="$(dirname "$TOOL"):$PATH" DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
set +e
(cd "$work/sample" && timeout 900 bash "$work/recipe.sh") > "$work/recipe.log" 2>&1
rc=$?
set -e
if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/recipe.log"; then
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
# The test folder is as the build left it: Counted.dll is the compiler's output again.
cmp -s "$work/sample/Counted/bin/Release/net10.0/Counted.dll" "$work/sample/CountedTests/bin/Release/net10.0/Counted.dll" ||
  fail "the test folder's Counted.dll was not put back"
[ ! -e "$work/sample/CountedTests/bin/Release/net10.0/.cil-instrument-exec" ] || fail "exec's state directory is left"
# Control: the same gate on counts where nothing was called fails.
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); [m.update(count=0) for a in r["assemblies"] for m in a["methods"]]; [a.update(calledMethods=0) for a in r["assemblies"]]; json.dump(r, open(sys.argv[1], "w"))' "$work/sample/counts.json"
awk '/^# 6\. Gate/{on=1} on' "$work/recipe.sh" > "$work/gate.sh"
(cd "$work/sample" && bash "$work/gate.sh" > /dev/null 2>&1) && fail "control: the gate passed with no method called"
finish
