#!/usr/bin/env bash
# Coverage mode end to end (issue 15): testdata/src/Coverage instrumented with --mode coverage
# runs with the original's output and writes a hits file at exit; `report` turns it into line and
# branch hits that must equal testdata/expected/Coverage.lines (written by hand from the source)
# exactly; the console table, Cobertura and LCOV of that run are golden; two runs merge; two
# builds in one folder are reported apart with a warning (golden), other probes of one build are
# refused; --threshold gives exit 6 under the threshold; --exclude-by-file;
# a missing or stale PDB gives one warning and method-level coverage; the hits file is written on
# SIGTERM, SIGINT, a normal exit and an unhandled exception; the JIT compiles every
# method of the outputs (tests/jitcheck), Mono.Cecil's with its PDB included.
#   tests/scripts/coverage_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$ROOT/testdata/bin/debug"
export SOURCE_DATE_EPOCH=0

# lines LCOV: FILE:LINE HITS [TAKEN/OUTCOMES] per line with a sequence point, sorted.
lines() {
  awk 'BEGIN { FS = "[:,]" }
       /^SF:/ { n = split($0, parts, "/"); file = parts[n] }
       /^DA:/ { hits[file ":" $2] = $3 }
       /^BRDA:/ { total[file ":" $2]++; if ($5 > 0) taken[file ":" $2]++ }
       END { for (k in hits) print k, hits[k] (k in total ? " " (taken[k] + 0) "/" total[k] : "") }' "$1" |
    sort -t: -k1,1 -k2,2n
}

# instrument DIR [OPTIONS...]: Coverage.dll into DIR, ready to run.
instrument() {
  local dir=$1
  shift
  mkdir -p "$dir"
  cp "$bin/Coverage.runtimeconfig.json" "$dir/"
  "$TOOL" "$bin/Coverage.dll" -o "$dir/Coverage.dll" --mode coverage "$@" > "$dir/summary" 2> "$dir/err" ||
    fail "instrument $*: $(cat "$dir/err")"
}
# run DIR: runs it; its output must be the original's.
run() {
  (cd "$1" && timeout 120 dotnet Coverage.dll > "$1/out" 2>&1) || fail "run $1: exit status $?"
  cmp -s "$work/original.out" "$1/out" || fail "run $1: output differs from the original's"
}

dotnet "$bin/Coverage.dll" > "$work/original.out"

echo "== the fixture's line and branch hits (--hit-counts: exact), against the hand-written expectation"
instrument "$work/one" --exclude-by-attribute SkipMe --hit-counts
[ -s "$work/one/err" ] && fail "warnings: $(cat "$work/one/err")"
run "$work/one"
hits=("$work"/one/Coverage.*.hits.json)
[ "${#hits[@]}" = 1 ] && [ -f "${hits[0]}" ] || fail "not one hits file: ${hits[*]}"
"$TOOL" report "${hits[@]}" --lcov "$work/one.info" --cobertura "$work/one.xml" > "$work/table.txt" || fail "report failed"
lines "$work/one.info" > "$work/one.lines"
if diff <(grep -v '^#' "$ROOT/testdata/expected/Coverage.lines") "$work/one.lines" > "$work/lines.diff"; then
  echo "ok   $(wc -l < "$work/one.lines") lines as expected"
else
  fail "line and branch hits differ from testdata/expected/Coverage.lines (< expected, > got):"
  head -20 "$work/lines.diff" >&2
fi
sed -i "s/$(basename "${hits[0]}" .hits.json)/Coverage.PID/" "$work/table.txt"
check_golden coverage/table.txt "$work/table.txt"
check_golden coverage/cobertura.xml "$work/one.xml"
check_golden coverage/lcov.info "$work/one.info"
"$TOOL" report "${hits[@]}" --json > "$work/one.json" || fail "report --json failed"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["total"]; print("ok   json totals: line %d/%d branch %d/%d method %d/%d" % (t["line"]["covered"], t["line"]["total"], t["branch"]["covered"], t["branch"]["total"], t["method"]["covered"], t["method"]["total"]))' "$work/one.json" ||
  fail "report --json is not JSON"

echo "== fewer probes than what they report; without --hit-counts each probe's count is 1 or 0"
# One probe per straight run of code and per branch edge no target carries (man page, --mode
# coverage): the hits file's entries are its probes, each naming the points and outcomes it counts.
python3 - "${hits[0]}" <<'PY' || fail "probes: not fewer than the points and outcomes they report"
import json, sys
methods = json.load(open(sys.argv[1]))["methods"]
kinds = [entry[0] for m in methods for entry in m["name"].split("\n")]
reported = kinds.count("L") + kinds.count("B")
print(f"ok   {len(methods)} probes for {kinds.count('M')} method entries, {kinds.count('L')} points and {kinds.count('B')} outcomes")
sys.exit(0 if len(methods) < reported else 1)
PY
instrument "$work/hit" --exclude-by-attribute SkipMe
run "$work/hit"
python3 - "$work"/hit/Coverage.*.hits.json <<'PY' || fail "without --hit-counts: a count other than 0 or 1"
import json, sys
sys.exit(0 if all(m["count"] in (0, 1) for m in json.load(open(sys.argv[1]))["methods"]) else 1)
PY
"$TOOL" report "$work"/hit/Coverage.*.hits.json --lcov "$work/hit.info" > "$work/hit.table" || fail "report without --hit-counts failed"
# Covered or not per line, and the outcomes taken, as the exact counts say.
lines "$work/hit.info" | awk '{ print $1, ($2 > 0), $3 }' > "$work/hit.lines"
awk '{ print $1, ($2 > 0), $3 }' "$work/one.lines" | diff - "$work/hit.lines" > /dev/null ||
  fail "without --hit-counts: other lines covered or other outcomes taken than with it"
hit_hits=("$work"/hit/Coverage.*.hits.json)
sed -i "s/$(basename "${hit_hits[0]}" .hits.json)/Coverage.PID/" "$work/hit.table"
diff -q "$ROOT/tests/golden/coverage/table.txt" "$work/hit.table" > /dev/null || fail "without --hit-counts: another coverage table"
echo "ok   the same $(wc -l < "$work/hit.lines") lines covered or not, the same outcomes taken"

echo "== two runs merge: every hit doubles"
run "$work/one"
"$TOOL" report "$work"/one/Coverage.*.hits.json --lcov "$work/two.info" > /dev/null || fail "report of two runs failed"
awk '{ split($3, b, "/"); print $1, $2 * 2, ($3 == "" ? "" : b[1] "/" b[2]) }' "$work/one.lines" | sed 's/ $//' > "$work/doubled"
lines "$work/two.info" | diff - "$work/doubled" > /dev/null || fail "two runs: the hits are not the sums"

echo "== a folder holding two builds of one assembly: each reported apart, with one warning"
mkdir -p "$work/builds"
sed 's/"mvid": "[^"]*"/"mvid": "1111aaaa-0000-0000-0000-000000000001"/' "${hits[0]}" > "$work/builds/Coverage.1.hits.json"
sed 's/"mvid": "[^"]*"/"mvid": "2222bbbb-0000-0000-0000-000000000002"/' "${hits[0]}" > "$work/builds/Coverage.2.hits.json"
status=0
"$TOOL" report "$work/builds" --lcov "$work/builds.info" --cobertura "$work/builds.xml" > "$work/builds.txt" 2> "$work/err" || status=$?
sed -i "s|$work/||g" "$work/err"
[ "$status" = 0 ] && [ "$(wc -l < "$work/err")" = 1 ] || fail "two builds: status $status, $(cat "$work/err")"
cat "$work/builds.txt" "$work/err" > "$work/builds.out"
check_golden coverage/builds_apart.txt "$work/builds.out"
grep -q '<package name="Coverage \[2222bbbb\]"' "$work/builds.xml" && grep -q '^TN:Coverage__1111aaaa_$' "$work/builds.info" ||
  fail "two builds: Cobertura or LCOV does not name them apart"
echo "ok   $(cat "$work/err")"
# Hits of the same build instrumented with other options are still refused.
python3 - "${hits[0]}" "$work/other.hits.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["methods"] = d["methods"][:-1]
json.dump(d, open(sys.argv[2], "w"))
PY
status=0
"$TOOL" report "${hits[0]}" "$work/other.hits.json" > /dev/null 2> "$work/err" || status=$?
[ "$status" = 5 ] && [ "$(wc -l < "$work/err")" = 1 ] && grep -q 'different instrumentations' "$work/err" ||
  fail "other probes: status $status, $(cat "$work/err")"
echo "ok   $(cat "$work/err")"

echo "== malformed hits files: one line each, exit 3"
malformed() {  # LABEL SED-EXPRESSION
  sed "$2" "${hits[0]}" > "$work/bad.hits.json"
  local status=0
  "$TOOL" report "$work/bad.hits.json" > /dev/null 2> "$work/err" || status=$?
  if [ "$status" = 3 ] && [ "$(wc -l < "$work/err")" = 1 ]; then echo "ok   $1: $(cut -c1-150 "$work/err")"; else fail "$1: status $status: $(cat "$work/err")"; fi
}
malformed "unknown probe kind" '0,/"name": "L\\t/s//"name": "X\\t/'
# (a line entry may follow others in its probe's name: see runtime_contract.h)
malformed "end line before start" 's/L\\t12\\t12\\t/L\\t12\\t11\\t/'
malformed "line range too long" 's/L\\t12\\t12\\t/L\\t12\\t4000000000\\t/'
malformed "probe before any method" 's/"methods": \[{"token": "0x0[0-9A-F]*", "name": "M\\t[^"]*", "count": [0-9]*}, /"methods": [/'
malformed "not a description" '0,/"name": "L\\t/s//"name": "L/'
malformed "unknown kind member" 's/"kind": "hits"/"kind": "counts"/'

echo "== --threshold"
check_status() {  # EXPECTED ARGS...
  local expected=$1 status=0
  shift
  "$TOOL" report "${hits[0]}" "$@" > /dev/null 2> "$work/err" || status=$?
  [ "$status" = "$expected" ] || fail "report $*: status $status, not $expected: $(cat "$work/err")"
}
check_status 0 --threshold 50 --threshold-type line
check_status 6 --threshold 95 --threshold-type line
check_status 6 --threshold 60 --threshold-type branch
check_status 0 --threshold 40 --threshold-type branch --threshold-type method
check_status 6 --threshold 60
check_status 2 --threshold 101
check_status 2 --threshold-type lines --threshold 5
grep -q "threshold-type is line, branch or method" "$work/err" || fail "no usage message for --threshold-type lines"

echo "== --exclude-by-file"
instrument "$work/byfile" --exclude-by-file '*/Other.cs'
run "$work/byfile"
"$TOOL" report "$work"/byfile/Coverage.*.hits.json --lcov "$work/byfile.info" > /dev/null
lines "$work/byfile.info" > "$work/byfile.lines"
grep -q '^Other.cs' "$work/byfile.lines" && fail "--exclude-by-file: Other.cs still reported"
grep -q '^Program.cs:88 ' "$work/byfile.lines" || fail "--exclude-by-file: without --exclude-by-attribute SkipMe, Skipped is reported"
grep -q '^Program.cs:83 ' "$work/byfile.lines" && fail "[ExcludeFromCodeCoverage] is reported"

echo "== a missing or stale PDB: one warning, method-level coverage"
for case in missing stale; do
  dir="$work/$case"
  mkdir -p "$dir/in"
  cp "$bin/Coverage.dll" "$dir/in/"
  [ "$case" = stale ] && cp "$bin/DebugLines.Portable.pdb" "$dir/in/Coverage.pdb"
  mkdir -p "$dir/out"
  cp "$bin/Coverage.runtimeconfig.json" "$dir/out/"
  "$TOOL" "$dir/in/Coverage.dll" -o "$dir/out/Coverage.dll" --mode coverage > /dev/null 2> "$dir/err" || fail "$case: $(cat "$dir/err")"
  [ "$(wc -l < "$dir/err")" = 1 ] || fail "$case PDB: not one warning: $(cat "$dir/err")"
  echo "ok   $case: $(cat "$dir/err")"
  run "$dir/out"
  "$TOOL" report "$dir"/out/Coverage.*.hits.json --json > "$dir/report.json" || fail "$case: report failed"
  python3 - "$dir/report.json" "$case" <<'PY' || fail "$case PDB: not method-level coverage"
import json, sys
m = json.load(open(sys.argv[1]))["modules"][0]
assert m["line"]["total"] == 0 and m["branch"]["total"] == 0 and not m["documents"], m["line"]
names = {x["name"]: x["covered"] for x in m["methods"]}
assert names["Fixtures.Cov::IfElse"] and not names["Fixtures.Cov::Never"], names
print("ok   %s: %d/%d methods entered, no lines" % (sys.argv[2], m["method"]["covered"], m["method"]["total"]))
PY
done

echo "== the hits file is written on SIGTERM, SIGINT, a normal exit and an unhandled exception"
bash "$ROOT/scripts/csc.sh" "$work/sig/orig/Signals.dll" /nullable- /debug:portable "$ROOT/tests/apps/Signals.cs" > "$work/csc.log" 2>&1 ||
  fail "Signals did not compile: $(cat "$work/csc.log")"
mkdir -p "$work/sig/inst"
cp "$work/sig/orig/Signals.runtimeconfig.json" "$work/sig/inst/"
"$TOOL" "$work/sig/orig/Signals.dll" -o "$work/sig/inst/Signals.dll" --mode coverage --hit-counts > /dev/null || fail "Signals: instrument failed"
# ending LABEL EXPECTED-STATUS ARGS...: one hits file, with Work.Step's line hit 1,000 times.
ending() {
  local label=$1 expected=$2 status=0
  shift 2
  rm -rf "$work/sig/out" && mkdir -p "$work/sig/out"
  (cd "$work/sig/inst" && CIL_INSTRUMENT_OUTPUT="$work/sig/out" timeout 60 dotnet Signals.dll "$@" > /dev/null 2>&1) || status=$?
  [ "$status" = "$expected" ] || fail "$label: exit status $status, not $expected"
  "$TOOL" report "$work"/sig/out/Signals.*.hits.json --lcov "$work/sig/lcov" > /dev/null 2>&1 || { fail "$label: no readable hits file"; return; }
  grep -qx 'DA:10,1000' "$work/sig/lcov" && echo "ok   $label: Work.Step's line 10 hit 1000 times" || fail "$label: line 10 not hit 1000 times"
}
ending SIGTERM 143 self 15 1000
ending SIGINT 130 self 2 1000
ending "normal exit" 0 exit 1000
# Unhandled.dll (no PDB: method-level) ends in an unhandled exception (134).
mkdir -p "$work/unhandled"
cp "$ROOT/testdata/bin/Unhandled.runtimeconfig.json" "$work/unhandled/"
"$TOOL" "$ROOT/testdata/bin/Unhandled.dll" -o "$work/unhandled/Unhandled.dll" --mode coverage > /dev/null 2>&1 || fail "Unhandled: instrument failed"
status=0
(cd "$work/unhandled" && timeout 60 dotnet Unhandled.dll > /dev/null 2>&1) || status=$?
[ "$status" = 134 ] || fail "unhandled exception: exit status $status, not 134"
"$TOOL" report "$work"/unhandled/Unhandled.*.hits.json --json 2> /dev/null | has '"name": "Fixtures.Unhandled::Inner", "file": "", "covered": true' &&
  echo "ok   unhandled exception: a hits file, Inner entered" || fail "unhandled exception: no hits file saying Inner was entered"

echo "== the JIT compiles every method of the outputs"
"$ROOT/scripts/csc.sh" "$work/JitCheck.dll" /nullable+ /optimize+ /langversion:latest /warnaserror+ \
  "$ROOT/tests/jitcheck/JitCheck.cs" > "$work/csc.log" || fail "JitCheck does not compile: $(cat "$work/csc.log")"
jit_inputs=("$bin/Coverage.dll:$work/one/Coverage.dll" "$bin/DebugLines.Portable.dll:$work/dl/DebugLines.Portable.dll")
mkdir -p "$work/dl"
"$TOOL" "$bin/DebugLines.Portable.dll" -o "$work/dl/DebugLines.Portable.dll" --mode coverage > /dev/null || fail "DebugLines: instrument failed"
if [ -d "$CORPUS/cecil" ]; then
  mkdir -p "$work/cecil"
  "$TOOL" "$CORPUS/cecil/cecil.dll" -o "$work/cecil/cecil.dll" --mode coverage > /dev/null || fail "cecil: instrument failed"
  jit_inputs+=("$CORPUS/cecil/cecil.dll:$work/cecil/cecil.dll")
fi
for pair in "${jit_inputs[@]}"; do
  input=${pair%%:*} output=${pair#*:}
  before=$(dotnet "$work/JitCheck.dll" "$input" 2> /dev/null | grep -v '^compiled ' | sort) || true
  after_all=$(dotnet "$work/JitCheck.dll" "$output" 2> "$work/err") || { fail "JitCheck $output: $(head -3 "$work/err")"; continue; }
  after=$(grep -v '^compiled ' <<< "$after_all" | sort || true)
  new=$(comm -13 <(echo "$before") <(echo "$after") | grep -c . || true)
  echo "ok   $(basename "$output"): $(grep '^compiled ' <<< "$after_all"); newly refused $new"
  [ "$new" = 0 ] || { fail "$(basename "$output"): the JIT refuses methods it compiled in the input"; comm -13 <(echo "$before") <(echo "$after") | head -5 >&2; }
done
finish
