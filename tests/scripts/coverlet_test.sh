#!/usr/bin/env bash
# Coverage against the anchor (issue 15): tests/apps/coverage (xunit tests running the Coverage
# fixture's sources, compiled as the CovLib library, and issue 39's branch shapes, compiled
# optimized as the Cov.Opt library) is built once (packages from the NuGet mirror), then measured
# by coverlet.msbuild (`dotnet test /p:CollectCoverage=true /p:CoverletOutputFormat=cobertura`)
# and by cil-instrument --mode coverage (both libraries instrumented in a copy of the build
# output, `dotnet test` on it, `report --cobertura --lcov`).
#  - Every line must be covered or not covered alike in both reports (same lines, same verdicts).
#  - Every branch and method-count difference is listed, with its reason, in
#    tests/golden/coverage/coverlet_diff.txt ("LINE-OR-ITEM ... -- reason"); an unlisted or
#    unexplained difference fails.
#  - ReportGenerator (NuGet tool) reads our Cobertura and its text summary has our totals.
#  - genhtml (lcov) reads our LCOV without a warning, and its totals are ours.
#  - At JIT time (`cil-instrument run --mode coverage -- dotnet test` on the build output as it
#    is): the folder is unchanged and every line's hits and branches equal the offline run's.
# Skipped (77) when the mirror cannot restore the packages.
#   tests/scripts/coverlet_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "coverlet: skipped under the sanitizers"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/tests/apps/coverage/." "$work/"
sources="$ROOT/testdata/src/Coverage"
skip_if_offline() {  # LOG
  if grep -q "NU1101\|NU1102\|NU1301\|Unable to load the service index\|Unable to find package" "$1"; then
    echo "the NuGet packages cannot be restored here: skipped" >&2
    exit 77
  fi
}
if ! (cd "$work/CovTests" && timeout 600 dotnet build -nologo -v q -p:CoverageSources="$sources" > "$work/build.log" 2>&1); then
  skip_if_offline "$work/build.log"
  cat "$work/build.log" >&2
  fail "the test project did not build"
  finish
fi
out="$work/CovTests/bin/Debug/net10.0"

echo "== coverlet.msbuild"
(cd "$work/CovTests" && timeout 600 dotnet test --no-build -nologo -p:CollectCoverage=true -p:CoverletOutputFormat=cobertura \
  -p:CoverletOutput="$work/coverlet/" -p:CoverageSources="$sources" > "$work/coverlet.log" 2>&1) ||
  { tail -20 "$work/coverlet.log" >&2; fail "dotnet test with coverlet failed"; finish; }
grep -E '^\| (CovLib|Total)' "$work/coverlet.log" | head -2

libs="CovLib Cov.Opt"
echo "== cil-instrument --mode coverage"
cp -r "$out" "$work/ours"
for lib in $libs; do
  "$TOOL" "$out/$lib.dll" -o "$work/ours/$lib.dll" --mode coverage > /dev/null || { fail "instrumenting $lib failed"; finish; }
done
mkdir -p "$work/hits"
(cd "$work" && CIL_INSTRUMENT_OUTPUT="$work/hits" timeout 600 dotnet test "$work/ours/CovTests.dll" > "$work/ours.log" 2>&1) ||
  { tail -20 "$work/ours.log" >&2; fail "dotnet test of the instrumented library failed"; finish; }
"$TOOL" report "$work"/hits/*.hits.json --cobertura "$work/ours.xml" --lcov "$work/ours.info" > "$work/ours.table"
grep -E '^\| (CovLib|Cov.Opt|Total)' "$work/ours.table"

echo "== cil-instrument run --mode coverage -- dotnet test (JIT time: nothing on disk changes)"
if [ -f "$(dirname "$TOOL")/libcilprofiler.so" ]; then
  mkdir -p "$work/jit"
  before=$(cd "$out" && find . -type f | sort | xargs sha256sum)
  # CovLib's sources are the fixture's (testdata), not under the folder run starts in: the
  # default (the code under test built from there) would leave it out, so it is named.
  (cd "$work" && timeout 600 "$TOOL" run --mode coverage --assemblies CovLib.dll --assemblies Cov.Opt.dll -o "$work/jit" -q \
    -- dotnet test "$out/CovTests.dll" > "$work/jit.log" 2>&1) ||
    { tail -20 "$work/jit.log" >&2; fail "dotnet test under run --mode coverage failed"; }
  [ "$(cd "$out" && find . -type f | sort | xargs sha256sum)" = "$before" ] || fail "run --mode coverage changed the test folder"
  jit_hits=("$work"/jit/CovLib.*.hits.json "$work"/jit/Cov.Opt.*.hits.json)
  if [ -f "${jit_hits[0]}" ] && [ -f "${jit_hits[1]}" ] && [ ${#jit_hits[@]} = 2 ]; then
    "$TOOL" report "${jit_hits[@]}" --cobertura "$work/jit.xml" | grep -E '^\| Total'
    # Every line and branch as the offline run of the same tests saw it, hits included.
    python3 - "$work/ours.xml" "$work/jit.xml" > "$work/jit.diff" <<'PY'
import sys, xml.etree.ElementTree as ET
def lines(path):
    out = {}
    for cls in ET.parse(path).getroot().iter('class'):
        for line in cls.find('lines').iter('line'):
            out[(cls.get('filename'), cls.get('name'), line.get('number'))] = (line.get('hits'), line.get('condition-coverage'))
    return out
a, b = lines(sys.argv[1]), lines(sys.argv[2])
for key in sorted(set(a) | set(b)):
    if a.get(key) != b.get(key): print(key, "offline", a.get(key), "JIT time", b.get(key))
print(len(a), "lines", file=sys.stderr)
PY
    if [ -s "$work/jit.diff" ]; then
      head -5 "$work/jit.diff" >&2
      fail "JIT-time coverage of dotnet test differs from the offline coverage of the same tests"
    else
      echo "ok   every line's hits and branches at JIT time as offline"
    fi
  else
    fail "run --mode coverage: not one hits file for each of $libs: $(ls "$work/jit")"
  fi
else
  echo "no libcilprofiler.so: JIT-time coverage skipped"
fi

echo "== line by line"
python3 "$ROOT/tests/scripts/cobertura_lines.py" "$work/coverlet/coverage.cobertura.xml" "$work/ours.xml" > "$work/diff.txt"
if grep '^LINE' "$work/diff.txt" >&2; then
  fail "line coverage differs from coverlet's"
else
  echo "ok   $(python3 -c 'import sys,xml.etree.ElementTree as E; print(len({(c.get("filename"),l.get("number")) for c in E.parse(sys.argv[1]).getroot().iter("class") for l in c.find("lines").iter("line")}))' "$work/ours.xml") lines, each covered or not as coverlet says"
fi
golden="$ROOT/tests/golden/coverage/coverlet_diff.txt"
if [ "${CIL_REGEN:-0}" = 1 ]; then
  # Keeps the reasons of the differences already explained; a new one needs its reason written.
  while IFS= read -r d; do
    reason=$(grep -F -- "$d -- " "$golden" 2> /dev/null | head -1 | sed "s/.* -- //" || true)
    echo "$d -- ${reason:-REASON?}"
  done < "$work/diff.txt" > "$work/golden.new"
  cp "$work/golden.new" "$golden"
fi
sed 's/ -- .*//' "$golden" | diff - "$work/diff.txt" > "$work/golden.diff" ||
  { fail "the differences from coverlet are not the ones explained in $golden:"; cat "$work/golden.diff" >&2; }
if grep -vE ' -- .{12,}' "$golden" >&2 || grep -F 'REASON?' "$golden" >&2; then
  fail "a difference from coverlet without its reason in $golden"
else
  echo "ok   $(wc -l < "$golden") differences, each explained"
fi

echo "== our Cobertura: each line in one method, compiler classes folded"
python3 - "$work/ours.xml" > "$work/owners.txt" <<'PY'
import sys, collections, xml.etree.ElementTree as ET
owners = collections.defaultdict(list)
for cls in ET.parse(sys.argv[1]).getroot().iter('class'):
    if '/<' in cls.get('name'): print("a compiler-made class of its own:", cls.get('name'))
    for m in cls.find('methods').findall('method'):
        for line in m.find('lines').iter('line'):
            owners[(cls.get('filename'), line.get('number'))].append((cls.get('name'), m.get('name'), line.get('hits')))
for key, o in sorted(owners.items()):
    # A lambda written on its statement's line shares it; lines apart belong to one method.
    if len(o) > 1 and any(h == '0' for _, _, h in o) and any(h != '0' for _, _, h in o):
        print("line", key[1], "of", key[0], "in several methods, covered in one and not in another:", o)
PY
if [ -s "$work/owners.txt" ]; then
  head -5 "$work/owners.txt" >&2
  fail "our Cobertura lists a line under two methods or a compiler-made class apart"
else
  echo "ok   each line covered or not in every method that lists it; no compiler-made class apart"
fi

echo "== ReportGenerator reads our Cobertura"
if ! timeout 300 dotnet tool install --tool-path "$work/rg" dotnet-reportgenerator-globaltool > "$work/rg-install.log" 2>&1; then
  skip_if_offline "$work/rg-install.log"
  fail "ReportGenerator did not install: $(tail -3 "$work/rg-install.log")"
  finish
fi
"$work/rg/reportgenerator" -reports:"$work/ours.xml" -targetdir:"$work/rg-out" -reporttypes:'Html;TextSummary' > "$work/rg.log" 2>&1 ||
  { tail -5 "$work/rg.log" >&2; fail "ReportGenerator failed on our Cobertura"; finish; }
[ -s "$work/rg-out/index.html" ] || fail "ReportGenerator wrote no HTML"
read -r covered valid bcovered bvalid < <(python3 -c 'import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print(r.get("lines-covered"), r.get("lines-valid"), r.get("branches-covered"), r.get("branches-valid"))' "$work/ours.xml")
grep -q "^  Covered lines: $covered\$" "$work/rg-out/Summary.txt" && grep -q "^  Coverable lines: $valid\$" "$work/rg-out/Summary.txt" &&
  grep -q "^  Covered branches: $bcovered\$" "$work/rg-out/Summary.txt" && grep -q "^  Total branches: $bvalid\$" "$work/rg-out/Summary.txt" ||
  { fail "ReportGenerator's totals are not ours ($covered/$valid lines, $bcovered/$bvalid branches):"; head -20 "$work/rg-out/Summary.txt" >&2; }
echo "ok   ReportGenerator: $covered/$valid lines, $bcovered/$bvalid branches, as ours"

echo "== genhtml reads our LCOV"
if command -v genhtml > /dev/null; then
  genhtml --branch-coverage --function-coverage -o "$work/genhtml" "$work/ours.info" > "$work/genhtml.log" 2>&1 ||
    { tail -5 "$work/genhtml.log" >&2; fail "genhtml failed on our LCOV"; }
  grep -i 'warning\|error' "$work/genhtml.log" >&2 && fail "genhtml warned on our LCOV"
  # genhtml's totals (lines, functions, branches) against report's table (line, method, branch).
  read -r lines functions branches < <(sed -n 's/.*(\([0-9]*\) of \([0-9]*\) \(lines\|functions\|branches\)).*/\1\/\2/p' "$work/genhtml.log" | tr '\n' ' '; echo)
  total=$(grep '^| Total' "$work/ours.table")
  ratio() { echo "$total" | awk -F'|' -v c="$1" '{ print $c }' | sed 's/.*(\(.*\)).*/\1/'; }
  if [ "$lines" = "$(ratio 3)" ] && [ "$branches" = "$(ratio 4)" ] && [ "$functions" = "$(ratio 5)" ]; then
    echo "ok   genhtml: $lines lines, $functions functions, $branches branches, as ours"
  else
    fail "genhtml's totals ($lines lines, $functions functions, $branches branches) are not ours: $total"
    cat "$work/genhtml.log" >&2
  fi
else
  echo "no genhtml (apt-get install lcov): LCOV not checked"
fi
finish
