#!/usr/bin/env bash
# Count mode under `run` loses no count when one assembly is loaded into several
# AssemblyLoadContexts (issue 19.3, the profiler's part): testdata/src/LoadContexts (compiled here)
# calls Work.Add 1,000 times in the default context, 3 times in a second context and 2 times in a
# collectible third one that it then unloads. Each load gets its own counts file
# (Work.<pid>.counts.json, Work.<pid>.2..., .3..., in the order the loads were first used), and
# `report` merges them: 1,005 calls, at a normal exit and when the program then stops itself with
# SIGTERM (which still ends it: status 143).
#
#   tests/scripts/profiler_contexts_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export LC_ALL=C LANG=C
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS CIL_INSTRUMENT_FLUSH_SECONDS
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
[ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$ROOT/testdata/src/LoadContexts
{ "$ROOT/scripts/csc.sh" "$work/bin/Work.dll" /optimize+ /target:library "$src"/Work/*.cs &&
  "$ROOT/scripts/csc.sh" "$work/bin/LoadContexts.dll" /optimize+ /reference:"$work/bin/Work.dll" "$src"/*.cs; } \
  > "$work/csc.log" 2>&1 || { cat "$work/csc.log" >&2; exit 1; }

for ending in exit term; do
  out=$work/$ending
  mkdir "$out"
  set +e
  "$TOOL" run -q --include 'Fixtures.*' -o "$out" -- dotnet "$work/bin/LoadContexts.dll" "$ending" > "$out.stdout" 2> "$out.stderr"
  status=$?
  set -e
  want=0
  [ "$ending" = term ] && want=143
  [ "$status" = "$want" ] || fail "$ending: exit status $status, expected $want: $(head -c 300 "$out.stderr")"
  grep -qx 'calls 1005, third context unloaded' "$out.stdout" || fail "$ending: the program said $(cat "$out.stdout")"
  n=$(find "$out" -name 'Work.*.counts.json' | wc -l)
  [ "$n" = 3 ] || fail "$ending: $n counts files for Work, expected one per load (3): $(ls "$out")"
  ls "$out" | grep -Eq '^Work\.[0-9]+\.counts\.json$' || fail "$ending: no Work.<pid>.counts.json"
  ls "$out" | grep -Eq '^Work\.[0-9]+\.3\.counts\.json$' || fail "$ending: no Work.<pid>.3.counts.json"
  "$TOOL" report --json "$out"/*.counts.json > "$out.report" || fail "$ending: report exited $?"
  python3 - "$ending" "$out.report" <<'PY' || fail "$ending: report"
import json, sys
label, path = sys.argv[1:3]
work = [a for a in json.load(open(path))["assemblies"] if a["assembly"] == "Work"]
if len(work) != 1 or work[0]["files"] != 3:
    sys.exit(f"FAIL: {label}: Work in the report: {[(a['assembly'], a['files']) for a in work]}")
add = [m["count"] for m in work[0]["methods"] if m["name"] == "Fixtures.Work::Add"]
if add != [1005]:
    sys.exit(f"FAIL: {label}: Fixtures.Work::Add counted {add}, called 1005 times")
PY
done

[ "$FAILURES" -eq 0 ] || exit 1
echo "profiler_contexts: OK (1,005 calls over three load contexts, at exit and on SIGTERM)"
