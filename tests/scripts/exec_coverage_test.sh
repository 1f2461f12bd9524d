#!/usr/bin/env bash
# exec --mode coverage (issue 39, item 7a): the coverage fixture (testdata/bin/debug/Coverage)
# instrumented in place and run on dotnet; after the command exec prints the coverage table
# (golden), the same table `report` prints from the hits file the run wrote, and --cobertura and
# --lcov write files equal to report's from that hits file. --threshold: 6 under it, also when
# the command failed (the threshold outranks the command's status); over it, the command's status.
# The report options are a usage error without --mode coverage or with a bad value, before
# anything runs. The folder is back as it was after each run.
#   tests/scripts/exec_coverage_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=0
bin="$ROOT/testdata/bin/debug"
F=$work/app
mkdir -p "$F"
cp "$bin/Coverage.dll" "$bin/Coverage.pdb" "$bin/Coverage.runtimeconfig.json" "$F/"
before=$(folder_state "$F")
check_restored() { [ "$(folder_state "$F")" = "$before" ] || fail "$1: the folder is not as before"; }
dotnet "$F/Coverage.dll" > "$work/original.out"

# The command: the fixture, its output kept apart from exec's; then exit with $1's status.
app='cd "$0" && timeout 120 dotnet Coverage.dll > "$1"; exit ${2:-0}'

echo "== the table after the command, and the files report writes"
run_exec "coverage" 0 --mode coverage -o "$work/out1" --cobertura "$work/exec.xml" --lcov "$work/exec.info" \
  "$F" -- sh -c "$app" "$F" "$work/app.out"
check_restored "coverage"
cmp -s "$work/original.out" "$work/app.out" || fail "coverage: the instrumented program printed otherwise"
hits=("$work"/out1/Coverage.*.hits.json)
[ "${#hits[@]}" = 1 ] && [ -f "${hits[0]}" ] || fail "coverage: not one hits file: ${hits[*]}"
grep -q '^| Total ' "$work/out.txt" || fail "coverage: no coverage table: $(head -3 "$work/out.txt")"
cp "$work/out.txt" "$work/table.txt"
check_golden exec/coverage_table.txt "$work/table.txt"
"$TOOL" report "${hits[@]}" --cobertura "$work/report.xml" --lcov "$work/report.info" > "$work/report.txt" ||
  fail "report of the run's hits failed"
cmp -s "$work/report.txt" "$work/table.txt" || fail "coverage: exec's table is not report's"
[ -s "$work/exec.xml" ] && cmp -s "$work/exec.xml" "$work/report.xml" || fail "coverage: exec's Cobertura file is missing or not report's"
[ -s "$work/exec.info" ] && cmp -s "$work/exec.info" "$work/report.info" || fail "coverage: exec's LCOV file is missing or not report's"
grep -q '<coverage ' "$work/exec.xml" || fail "coverage: $work/exec.xml is not Cobertura"

echo "== --threshold: 6 under it, even over the command's failure; over it, the command's status"
run_exec "under the threshold" 6 --mode coverage -o "$work/out2" --threshold 100 "$F" -- sh -c "$app" "$F" "$work/app.out"
grep -q 'coverage .* is under the threshold of 100%' "$work/err.txt" || fail "under the threshold: $(cat "$work/err.txt")"
grep -q '^| Total ' "$work/out.txt" || fail "under the threshold: no table"
check_restored "under the threshold"
run_exec "under the threshold, command failed" 6 --mode coverage -o "$work/out3" --threshold 100 --threshold-type line \
  "$F" -- sh -c "$app" "$F" "$work/app.out" 3
[ "$(grep -c 'under the threshold' "$work/err.txt")" = 1 ] || fail "--threshold-type line: $(cat "$work/err.txt")"
run_exec "over the threshold, command failed" 3 --mode coverage -o "$work/out4" --threshold 10 "$F" -- sh -c "$app" "$F" "$work/app.out" 3
run_exec "over the threshold" 0 --mode coverage -o "$work/out5" --threshold 10 "$F" -- sh -c "$app" "$F" "$work/app.out"
check_restored "threshold"

echo "== usage errors, before anything runs"
run_exec "--cobertura in count mode" 2 --cobertura "$work/c.xml" "$F" -- touch "$work/ran"
run_exec "bad --threshold" 2 --mode coverage --threshold 101 "$F" -- touch "$work/ran"
run_exec "bad --threshold-type" 2 --mode coverage --threshold-type lines "$F" -- touch "$work/ran"
[ ! -e "$work/ran" ] || fail "usage errors: the command ran"
[ ! -e "$work/c.xml" ] || fail "usage errors: a Cobertura file was written"
check_restored "usage errors"
finish
