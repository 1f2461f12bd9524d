#!/usr/bin/env bash
# Coverage at JIT time (issue 15): `cil-instrument run --mode coverage -- dotnet APP` gives the
# hits that offline coverage mode gives for the same program, with no file on disk changed.
# For each fixture with a portable PDB (testdata/bin/debug: Coverage with its PDB beside it,
# DebugLines.Portable, DebugLines.Embedded with its PDB embedded):
#  - the program prints the same and exits the same as the original, offline-instrumented and
#    under the profiler (stack traces included: the profiler gives the runtime its offset maps);
#  - the two hits files hold the same probes (token, description: method entry, line, branch)
#    with the same counts, and `report --json` says the same of both (the mvid aside: an
#    offline output has a new one);
#  - the fixture's folder is byte for byte as before.
# Another build's PDB beside Coverage.dll: one warning and method-level coverage, the same hits as
# offline. A module without a PDB (debug/Exceptions.dll) runs under the profiler as before and
# gets no hits file. `dotnet test` under the profiler: coverlet_test.sh.
#   tests/scripts/profiler_coverage_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
[ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$ROOT/testdata/bin/debug"

# capture PREFIX DIR COMMAND...: stdout, stderr (paths dropped) and exit status of one run in DIR.
capture() {
  local prefix=$1 dir=$2
  shift 2
  (cd "$dir" && timeout 300 "$@" > "$prefix.stdout" 2> "$prefix.stderr"; echo $? > "$prefix.status") || true
  sed -E -e 's|/[^ ]*/||g' -e '/^cil-instrument: run: /d' "$prefix.stderr" > "$prefix.stderr.n"
}
same() {  # same LABEL A B
  cmp -s "$2.stdout" "$3.stdout" || { fail "$1: stdout differs"; diff "$2.stdout" "$3.stdout" | head -5 >&2 || true; }
  cmp -s "$2.status" "$3.status" || fail "$1: exit status $(cat "$2.status") became $(cat "$3.status")"
  cmp -s "$2.stderr.n" "$3.stderr.n" || { fail "$1: stderr differs"; diff "$2.stderr.n" "$3.stderr.n" | head -5 >&2 || true; }
}
tree_sum() { (cd "$1" && find . -type f | sort | xargs sha256sum); }

for app in Coverage DebugLines.Portable DebugLines.Embedded; do
  dll="$bin/$app.dll"
  before=$(tree_sum "$bin")
  capture "$work/$app.orig" "$bin" dotnet "$app.dll"
  # Offline.
  off="$work/off/$app"
  mkdir -p "$off/hits"
  cp "$bin/$app.runtimeconfig.json" "$off/"
  "$TOOL" "$dll" -o "$off/$app.dll" --mode coverage > "$work/$app.instrument.log" 2>&1 ||
    { fail "$app: offline coverage failed: $(tail -1 "$work/$app.instrument.log")"; continue; }
  CIL_INSTRUMENT_OUTPUT="$off/hits" capture "$work/$app.off" "$off" dotnet "$app.dll"
  same "$app offline" "$work/$app.orig" "$work/$app.off"
  # At JIT time, on the fixture's own folder.
  jit="$work/jit/$app"
  mkdir -p "$jit"
  capture "$work/$app.jit" "$bin" "$TOOL" run --mode coverage -o "$jit" -- dotnet "$app.dll"
  same "$app at JIT time" "$work/$app.orig" "$work/$app.jit"
  [ "$(tree_sum "$bin")" = "$before" ] || fail "$app: the fixture's folder changed"
  name=${app%%.*}
  offline_hits=("$off"/hits/"$name".*.hits.json)
  jit_hits=("$jit"/"$name".*.hits.json)
  [ -f "${offline_hits[0]}" ] && [ ${#offline_hits[@]} = 1 ] || { fail "$app: offline: not one hits file: $(ls "$off/hits")"; continue; }
  [ -f "${jit_hits[0]}" ] && [ ${#jit_hits[@]} = 1 ] || { fail "$app: JIT time: not one hits file: $(ls "$jit")"; continue; }
  summary=$(python3 - "${offline_hits[0]}" "${jit_hits[0]}" <<'PY'
import collections, json, sys
def probes(path):
    with open(path) as f:
        d = json.load(f)
    assert d["kind"] == "hits", path
    return collections.Counter((m["token"], m["name"], m["count"]) for m in d["methods"])
a, b = probes(sys.argv[1]), probes(sys.argv[2])
if a != b:
    for k in sorted((a - b).keys())[:5]: print("offline only:", k)
    for k in sorted((b - a).keys())[:5]: print("JIT time only:", k)
    sys.exit(1)
# A probe may describe several entries (runtime_contract.h), one per line of its name.
kinds = collections.Counter(e[0] for k in a.elements() for e in k[1].split("\n"))
hit = sum(1 for k in a.elements() if k[2] > 0)
print(f"{sum(a.values())} probes for {kinds['M']} methods, {kinds['L']} lines, {kinds['B']} branch outcomes, {hit} hit")
PY
) || { fail "$app: the hits differ: $summary"; continue; }
  "$TOOL" report --json "${offline_hits[0]}" | sed -E 's/"mvid": "[^"]*"//' > "$work/$app.off.json"
  "$TOOL" report --json "${jit_hits[0]}" | sed -E 's/"mvid": "[^"]*"//' > "$work/$app.jit.json"
  cmp -s "$work/$app.off.json" "$work/$app.jit.json" || fail "$app: report --json differs between offline and JIT time"
  grep -q ' lines, 0 branch' <<< "$summary" && [ "$app" = Coverage ] && fail "$app: no branch probes"
  grep -q ' 0 lines' <<< "$summary" && fail "$app: no line probes"
  echo "ok   $app: $summary; the same offline and at JIT time"
done

echo "== run --hit-counts: the exact counts of the hand-written expectation, at JIT time"
mkdir -p "$work/counts"
capture "$work/counts" "$bin" "$TOOL" run --mode coverage --hit-counts -o "$work/counts" -- dotnet Coverage.dll
same "Coverage with --hit-counts" "$work/Coverage.orig" "$work/counts"
"$TOOL" report "$work"/counts/Coverage.*.hits.json --lcov "$work/counts.info" > /dev/null || fail "run --hit-counts: report failed"
# As coverage_test.sh reads LCOV: FILE:LINE HITS [TAKEN/OUTCOMES]; the profiler covers SkipMe's
# method too (no --exclude-by-attribute at JIT time), so its lines are left out of the comparison.
awk 'BEGIN { FS = "[:,]" }
     /^SF:/ { n = split($0, parts, "/"); file = parts[n] }
     /^DA:/ { hits[file ":" $2] = $3 }
     /^BRDA:/ { total[file ":" $2]++; if ($5 > 0) taken[file ":" $2]++ }
     END { for (k in hits) print k, hits[k] (k in total ? " " (taken[k] + 0) "/" total[k] : "") }' "$work/counts.info" |
  sort -t: -k1,1 -k2,2n > "$work/counts.lines"
grep -v '^#' "$ROOT/testdata/expected/Coverage.lines" | while read -r key rest; do
  grep -qx "$key $rest" "$work/counts.lines" || echo "$key: expected $rest, got $(grep "^$key " "$work/counts.lines" | cut -d' ' -f2-)"
done > "$work/counts.diff"
[ -s "$work/counts.diff" ] && fail "run --hit-counts: not the expected counts: $(head -3 "$work/counts.diff")"
echo "ok   run --hit-counts: $(grep -vc '^#' "$ROOT/testdata/expected/Coverage.lines") lines with the expected counts"

echo "== another build's PDB: one warning and method-level coverage, the same at JIT time as offline"
stale="$work/stale"
mkdir -p "$stale/jit" "$stale/off"
cp "$bin/Coverage.dll" "$bin/Coverage.runtimeconfig.json" "$stale/"
cp "$bin/DebugLines.Portable.pdb" "$stale/Coverage.pdb"
capture "$work/stale.jit" "$stale" "$TOOL" run --mode coverage -o "$stale/jit" -- dotnet Coverage.dll
grep -q "Coverage.pdb does not match the assembly.*; method-level coverage for this module" "$stale"/jit/cil-instrument.*.log 2> /dev/null ||
  fail "stale PDB at JIT time: no warning: $(cat "$stale"/jit/cil-instrument.*.log 2>&1 | head -2)"
"$TOOL" "$stale/Coverage.dll" -o "$stale/off/Coverage.dll" --mode coverage > /dev/null 2>&1 || fail "stale PDB offline: instrument failed"
cp "$bin/Coverage.runtimeconfig.json" "$stale/off/"
(cd "$stale/off" && CIL_INSTRUMENT_OUTPUT="$stale/off" timeout 120 dotnet Coverage.dll > /dev/null 2>&1) || fail "stale PDB offline: the run failed"
python3 - "$stale"/off/Coverage.*.hits.json "$stale"/jit/Coverage.*.hits.json <<'PY' || fail "stale PDB: the hits differ, or are not method-level"
import json, sys
a, b = (sorted((m["name"], m["count"]) for m in json.load(open(p))["methods"]) for p in sys.argv[1:3])
sys.exit(0 if a == b and a and all(n.startswith("M\t") for n, _ in a) else 1)
PY
echo "ok   stale PDB: a warning, method entries only, offline and at JIT time alike"

echo "== a module without a PDB: not covered, runs as before"
capture "$work/nopdb.orig" "$bin" dotnet Exceptions.dll
mkdir -p "$work/nopdb"
capture "$work/nopdb.jit" "$bin" "$TOOL" run --mode coverage -o "$work/nopdb" -- dotnet Exceptions.dll
same "Exceptions at JIT time" "$work/nopdb.orig" "$work/nopdb.jit"
grep -q "no files written" "$work/nopdb.jit.stderr" || fail "Exceptions.dll: run did not say that nothing was written"
ls "$work/nopdb"/*.hits.json > /dev/null 2>&1 && fail "Exceptions.dll (no PDB) got a hits file: $(ls "$work/nopdb")"
echo "ok   Exceptions.dll: exit $(cat "$work/nopdb.jit.status"), no hits file"
finish
