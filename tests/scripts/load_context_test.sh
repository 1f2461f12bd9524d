#!/usr/bin/env bash
# One counts file per load (issue 19, item 3): tests/apps/LoadContexts.cs calls Work.Add 1,000
# times in the default AssemblyLoadContext and 3 times in a second copy of its own assembly
# loaded into another context. Instrumented offline in count mode, it writes
# LoadContexts.<pid>.counts.json and LoadContexts.<pid>.2.counts.json, and `report` merges them
# into 1,003 calls of Work::Add.
#   tests/scripts/load_context_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$ROOT/scripts/csc.sh" "$work/orig/LoadContexts.dll" /nullable+ "$ROOT/tests/apps/LoadContexts.cs" > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the app did not compile"; finish; }
mkdir -p "$work/inst" "$work/counts"
cp "$work/orig/LoadContexts.runtimeconfig.json" "$work/inst/"
"$TOOL" "$work/orig/LoadContexts.dll" -o "$work/inst/LoadContexts.dll" > /dev/null || { fail "instrumenting failed"; finish; }
out=$(cd "$work" && CIL_INSTRUMENT_OUTPUT="$work/counts" timeout 240 dotnet inst/LoadContexts.dll 2> "$work/stderr") ||
  fail "the app failed: $(cat "$work/stderr")"
[ "$out" = "sum 1003" ] || fail "the app printed '$out', not 'sum 1003'"
files=$(cd "$work/counts" && ls)
echo "$files" | grep -Eq '^LoadContexts\.[0-9]+\.counts\.json$' || fail "no first load's file: $files"
echo "$files" | grep -Eq '^LoadContexts\.[0-9]+\.2\.counts\.json$' || fail "no second load's file: $files"
[ "$(echo "$files" | wc -l)" = 2 ] || fail "expected 2 files, got: $files"
"$TOOL" report --json "$work/counts"/*.counts.json > "$work/report.json" || fail "report failed"
calls=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print(sum(m["count"] for a in r["assemblies"] for m in a["methods"] if m["name"] == "Work::Add"))' "$work/report.json")
[ "$calls" = 1003 ] || fail "report says Work::Add was called $calls times, not 1003"
[ "$FAILURES" = 0 ] && echo "ok   two loads, two files ($(echo $files | tr '\n' ' ')), report: Work::Add 1003"
finish
