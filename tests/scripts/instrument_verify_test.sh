#!/usr/bin/env bash
# The writer against independent readers and its own promises:
#  - every assembly of the .NET shared framework is instrumented (count mode) and the SRM oracle
#    reads each output and agrees with our dump of it;
#  - the output is deterministic (same input and options, same bytes) and the input untouched;
#  - methods left alone keep byte-identical listings apart from their RVA line;
#  - on Mono inputs, `pedump --verify` finds nothing new (offsets normalised).
#   tests/scripts/instrument_verify_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fw=$(framework_dir)

echo "== instrument the shared framework"
mkdir -p "$work/fw"
for f in "$fw"/*.dll; do
  "$TOOL" "$f" -o "$work/fw/$(basename "$f")" > "$work/log" 2>&1 || fail "instrument $f: $(tail -1 "$work/log")"
done
ls "$work"/fw/*.dll > "$work/list"
echo "$(wc -l < "$work/list") assemblies instrumented"
oracle_dir=${ORACLE_DIR:-$ROOT/build/oracle}
"$ROOT/tests/oracle/build.sh" "$oracle_dir" > /dev/null
set +e
report=$(dotnet "$oracle_dir/Oracle.dll" compare --strict --tool "$TOOL" --list "$work/list")
rc=$?
set -e
grep -v '^OK ' <<< "$report" || true
[ $rc -eq 0 ] || fail "the SRM oracle disagrees with our reading of the instrumented framework"

echo "== determinism and an untouched input"
corelib="$fw/System.Private.CoreLib.dll"
sum_before=$(sha256sum < "$corelib")
"$TOOL" "$corelib" -o "$work/again.dll" > /dev/null 2>&1
cmp -s "$work/again.dll" "$work/fw/System.Private.CoreLib.dll" || fail "instrumenting CoreLib twice gave different bytes"
[ "$(sha256sum < "$corelib")" = "$sum_before" ] || fail "the input changed"
"$TOOL" "$ROOT/testdata/bin/Exceptions.dll" -o "$work/x1.dll" --mode wrap > /dev/null
"$TOOL" "$ROOT/testdata/bin/Exceptions.dll" -o "$work/x2.dll" --mode wrap > /dev/null
cmp -s "$work/x1.dll" "$work/x2.dll" || fail "wrap mode is not deterministic"

echo "== listings of methods left alone"
for spec in "Exceptions.dll:*::Main" "Generics.dll:*Box*" "Control.dll:*::Crunch" "mono/MonoMisc.exe:*::M*"; do
  f="$ROOT/testdata/bin/${spec%%:*}"
  pattern=${spec#*:}
  "$TOOL" "$f" -o "$work/part.dll" --include "$pattern" --json > "$work/part.json"
  python3 -c 'import json,sys; [print(m["token"]) for m in json.load(open(sys.argv[1]))["instrumentedMethods"]]' "$work/part.json" > "$work/tokens"
  "$TOOL" dump "$f" > "$work/before.txt"
  "$TOOL" dump "$work/part.dll" > "$work/after.txt"
  python3 "$ROOT/tests/scripts/same_listing.py" "$work/before.txt" "$work/after.txt" "$work/tokens" || fail "listings of $spec"
done

if command -v pedump > /dev/null; then
  echo "== pedump --verify, before and after (Mono inputs)"
  # pedump resolves references next to the file it checks, so both copies sit in directories of
  # their own under the original file name: a plain copy elsewhere already reports differently.
  norm() { sed -E 's/0x[0-9a-fA-F]+/N/g; s/at [0-9a-f]+04x/at N/g' | sort; }
  for f in "$ROOT"/testdata/bin/mono/*.exe "$ROOT"/testdata/bin/il/*.exe /usr/lib/mono/4.5/mscorlib.dll \
           /usr/lib/mono/4.5/System.dll /usr/lib/mono/4.5/System.Xml.dll /usr/lib/mono/4.5/System.Core.dll; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    rm -rf "$work/pv" && mkdir -p "$work/pv/orig" "$work/pv/inst"
    cp "$f" "$work/pv/orig/$name"
    "$TOOL" "$f" -o "$work/pv/inst/$name" > /dev/null 2>&1 || { fail "instrument $f"; continue; }
    { pedump --verify all "$work/pv/orig/$name" 2>&1 || true; } | sed "s|$work/pv/orig/||g" | norm > "$work/pv.before"
    { pedump --verify all "$work/pv/inst/$name" 2>&1 || true; } | sed "s|$work/pv/inst/||g" | norm > "$work/pv.after"
    new=$(comm -13 "$work/pv.before" "$work/pv.after" | wc -l)
    echo "$name: $(wc -l < "$work/pv.before") findings before, $new new"
    [ "$new" -eq 0 ] || { fail "pedump finds new problems in $f"; comm -13 "$work/pv.before" "$work/pv.after" | head -5 >&2; }
  done
fi
finish
