#!/usr/bin/env bash
# Input validation before writing (issue 36): a fault of the input is refused as the input's, never
# written and never reported as the tool's (exit 7, the self-check's "internal error").
#  - Truncations: fixture assemblies of each kind (csc, with an embedded PDB, mcs, signed) cut at
#    50 offsets spread over their length. instrument refuses each with exit status 3 and one error
#    line naming the file, the structure and the offset, and leaves no output file (before the
#    fix, a cut past the metadata was written with its new section over the cut sections, and the
#    runtime refused it). The lines are kept in tests/golden/truncated.txt. Every fixture's 50
#    cuts are refused in process by the unit test InputValidation (a process per cut here would
#    take minutes).
#  - PDB mutants (tests/scripts/make_broken_pdb.py, DebugLines.Portable with its PdbChecksum
#    renewed so that the defect reaches the reader): indexes past the PDB's tables, coded
#    indexes naming no row, lists going back, the wrong blob as sequence points, seeded byte
#    changes. Each gives exit status 0, at most one line on stderr (a warning naming the input),
#    and an output; when the PDB was refused the output names no PDB and none is written, and the
#    named defects' outputs run on dotnet as the original does (stack traces without their lines).
#    The outcomes are kept in tests/golden/broken_pdb.txt.
# The assembly mutants of the other examples of the issue (lists past their tables, a coded index
# and a body token naming no row) are in make_broken.py, through broken_files_test.sh.
#   tests/scripts/input_validation_test.sh [TOOL]        (CIL_REGEN=1 rewrites the golden files)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$ROOT/testdata/bin"
mkdir -p "$work/cut" "$work/out"

# run ARGS...: the tool under a time limit, stdout and stderr kept.
run() {
  set +e
  timeout 30 "$TOOL" "$@" > "$work/stdout" 2> "$work/stderr"
  rc=$?
  set -e
}

echo "== truncations"
truncated="$work/truncated.txt"
: > "$truncated"
cuts=0
while IFS= read -r fixture; do
  size=$(stat -c %s "$fixture")
  rel=${fixture#"$bin"/}
  for k in $(seq 1 50); do
    at=$((size * k / 51))
    cut="$work/cut/cut.dll"
    head -c "$at" "$fixture" > "$cut"
    out="$work/out/cut.dll"
    run "$cut" -o "$out" --mode count
    cuts=$((cuts + 1))
    what="$rel cut at $at of $size"
    [ "$rc" = 3 ] || fail "$what: exit status $rc, not 3: $(head -c 300 "$work/stderr")"
    [ "$(wc -l < "$work/stderr")" = 1 ] || fail "$what: $(wc -l < "$work/stderr") lines on stderr"
    grep -qE "^cil-instrument: error: $cut: [^:]+.*: .* \(offset 0x[0-9a-f]+\)$" "$work/stderr" ||
      fail "$what: the error does not name the file, a structure and an offset: $(head -c 300 "$work/stderr")"
    [ -z "$(ls -A "$work/out")" ] || fail "$what: left $(ls "$work/out") behind"
    rm -f "$work/out"/*
    echo "$rel@$at: exit $rc: $(sed "s|$work/cut/||g" "$work/stderr")" >> "$truncated"
  done
done < <(printf "$bin/%s\n" Exceptions.dll debug/DebugLines.Embedded.dll mono/MonoGenerics.exe signed/Signed.dll)
check_golden truncated.txt "$truncated"
echo "$cuts cuts refused"

echo "== PDB mutants"
python3 "$ROOT/tests/scripts/make_broken_pdb.py" "$bin/debug/DebugLines.Portable.dll" "$bin/debug/DebugLines.Portable.pdb" "$work/pdb"
expected="$work/expected.stdout"
# Without the PDB, the same traces without their file and line.
sed 's/ in [^ ]*:line [0-9]*$//' "$ROOT/testdata/expected/DebugLines.stdout" > "$expected"
summary="$work/broken_pdb.txt"
: > "$summary"
runs=0
for f in "$work"/pdb/*.dll; do
  name=$(basename "$f" .dll)
  out="$work/out/$name.dll"
  run "$f" -o "$out" --mode count
  what="PDB mutant $name"
  [ "$rc" = 0 ] || fail "$what: exit status $rc: $(head -c 300 "$work/stderr")"
  [ "$(wc -l < "$work/stderr")" -le 1 ] || fail "$what: $(wc -l < "$work/stderr") lines on stderr"
  [ ! -s "$work/stderr" ] || grep -q "^cil-instrument: warning: $f: " "$work/stderr" || fail "$what: the line is not a warning naming the input"
  if [ "$rc" = 0 ]; then
    [ -s "$out" ] || fail "$what: no output"
    if grep -q "no longer names a PDB" "$work/stderr"; then
      [ ! -e "$work/out/$name.pdb" ] || fail "$what: the PDB was refused, yet $name.pdb was written"
      if [[ $name != random-* ]] && [ "${CIL_SANITIZED:-0}" != 1 ]; then
        cp "$bin/debug/DebugLines.Portable.runtimeconfig.json" "$work/out/$name.runtimeconfig.json"
        set +e
        (cd "$work/out" && timeout 120 dotnet "$name.dll" > "$work/run.out" 2> "$work/run.err")
        status=$?
        set -e
        runs=$((runs + 1))
        if [ "$status" != 0 ]; then
          fail "$what: the output exits with $status on dotnet: $(head -3 "$work/run.err")"
        elif ! cmp -s "$expected" "$work/run.out"; then
          fail "$what: the output does not run as the original:"
          diff "$expected" "$work/run.out" | head -8 >&2 || true
        fi
      fi
    fi
  fi
  rm -rf "${work:?}/out"/*
  echo "$name: exit $rc: $(sed "s|$work/pdb/||g" "$work/stderr")" >> "$summary"
done
check_golden broken_pdb.txt "$summary"
echo "$(ls "$work"/pdb/*.dll | wc -l) PDB mutants, $(grep -c 'no longer names a PDB' "$summary") refused with a warning, $runs run on dotnet"
finish
