#!/usr/bin/env bash
# Debug information after instrumentation, judged by the runtime and by System.Reflection.Metadata:
#  - the DebugLines fixtures (portable and embedded PDB) and DebugInfo, instrumented in every mode,
#    print the original's stack traces (Exception.StackTrace and new StackTrace(true): file and
#    line) on dotnet, and the SRM oracle (tests/oracle, `pdb`) finds each output's PDB to be the
#    original's moved with the code: ids, checksum, sequence points, scopes, async offsets;
#  - the same with a rewrite whose maps are known exactly (cil_pdb_shift: nops at entry), and a
#    control whose PDB is told the wrong map: the oracle and the stack traces must catch it;
#  - a real library (Mono.Cecil from the peer corpus, with its portable PDB) in every mode, and
#    every corpus assembly that names a PDB: a PDB the oracle accepts, or a warning and no claim;
#  - every way to have no usable PDB (none beside the input, broken, another build's, a checksum
#    that does not match, a Windows PDB, a corrupt embedded one, --pdb none) gives a warning (none
#    for --pdb none) and an output that names no PDB; --pdb PATH; usage errors; an unwritable PDB.
#   tests/scripts/pdb_test.sh [TOOL] [SHIFT_TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SHIFT=${2:-$ROOT/build/tests/cil_pdb_shift}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
oracle_dir=${ORACLE_DIR:-$ROOT/build/oracle}
"$ROOT/tests/oracle/build.sh" "$oracle_dir" > /dev/null
bin="$ROOT/testdata/bin"
hooks="$bin/trace/TraceHooks.dll"
expected="$ROOT/testdata/expected/DebugLines.stdout"

# same_run LABEL DIR FILE: FILE run from DIR prints the fixture's expected stdout (lines included).
same_run() {
  local label=$1 dir=$2 file=$3
  local status=0
  # The runs check the runtime's reading of our PDBs; under the sanitizers (where only our C++
  # is of interest) the plain build's pass has made them already.
  [ "${CIL_SANITIZED:-0}" = 1 ] && return 0
  (cd "$dir" && timeout 120 dotnet "$file" > "$work/run.out" 2> "$work/run.err") || status=$?
  if [ "$status" != 0 ]; then
    fail "$label: exit status $status: $(head -3 "$work/run.err")"
  elif ! cmp -s "$expected" "$work/run.out"; then
    fail "$label: the stack traces differ from the original's:"
    diff "$expected" "$work/run.out" | head -8 >&2 || true
  fi
}

# The oracle runs once, at the end, over every check queued (one .NET start, not hundreds).
# queue_oracle EXPECT LABEL ORIGINAL|--none OUTPUT: EXPECT is OK or DIFF; OUTPUT must be unique.
: > "$work/oracle.list"
: > "$work/oracle.expect"
queue_oracle() {
  printf '%s\t%s\n' "$3" "$4" >> "$work/oracle.list"
  printf '%s\t%s\t%s\n' "$1" "$4" "$2" >> "$work/oracle.expect"
}
run_oracle_queue() {
  set +e
  dotnet "$oracle_dir/Oracle.dll" pdb --list "$work/oracle.list" > "$work/oracle.out" 2>&1
  set -e
  local expect output label verdict
  while IFS=$'\t' read -r expect output label; do
    verdict=$(grep -E "^(OK|DIFF) $output( |$)" "$work/oracle.out" | head -1 | cut -d' ' -f1)
    if [ "$verdict" = "$expect" ]; then
      if [ "$expect" = OK ]; then
        echo "ok   $label: $(grep -E "^OK $output( |$)" "$work/oracle.out" | head -1 | sed 's/^[^(]*(//; s/)$//')"
      else
        echo "ok   $label: the oracle objects, as it must"
      fi
    elif [ "$expect" = DIFF ]; then
      fail "$label: the oracle accepts it"
    else
      fail "$label: the oracle says ${verdict:-nothing}:"
      awk -v o="$output" '$0 ~ "^(OK|DIFF) "o {p=1; print; next} /^(OK|DIFF) / {p=0} p' "$work/oracle.out" | head -12 >&2
      grep -E "^[A-Za-z]+Exception|^Unhandled" "$work/oracle.out" | head -3 >&2
    fi
  done < "$work/oracle.expect"
}

echo "== DebugLines and DebugInfo in every mode: the original's stack traces, and the oracle"
for fixture in debug/DebugLines.Portable.dll debug/DebugLines.Embedded.dll DebugInfo.Portable.dll DebugInfo.Embedded.dll; do
  for mode in count noop wrap trace coverage; do
    out="$work/$mode/$(dirname "$fixture")"
    mkdir -p "$out"
    cp "$bin/$(dirname "$fixture")"/*.runtimeconfig.json "$out/"
    args=(--mode "$mode")
    if [ "$mode" = trace ]; then
      args+=(--hooks "$hooks")
      cp "$hooks" "$out/"  # the traced program loads it
    fi
    name=$(basename "$fixture")
    if ! "$TOOL" "$bin/$fixture" -o "$out/$name" "${args[@]}" --json > "$work/summary.json" 2> "$work/err"; then
      fail "$mode $fixture: instrumenting failed: $(cat "$work/err")"
      continue
    fi
    written=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pdb"]["output"] or "")' "$work/summary.json")
    if [ -z "$written" ]; then
      fail "$mode $fixture: no PDB written: $(cat "$work/err")"
      continue
    fi
    [ -s "$work/err" ] && fail "$mode $fixture: warnings: $(cat "$work/err")"
    queue_oracle OK "$mode $fixture" "$bin/$fixture" "$out/$name"
    case $fixture in debug/DebugLines.*) same_run "$mode $fixture" "$out" "$name" ;; esac
  done
done

echo "== nothing rewritten: the same PDB, the same id"
mkdir -p "$work/none"
"$TOOL" "$bin/debug/DebugLines.Portable.dll" -o "$work/none/DebugLines.Portable.dll" --mode noop --include 'Nothing.*' > /dev/null ||
  fail "noop, nothing selected: instrumenting failed"
cmp -s "$bin/debug/DebugLines.Portable.pdb" "$work/none/DebugLines.Portable.pdb" || fail "an unchanged PDB was not written byte for byte"
queue_oracle OK "noop, nothing selected" "$bin/debug/DebugLines.Portable.dll" "$work/none/DebugLines.Portable.dll"

echo "== exact maps of a known rewrite (nops at entry), and a control told the wrong map"
for fixture in DebugLines.Portable.dll DebugLines.Embedded.dll; do
  out="$work/shift"
  mkdir -p "$out" "$out/lie"
  cp "$bin/debug"/*.runtimeconfig.json "$out/"
  cp "$bin/debug"/*.runtimeconfig.json "$out/lie/"
  "$SHIFT" "$bin/debug/$fixture" "$out/$fixture" --nops 16 > /dev/null || { fail "cil_pdb_shift $fixture failed"; continue; }
  queue_oracle OK "16 nops at entry, $fixture" "$bin/debug/$fixture" "$out/$fixture"
  same_run "16 nops at entry, $fixture" "$out" "$fixture"
  "$SHIFT" "$bin/debug/$fixture" "$out/lie/$fixture" --nops 16 --lie 0 > /dev/null || { fail "cil_pdb_shift --lie $fixture failed"; continue; }
  queue_oracle DIFF "control: a PDB told the wrong map, $fixture" "$bin/debug/$fixture" "$out/lie/$fixture"
  if [ "${CIL_SANITIZED:-0}" != 1 ] && (cd "$out/lie" && dotnet "$fixture" 2>&1 | cmp -s "$expected" -); then
    fail "control: a PDB told the wrong map gives the right lines ($fixture)"
  fi
done

if [ -d "$CORPUS" ]; then
  echo "== a real library: Mono.Cecil and its portable PDB, in every mode"
  mkdir -p "$work/cecil"
  for mode in count noop wrap trace coverage; do
    args=(--mode "$mode")
    [ "$mode" = trace ] && args+=(--hooks "$hooks")
    if ! "$TOOL" "$CORPUS/cecil/cecil.dll" -o "$work/cecil/$mode.dll" "${args[@]}" > /dev/null 2> "$work/err"; then
      fail "$mode cecil.dll: $(cat "$work/err")"
      continue
    fi
    [ -f "$work/cecil/$mode.pdb" ] || { fail "$mode cecil.dll: no PDB written: $(cat "$work/err")"; continue; }
    queue_oracle OK "$mode cecil.dll" "$CORPUS/cecil/cecil.dll" "$work/cecil/$mode.dll"
  done

  echo "== every corpus assembly that names a PDB: a PDB the oracle accepts, or a warning and no claim"
  mkdir -p "$work/corpus"
  written=0 refused=0
  while IFS= read -r f; do
    "$TOOL" info "$f" 2> /dev/null | has -E '^  (CodeView|EmbeddedPortablePdb) ' || continue
    out="$work/corpus/$(basename "$f")"
    set +e
    "$TOOL" "$f" -o "$out" --json > "$work/summary.json" 2> "$work/err"
    rc=$?
    set -e
    [ $rc -le 5 ] || { fail "$f: exit status $rc: $(cat "$work/err")"; continue; }
    [ $rc -eq 0 ] || continue  # refused as an assembly: corpus_instrument's business
    pdb=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pdb"]["output"] or "")' "$work/summary.json")
    if [ -n "$pdb" ]; then
      written=$((written + 1))
      queue_oracle OK "corpus $(basename "$f")" "$f" "$out"
    else
      refused=$((refused + 1))
      grep -q "no longer names a PDB" "$work/err" || fail "$f: no PDB written and no warning: $(cat "$work/err")"
      queue_oracle OK "corpus $(basename "$f"), no claim left" --none "$out"
    fi
  done < <(find "$CORPUS" -type f \( -name '*.dll' -o -name '*.exe' \) | sort)
  echo "ok   corpus: $written PDBs rewritten and accepted, $refused assemblies with an unusable PDB left without a claim"
else
  echo "no peer corpus at $CORPUS: the real-library checks skipped"
fi

echo "== no usable PDB: a warning and no claim"
nopdb="$work/nopdb"
mkdir -p "$nopdb"
# expect_none LABEL WARNING INPUT [ARGS...]: instrumenting INPUT warns WARNING (empty: no warning
# at all) and gives an output naming no PDB.
case_number=0
expect_none() {
  local label=$1 warning=$2 input=$3
  shift 3
  case_number=$((case_number + 1))
  local out="$nopdb/case$case_number.dll"
  if ! "$TOOL" "$input" -o "$out" "$@" --json > "$work/summary.json" 2> "$work/err"; then
    fail "$label: exit status $?: $(cat "$work/err")"
    return
  fi
  if [ -z "$warning" ]; then
    [ -s "$work/err" ] && fail "$label: unexpected warning: $(cat "$work/err")"
  else
    grep -q -- "$warning" "$work/err" || fail "$label: no warning '$warning': $(cat "$work/err")"
    [ "$(wc -l < "$work/err")" -eq 1 ] || fail "$label: more than one line on stderr: $(cat "$work/err")"
  fi
  [ -e "${out%.dll}.pdb" ] && fail "$label: a PDB was written"
  queue_oracle OK "$label: no claim left" --none "$out"
  python3 - "$work/summary.json" <<'PY' || fail "$label: bad pdb summary: $(cat "$work/summary.json")"
import json, sys
p = json.load(open(sys.argv[1]))["pdb"]
assert p["output"] is None and p["id"] is None and p["reason"] and p["claimsRemoved"] is True, p
PY
}
lonely="$work/lonely"
mkdir -p "$lonely"
cp "$bin/debug/DebugLines.Portable.dll" "$lonely/"
expect_none "no PDB beside the input" "no PDB found" "$lonely/DebugLines.Portable.dll"
head -c 600 "$bin/debug/DebugLines.Portable.pdb" > "$lonely/DebugLines.Portable.pdb"
expect_none "a truncated PDB" "DebugLines.Portable.pdb: " "$lonely/DebugLines.Portable.dll"
cp "$bin/DebugInfo.Portable.pdb" "$lonely/DebugLines.Portable.pdb"
expect_none "another build's PDB" "does not match the assembly (its id is" "$lonely/DebugLines.Portable.dll"
# The same id, other content: only the PdbChecksum entry can tell.
python3 - "$bin/debug/DebugLines.Portable.pdb" "$lonely/DebugLines.Portable.pdb" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[-1] ^= 0x01  # the last byte of the #Blob heap
open(sys.argv[2], "wb").write(data)
PY
expect_none "a PDB with the right id and the wrong content" "does not match the assembly's PDB checksum" "$lonely/DebugLines.Portable.dll"
printf 'Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0' > "$lonely/DebugLines.Portable.pdb"
head -c 4096 /dev/zero >> "$lonely/DebugLines.Portable.pdb"
expect_none "a Windows PDB beside the input" "is a Windows PDB, which this tool does not read (portable PDBs only)" "$lonely/DebugLines.Portable.dll"
# A CodeView entry of a Windows PDB (its minor version is not 'PM').
python3 - "$bin/debug/DebugLines.Portable.dll" "$lonely/Windows.dll" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
pe = struct.unpack_from("<I", data, 0x3C)[0]
opt = pe + 24
magic = struct.unpack_from("<H", data, opt)[0]
dirs = opt + (96 if magic == 0x10B else 112)
rva, size = struct.unpack_from("<II", data, dirs + 6 * 8)
sections = opt + struct.unpack_from("<H", data, pe + 20)[0]
for i in range(struct.unpack_from("<H", data, pe + 6)[0]):
    vsize, va, raw_size, raw = struct.unpack_from("<IIII", data, sections + 40 * i + 8)
    if va <= rva < va + max(vsize, raw_size):
        at = rva - va + raw
for i in range(size // 28):
    if struct.unpack_from("<I", data, at + 28 * i + 12)[0] == 2:  # CodeView
        struct.pack_into("<HH", data, at + 28 * i + 8, 0, 0)
open(sys.argv[2], "wb").write(data)
PY
expect_none "an assembly that names a Windows PDB" "names a Windows PDB" "$lonely/Windows.dll"
# An embedded PDB whose deflate stream is corrupt.
python3 - "$bin/debug/DebugLines.Embedded.dll" "$lonely/Corrupt.dll" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"MPDB")
for i in range(at + 40, at + 80):
    data[i] ^= 0x5A
open(sys.argv[2], "wb").write(data)
PY
expect_none "a corrupt embedded PDB" "embedded PDB: " "$lonely/Corrupt.dll"
expect_none "--pdb none" "" "$bin/debug/DebugLines.Portable.dll" --pdb none
expect_none "--pdb none, embedded" "" "$bin/debug/DebugLines.Embedded.dll" --pdb none
expect_none "--pdb naming no file" "cannot" "$bin/debug/DebugLines.Portable.dll" --pdb "$work/missing.pdb"

echo "== --pdb PATH"
cp "$bin/debug/DebugLines.Portable.pdb" "$work/elsewhere.pdb"
mkdir -p "$work/named"
"$TOOL" "$lonely/DebugLines.Portable.dll" -o "$work/named/Named.dll" --pdb "$work/elsewhere.pdb" > /dev/null 2> "$work/err" ||
  fail "--pdb PATH: $(cat "$work/err")"
# Named.pdb is the name the output's CodeView entry gives (and so the runtime looks for).
[ -f "$work/named/Named.pdb" ] || fail "--pdb PATH: no Named.pdb beside the output: $(cat "$work/err")"
[ -f "$work/named/Named.pdb" ] && queue_oracle OK "--pdb PATH" "$bin/debug/DebugLines.Portable.dll" "$work/named/Named.dll"
"$TOOL" "$bin/debug/DebugLines.Embedded.dll" -o "$work/named/Embedded.dll" --pdb "$work/elsewhere.pdb" > /dev/null 2> "$work/err" ||
  fail "--pdb PATH on an embedded PDB: $(cat "$work/err")"
grep -q "not used: the assembly embeds its PDB" "$work/err" || fail "--pdb PATH on an embedded PDB: no warning: $(cat "$work/err")"
[ -e "$work/named/Embedded.pdb" ] && fail "--pdb PATH on an embedded PDB wrote a standalone PDB"

echo "== usage errors and an unwritable PDB"
set +e
"$TOOL" "$bin/debug/DebugLines.Portable.dll" -o "$work/elsewhere.dll" --pdb "$work/elsewhere.pdb" > /dev/null 2> "$work/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "--pdb naming the output's PDB: exit status $rc, not 2"
grep -q "must not be the input's" "$work/err" || fail "--pdb naming the output's PDB: $(cat "$work/err")"
mkdir -p "$work/blocked/Blocked.pdb"
set +e
"$TOOL" "$bin/debug/DebugLines.Portable.dll" -o "$work/blocked/Blocked.dll" --mode noop --include 'Nothing.*' > /dev/null 2> "$work/err"
rc=$?
set -e
[ $rc -eq 4 ] || fail "an unwritable PDB: exit status $rc, not 4: $(cat "$work/err")"
[ "$(wc -l < "$work/err")" -eq 1 ] || fail "an unwritable PDB: not one line: $(cat "$work/err")"
[ -e "$work/blocked/Blocked.dll" ] && fail "an unwritable PDB: the assembly was written anyway"
ls "$work/blocked" | has -v '^Blocked.pdb$' && fail "an unwritable PDB: files left behind: $(ls "$work/blocked")"

echo "== the SRM oracle on every output above"
run_oracle_queue
finish
