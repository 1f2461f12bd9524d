#!/usr/bin/env bash
# Strong names and the self-check of instrument outputs (issue 14):
#  - --key re-signs fixtures signed with committed test keys (1024 and 2048 bits, C# and mcs, with
#    a standalone PDB): `sn -v` says each output is valid, dotnet and mono run it with the
#    original's output and exit status, `sn -R` with the same key gives the same bytes, and a
#    second run gives the same bytes;
#  - a mismatched key, a public key without --delay-sign and an unsigned input are refused in one
#    line before anything is written (tests/golden/signing/refusals.txt);
#  - --delay-sign leaves the flag set and the signature space zero; `sn -R` then signs it;
#  - outputs broken on purpose (CIL_INSTRUMENT_TEST_BREAK_OUTPUT, test-only) fail the self-check:
#    exit 7, one line (tests/golden/signing/self_check.txt), no output, no PDB, no temporary
#    file; with --no-verify the same broken output is written; --json says whether it ran.
#   tests/scripts/signing_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v sn > /dev/null || { echo "sn (mono-utils) not found" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
signed="$ROOT/testdata/bin/signed"
keys="$ROOT/testdata/keys"
cd "$work"

# signature_zero FILE: true when the strong-name signature space of FILE holds only zeros.
signature_zero() {
  python3 - "$1" << 'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
pe = struct.unpack_from('<I', d, 0x3c)[0]
opt = struct.unpack_from('<H', d, pe + 20)[0]
magic = struct.unpack_from('<H', d, pe + 24)[0]
dirs = pe + 24 + (96 if magic == 0x10b else 112)
secs = [struct.unpack_from('<IIII', d, pe + 24 + opt + 40 * i + 8) for i in range(struct.unpack_from('<H', d, pe + 6)[0])]
def off(rva):
    for vsize, va, rsize, raw in secs:
        if va <= rva < va + max(vsize, rsize):
            return rva - va + raw
cli = off(struct.unpack_from('<I', d, dirs + 14 * 8)[0])
rva, size = struct.unpack_from('<II', d, cli + 32)
sys.exit(0 if size and not any(d[off(rva):off(rva) + size]) else 1)
EOF
}

echo "== --key: sn -v, the runtime, sn -R, determinism"
checked=0
for spec in "Signed.dll Test.snk dotnet" "Signed.Key2048.dll Test2048.snk dotnet" "mono/Signed.exe Test.snk mono" \
            "Signed.Portable.dll Test.snk dotnet"; do
  read -r input key runtime <<< "$spec"
  name=$(basename "$input")
  cp "$signed/$input" "$work/$name"
  [ "$runtime" = dotnet ] && cp "$signed/${input%.*}.runtimeconfig.json" "$work/"
  [ -f "$signed/${input%.*}.pdb" ] && cp "$signed/${input%.*}.pdb" "$work/"
  set +e
  expected=$("$runtime" "$work/$name" 2>&1)
  expected_rc=$?
  set -e
  for mode in count wrap; do
    out="$work/out/$mode/$name"
    mkdir -p "$(dirname "$out")"
    [ "$runtime" = dotnet ] && cp "$work/${name%.*}.runtimeconfig.json" "$(dirname "$out")/"
    "$TOOL" "$work/$name" -o "$out" --mode "$mode" --key "$keys/$key" > "$work/log" 2>&1 || { fail "$name $mode --key: $(cat "$work/log")"; continue; }
    grep -q "strong name: signed" "$work/log" || fail "$name $mode: the summary does not say it was signed"
    sn -q -v "$out" > /dev/null 2>&1 || fail "$name $mode: sn -v says the signature is not valid: $(sn -v "$out" 2>&1 | tail -1)"
    set +e
    actual=$("$runtime" "$out" 2>&1)
    rc=$?
    set -e
    [ "$rc" = "$expected_rc" ] && [ "$actual" = "$expected" ] || fail "$name $mode on $runtime: exit $rc, printed '$actual' (the original: exit $expected_rc, '$expected')"
    cp "$out" "$work/resigned"
    sn -q -R "$work/resigned" "$keys/$key" > /dev/null 2>&1 || fail "$name $mode: sn -R failed"
    cmp -s "$work/resigned" "$out" || fail "$name $mode: sn -R with the same key changes the bytes ($(cmp "$work/resigned" "$out" | head -1))"
    # The same file name: the CodeView entry names the output's PDB.
    mkdir -p "$work/again"
    "$TOOL" "$work/$name" -o "$work/again/$name" --mode "$mode" --key "$keys/$key" > /dev/null 2>&1
    cmp -s "$work/again/$name" "$out" || fail "$name $mode: two runs with the same key give different bytes"
    rm -rf "$work/again"
    checked=$((checked + 1))
  done
done
[ -f "$work/out/count/Signed.Portable.pdb" ] || fail "Signed.Portable.dll: no PDB was written beside the signed output"
echo "$checked signed outputs valid, run alike, equal to sn -R's and deterministic"

echo "== refusals, before anything is written"
: > "$work/refusals.txt"
refuse() {
  local expected=$1 label=$2
  shift 2
  set +e
  (cd "$ROOT" && "$TOOL" "$@" -o "$work/refused.dll") > /dev/null 2> "$work/err"
  local rc=$?
  set -e
  [ "$rc" = "$expected" ] || fail "$label: exit $rc, expected $expected ($(cat "$work/err"))"
  [ "$(wc -l < "$work/err")" = 1 ] || fail "$label: not one line on stderr: $(cat "$work/err")"
  [ -e "$work/refused.dll" ] && fail "$label: an output was written"
  ls -a "$work" | has '^\.cil-instrument-' && fail "$label: a temporary file was left"
  { echo "# $label: exit $rc"; sed "s#$work#WORK#g" "$work/err"; } >> "$work/refusals.txt"
}
refuse 2 "a key pair that is not the assembly's" testdata/bin/signed/Signed.dll --key testdata/keys/Other.snk
refuse 2 "a key of another size" testdata/bin/signed/Signed.dll --key testdata/keys/Test2048.snk
refuse 2 "a public key without --delay-sign" testdata/bin/signed/Signed.dll --key testdata/keys/Test.public.snk
refuse 3 "a key file that is not a key" testdata/bin/signed/Signed.dll --key testdata/src/Signed/Program.cs
refuse 3 "a missing key file" testdata/bin/signed/Signed.dll --key testdata/keys/Missing.snk
refuse 5 "an assembly without a strong name" testdata/bin/Basics.dll --key testdata/keys/Test.snk
refuse 5 "--delay-sign on an assembly without a strong name" testdata/bin/Basics.dll --delay-sign
check_golden signing/refusals.txt "$work/refusals.txt"

echo "== --delay-sign"
for spec in "Signed.Delay.dll Test.public.snk" "Signed.dll Test.public.snk" "Signed.dll Test.snk" "Signed.dll -"; do
  read -r input key <<< "$spec"
  args=(--delay-sign)
  [ "$key" != - ] && args+=(--key "$keys/$key")
  out="$work/delay/$input.$key"
  mkdir -p "$work/delay"
  "$TOOL" "$signed/$input" -o "$out" "${args[@]}" > "$work/log" 2>&1 || { fail "$input --delay-sign $key: $(cat "$work/log")"; continue; }
  "$TOOL" info "$out" | has 'STRONGNAMESIGNED' || fail "$input --delay-sign $key: the StrongNameSigned flag is not set"
  signature_zero "$out" || fail "$input --delay-sign $key: the signature space is not zero"
  sn -q -v "$out" > /dev/null 2>&1 && fail "$input --delay-sign $key: sn -v says a delay-signed output is valid"
  sn -q -R "$out" "$keys/Test.snk" > /dev/null 2>&1 || fail "$input --delay-sign $key: sn -R cannot sign it"
  sn -q -v "$out" > /dev/null 2>&1 || fail "$input --delay-sign $key: sn -R then sn -v: not valid"
done
"$TOOL" "$signed/Signed.dll" -o "$work/stripped.dll" > /dev/null 2> "$work/err"
grep -q 'the output is not signed (--key re-signs it)' "$work/err" || fail "without --key, no warning that the signature was dropped"
"$TOOL" info "$work/stripped.dll" | has 'STRONGNAMESIGNED' && fail "without --key, the output still claims to be signed"

echo "== the self-check catches outputs broken on purpose"
: > "$work/self_check.txt"
broken() {
  local what=$1 input=$2
  shift 2
  mkdir -p "$work/broken"
  set +e
  (cd "$ROOT" && CIL_INSTRUMENT_TEST_BREAK_OUTPUT=$what "$TOOL" "$input" -o "$work/broken/out.dll" "$@") > /dev/null 2> "$work/err"
  local rc=$?
  set -e
  [ "$rc" = 7 ] || fail "broken $what: exit $rc, expected 7 ($(cat "$work/err"))"
  [ "$(wc -l < "$work/err")" = 1 ] || fail "broken $what: not one line on stderr: $(cat "$work/err")"
  grep -q '^cil-instrument: internal error: ' "$work/err" || fail "broken $what: not an internal error: $(cat "$work/err")"
  [ -z "$(ls -A "$work/broken")" ] || fail "broken $what: files were left: $(ls -A "$work/broken")"
  { echo "# $what: exit $rc"; sed "s#$work#WORK#g" "$work/err"; } >> "$work/self_check.txt"
}
broken header testdata/bin/Basics.dll
broken table testdata/bin/Basics.dll
broken body testdata/bin/Basics.dll
broken token testdata/bin/Basics.dll
broken body testdata/bin/Basics.dll --mode wrap
broken pdb testdata/bin/signed/Signed.Portable.dll
broken signature testdata/bin/signed/Signed.dll --key testdata/keys/Test.snk
check_golden signing/self_check.txt "$work/self_check.txt"
# --no-verify: the same defect goes through (the check, not the hook, stopped it above).
CIL_INSTRUMENT_TEST_BREAK_OUTPUT=body "$TOOL" "$ROOT/testdata/bin/Basics.dll" -o "$work/unchecked.dll" --no-verify --json > "$work/json" 2> "$work/err" ||
  fail "--no-verify with a broken body: exit $? ($(cat "$work/err"))"
[ -f "$work/unchecked.dll" ] || fail "--no-verify: no output"
grep -q '"selfCheck": *{ *"ran": *false' "$work/json" || python3 -c "import json,sys; sys.exit(json.load(open('$work/json'))['selfCheck']['ran'] is not False)" ||
  fail "--no-verify: --json does not say the check did not run"
"$TOOL" "$ROOT/testdata/bin/Basics.dll" -o "$work/checked.dll" --json > "$work/json"
python3 -c "import json,sys; c=json.load(open('$work/json'))['selfCheck']; sys.exit(not (c['ran'] and c['bodies'] > 0 and c['tokens'] > 0 and c['tables'] > 5))" ||
  fail "--json does not show the check's work: $(cat "$work/json")"
set +e
CIL_INSTRUMENT_TEST_BREAK_OUTPUT=nonsense "$TOOL" "$ROOT/testdata/bin/Basics.dll" -o "$work/nonsense.dll" > /dev/null 2>&1
rc=$?
set -e
[ "$rc" = 2 ] || fail "an unknown CIL_INSTRUMENT_TEST_BREAK_OUTPUT value: exit $rc, expected 2"

[ "$FAILURES" -eq 0 ] || exit 1
echo "signing: all checks passed"
