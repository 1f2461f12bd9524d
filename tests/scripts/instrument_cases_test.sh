#!/usr/bin/env bash
# The instrument command's promises on particular inputs and failures: refusals (instrumented
# twice, mixed-mode, native entry point) with one line and no output; a ReadyToRun, strong-name
# signed input becomes an IL-only, unsigned output with warnings; the debug directory and the
# resources survive; the --json summary; unreadable inputs and unwritable outputs.
#   tests/scripts/instrument_cases_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$ROOT/testdata/bin"

# expect STATUS LABEL ARGS...: runs the tool, requires the exit status, one error line at most.
expect() {
  local want=$1 label=$2
  shift 2
  set +e
  "$TOOL" "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  set -e
  [ "$rc" -eq "$want" ] || fail "$label: exit status $rc, expected $want: $(head -2 "$work/err")"
}

echo "== refusals"
"$TOOL" "$bin/Basics.dll" -o "$work/once.dll" > /dev/null
expect 5 "instrumenting twice" "$work/once.dll" -o "$work/twice.dll"
grep -q "already instrumented" "$work/err" || fail "instrumenting twice: $(cat "$work/err")"
[ -e "$work/twice.dll" ] && fail "instrumenting twice left an output"
if [ -d "$CORPUS" ]; then
  for f in asmresolver/MixedModeHelloWorld.x64.exe cecil/cppcli.dll; do
    expect 5 "$f" "$CORPUS/$f" -o "$work/mixed.dll"
    [ "$(wc -l < "$work/err")" -eq 1 ] || fail "$f: expected one error line"
    grep -q "mixed-mode" "$work/err" || fail "$f: $(cat "$work/err")"
    [ -e "$work/mixed.dll" ] && fail "$f: a refused input left an output"
  done
fi

echo "== ReadyToRun and strong-name signed input"
console="$(framework_dir)/System.Console.dll"
expect 0 "System.Console" "$console" -o "$work/Console.dll"
grep -q "ReadyToRun code removed" "$work/err" || fail "no ReadyToRun warning"
grep -q "strong-name signed" "$work/err" || fail "no strong-name warning"
"$TOOL" info "$work/Console.dll" > "$work/info"
grep -q "flags: .*(ILONLY)$" "$work/info" || fail "the output is not plain ILONLY: $(grep 'flags:' "$work/info")"
grep -q "ReadyToRun: *no" "$work/info" || fail "the output still has a ReadyToRun header"
grep -q "machine: *0x8664 (amd64)" "$work/info" || fail "machine not restored: $(grep 'machine:' "$work/info")"
for dir in exception basereloc security; do
  grep -q "^  $dir " "$work/info" && fail "the output still has a $dir directory"
done
"$TOOL" info "$console" | has "STRONGNAMESIGNED" || fail "the input should be signed"

echo "== debug directory entries that name no PDB, and resources, survive (PDBs: pdb_test.sh)"
for f in DebugInfo.Embedded.dll DebugInfo.Portable.dll Basics.dll; do
  "$TOOL" "$bin/$f" -o "$work/$f" > /dev/null 2>&1
  for file in "$bin/$f" "$work/$f"; do
    "$TOOL" info "$file" | sed -n '/^Debug directory/,/^$/p; /resources:/p' | grep -v -E '^  (CodeView|PdbChecksum|EmbeddedPortablePdb) ' > "$file.kept.txt"
  done
  cmp -s "$bin/$f.kept.txt" "$work/$f.kept.txt" || { fail "$f: debug directory or resources changed"; diff "$bin/$f.kept.txt" "$work/$f.kept.txt" >&2; }
  rm -f "$bin/$f.kept.txt"
  [ -s "$work/$f.kept.txt" ] || fail "$f: nothing to compare"
done
cp "$bin/DebugInfo.Portable.runtimeconfig.json" "$work/"
(cd "$work" && dotnet DebugInfo.Portable.dll > /dev/null) || fail "DebugInfo.Portable.dll does not run"

echo "== the JSON summary"
"$TOOL" "$bin/Exceptions.dll" -o "$work/x.dll" --json > "$work/summary.json"
python3 - "$work/summary.json" <<'PY' || fail "bad --json summary"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["mode"] == "count" and s["instrumented"] == len(s["instrumentedMethods"]) > 0, s
assert all(m["token"].startswith("0x06") and "::" in m["name"] for m in s["instrumentedMethods"])
assert isinstance(s["milliseconds"], int) and s["excluded"] == 0
PY

echo "== selection: --include, --exclude, --method-rva, skip reasons; dump --method"
sel="$bin/Selection.dll"
selection="$work/selection.txt"
: > "$selection"
summarize() {  # summarize ARGS...: the --json summary of instrumenting Selection.dll with ARGS
  echo "\$ cil-instrument Selection.dll -o OUT $*" >> "$selection"
  "$TOOL" "$sel" -o "$work/sel.dll" --json "$@" | python3 -c '
import json, sys
s = json.load(sys.stdin)
for m in s["instrumentedMethods"]: print("  instrumented", m["token"], m["name"])
for m in s["skipped"]: print("  skipped", m["token"], m["name"] + ":", m["reason"])
print("  excluded by the filters:", s["excluded"])' >> "$selection" || fail "selection $*"
}
summarize
summarize --include 'Selection.Alpha.*'
summarize --include 'Selection.*' --exclude '*::Area' --exclude 'Selection.Alpha.Square/*'
summarize --include '*/Unit::*'
twice_rva=$("$TOOL" dump --json "$sel" | python3 -c '
import json, sys
print(hex(next(m["rva"] for m in json.load(sys.stdin)["methods"] if m["name"].endswith("::Twice"))))')
echo "(Tools::Twice is at RVA $twice_rva)" >> "$selection"
summarize --method-rva "$twice_rva"
summarize --method-rva "$twice_rva" --include '*::Make'
for pattern in 'Selection.Beta.*' '*/Unit::Make'; do
  echo "\$ cil-instrument dump Selection.dll --method '$pattern'" >> "$selection"
  "$TOOL" dump "$sel" --method "$pattern" >> "$selection" || fail "dump --method $pattern"
done
check_golden instrument/selection.txt "$selection"

echo "== the shapes the rewrite engine produces (wrap mode), as dump shows them"
# ret -> stloc + leave to one exit block; try/catch (rethrow) and try/finally after the existing
# clauses; tail. removed inside the new try; the result local appended to the existing locals
# (a new StandAloneSig row); in a constructor, the protected region starts after the base call.
shapes="$work/shapes.txt"
: > "$shapes"
for spec in "il/IlOps.exe:*::SumTail" "Basics.dll:Fixtures.Dog::.ctor" "Exceptions.dll:*::Classify"; do
  f="$bin/${spec%%:*}"
  pattern=${spec#*:}
  "$TOOL" "$f" -o "$work/shape.${f##*.}" --mode wrap --include "$pattern" > /dev/null || fail "wrap $spec"
  for which in "$f" "$work/shape.${f##*.}"; do
    echo "\$ cil-instrument dump $([ "$which" = "$f" ] && echo "${spec%%:*}" || echo "WRAPPED") --method '$pattern'" >> "$shapes"
    "$TOOL" dump "$which" --method "$pattern" | grep -v '^// assembly' >> "$shapes"
  done
done
check_golden instrument/wrap-shapes.txt "$shapes"

echo "== failures"
expect 3 "missing input" "$work/nope.dll" -o "$work/nope.out"
grep -q "^cil-instrument: error: $work/nope.dll: " "$work/err" || fail "missing input: $(cat "$work/err")"
mkdir -p "$work/ro" && chmod 0555 "$work/ro"
if [ "$(id -u)" -ne 0 ]; then
  expect 4 "unwritable output" "$bin/Basics.dll" -o "$work/ro/Basics.dll"
  [ -z "$(ls -A "$work/ro")" ] || fail "a failed write left files behind: $(ls -A "$work/ro")"
fi
# Missing directories of OUT are made (issue 36), as folder mode makes OUTDIR.
expect 0 "output in a missing directory" "$bin/Basics.dll" -o "$work/missing/dir/Basics.dll"
[ -f "$work/missing/dir/Basics.dll" ] || fail "output in a missing directory: not written"
# A directory that cannot be made (a file is in its way): the first write fails inside the job
# (the new bodies stream to the output as they are made); the error still names the output.
: > "$work/in-the-way"
expect 4 "output under a file" "$bin/Basics.dll" -o "$work/in-the-way/dir/Basics.dll"
[ "$(wc -l < "$work/err")" -eq 1 ] || fail "output under a file: expected one error line: $(cat "$work/err")"
grep -q "^cil-instrument: error: $work/in-the-way/dir/Basics.dll: " "$work/err" ||
  fail "output under a file: the error does not name the output: $(cat "$work/err")"
expect 2 "output is the input" "$bin/Basics.dll" -o "$bin/Basics.dll"
expect 2 "no output" "$bin/Basics.dll"
expect 2 "unknown mode" "$bin/Basics.dll" -o "$work/m.dll" --mode fast
expect 2 "bad RVA" "$bin/Basics.dll" -o "$work/m.dll" --method-rva zz
expect 2 "hooks without trace" "$bin/Basics.dll" -o "$work/m.dll" --hooks "$bin/trace/TraceHooks.dll"
finish
