#!/usr/bin/env bash
# Source paths in coverage reports (issue 39): the Coverage fixture's hits reported with
# --path-map onto a copy of its sources in a temporary folder and --source-root that folder:
# Cobertura's <source> is the folder and every class filename, joined to it, is a file of the
# copy (and ReportGenerator, when it installs, reads each); LCOV's SF and the JSON's paths are
# whole paths into the copy; the longest FROM wins and FROM matches on whole components; the
# totals do not move; without the options the Cobertura and LCOV are the goldens of
# coverage_test.sh (both with --hit-counts) byte for byte; bad values are a usage error.
#   tests/scripts/coverage_paths_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$ROOT/testdata/bin/debug"
export SOURCE_DATE_EPOCH=0

mkdir -p "$work/run"
cp "$bin/Coverage.runtimeconfig.json" "$work/run/"
"$TOOL" "$bin/Coverage.dll" -o "$work/run/Coverage.dll" --mode coverage --exclude-by-attribute SkipMe --hit-counts > /dev/null 2> "$work/err" ||
  fail "instrument: $(cat "$work/err")"
(cd "$work/run" && timeout 120 dotnet Coverage.dll > /dev/null 2>&1) || fail "run: exit status $?"
hits=("$work"/run/Coverage.*.hits.json)
[ "${#hits[@]}" = 1 ] && [ -f "${hits[0]}" ] || { fail "not one hits file: ${hits[*]}"; finish; }

echo "== without the options: the goldens, byte for byte"
"$TOOL" report "${hits[0]}" --cobertura "$work/plain.xml" --lcov "$work/plain.info" > /dev/null || fail "report failed"
check_golden coverage/cobertura.xml "$work/plain.xml"
check_golden coverage/lcov.info "$work/plain.info"
"$TOOL" report "${hits[0]}" --json > "$work/plain.json" || fail "report --json failed"

echo "== --path-map onto a copy of the sources, --source-root the copy"
# The documents are /_/testdata/src/Coverage/*.cs (a deterministic build). /_ maps nowhere: the
# longer /_/testdata/src must win; /_/test is no whole component of them and must not match.
tree="$work/copy/src"
mkdir -p "$tree"
cp -r "$ROOT/testdata/src/Coverage" "$tree/"
"$TOOL" report "${hits[0]}" --path-map /_=/nowhere --path-map "/_/testdata/src=$tree" --path-map /_/test=/wrong \
  --source-root "$tree" --cobertura "$work/mapped.xml" --lcov "$work/mapped.info" > /dev/null 2> "$work/err" ||
  fail "report --path-map failed: $(cat "$work/err")"
"$TOOL" report "${hits[0]}" --path-map /_=/nowhere --path-map "/_/testdata/src/=$tree/" --json > "$work/mapped.json" ||
  fail "report --path-map --json failed"
python3 - "$tree" "$work/mapped.xml" "$work/mapped.info" "$work/mapped.json" "$work/plain.json" <<'PY' || fail "the mapped paths do not find the copy"
import json, os, sys
import xml.etree.ElementTree as ET
tree, xml_path, lcov_path, json_path, plain_path = sys.argv[1:]
root = ET.parse(xml_path).getroot()
sources = [s.text for s in root.iter("source")]
assert sources == [tree], sources
names = [c.get("filename") for c in root.iter("class")]
assert names and all(not os.path.isabs(n) for n in names), names
for n in names:
    assert os.path.isfile(os.path.join(sources[0], n)), n
sf = [l[3:].rstrip("\n") for l in open(lcov_path) if l.startswith("SF:")]
assert len(sf) == 2 and all(p.startswith(tree + "/") and os.path.isfile(p) for p in sf), sf
mapped, plain = json.load(open(json_path)), json.load(open(plain_path))
docs = [d["path"] for m in mapped["modules"] for d in m["documents"]]
files = {x["file"] for m in mapped["modules"] for x in m["methods"]}
assert len(docs) == 2 and all(os.path.isfile(p) for p in docs), docs
assert files <= set(docs), files - set(docs)
assert mapped["total"] == plain["total"], (mapped["total"], plain["total"])
print("ok   Cobertura <source> %s, %d classes found under it; LCOV SF and JSON paths: %s" %
      (sources[0], len(names), ", ".join(os.path.relpath(p, tree) for p in sf)))
PY

echo "== ReportGenerator finds every file (the NuGet tool, as coverlet_test.sh runs it)"
if timeout 300 dotnet tool install --tool-path "$work/rg" dotnet-reportgenerator-globaltool > "$work/rg-install.log" 2>&1; then
  "$work/rg/reportgenerator" -reports:"$work/mapped.xml" -targetdir:"$work/rg-out" -reporttypes:Html > "$work/rg.log" 2>&1 ||
    fail "ReportGenerator failed: $(tail -3 "$work/rg.log")"
  # Without the options it logs "File '/_/testdata/src/Coverage/Program.cs' does not exist (any more)."
  # Given a <source>, it also looks below it for the tail of a path it cannot find, so this shows
  # what its reader makes of our file; the check above is the one that needs the mapping.
  if [ ! -s "$work/rg-out/Coverage_Cov.html" ]; then fail "ReportGenerator wrote no page for Fixtures.Cov"
  elif grep -q 'does not exist' "$work/rg.log"; then fail "ReportGenerator misses files: $(grep 'does not exist' "$work/rg.log")"
  else echo "ok   ReportGenerator read every class's source file"; fi
else
  echo "skip ReportGenerator did not install: $(tail -1 "$work/rg-install.log")"
fi

echo "== a file outside --source-root keeps its whole path"
"$TOOL" report "${hits[0]}" --source-root /elsewhere --cobertura "$work/outside.xml" > /dev/null || fail "report --source-root failed"
grep -q '<source>/elsewhere</source>' "$work/outside.xml" && grep -q 'filename="/_/testdata/src/Coverage/Program.cs"' "$work/outside.xml" &&
  echo "ok   <source>/elsewhere</source>, filename=\"/_/testdata/src/Coverage/Program.cs\"" ||
  fail "--source-root /elsewhere: $(grep -m3 '<source\|filename=' "$work/outside.xml")"

echo "== bad values: one usage error line (and the --help hint every usage error has), exit 2"
usage_error() {  # LABEL ARGS...
  local label=$1 status=0
  shift
  "$TOOL" report "${hits[0]}" "$@" > "$work/out" 2> "$work/err" || status=$?
  if [ "$status" = 2 ] && [ "$(grep -c 'error: report: ' "$work/err")" = 1 ] && [ "$(wc -l < "$work/err")" = 2 ] && [ ! -s "$work/out" ]; then
    echo "ok   $label: $(head -1 "$work/err")"
  else fail "$label: status $status: $(cat "$work/err")"; fi
}
usage_error "no '='" --path-map /_/testdata
usage_error "empty FROM" --path-map =/x
usage_error "empty --source-root" --source-root ''
finish
