#!/usr/bin/env bash
# The writer against independent readers and its own promises:
#  - every assembly of the .NET shared framework is instrumented (count mode) and the SRM oracle
#    reads each output and agrees with our dump of it;
#  - the output is deterministic (same input and options, same bytes) and the input untouched;
#  - a #Blob heap pushed past 64 KiB (wrap mode on a framework assembly) gets wide indexes that
#    SRM reads;
#  - methods left alone keep byte-identical listings apart from their RVA line;
#  - on Mono inputs, `pedump --verify` finds nothing new (offsets normalised), and does find a
#    probe broken on purpose.
#   tests/scripts/instrument_verify_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fw=$(framework_dir)

echo "== instrument the shared framework"
mkdir -p "$work/fw"
while IFS= read -r f; do
  "$TOOL" "$f" -o "$work/fw/$(basename "$f")" > "$work/log" 2>&1 || fail "instrument $f: $(tail -1 "$work/log")"
done < <(framework_dlls)
ls "$work"/fw/*.dll > "$work/list"
echo "$(wc -l < "$work/list") assemblies instrumented"
# Under the sanitizers the writer's run over the framework is what counts; the oracle's verdict
# (C#, the same outputs: identity checks they are the same bytes) is the plain pass's.
if [ "${CIL_SANITIZED:-0}" = 1 ]; then
  echo "the SRM comparison is left to the plain pass"
else
  srm_compare "the SRM oracle disagrees with our reading of the instrumented framework" --list "$work/list"
fi

echo "== determinism and an untouched input"
corelib="$fw/System.Private.CoreLib.dll"
sum_before=$(sha256sum < "$corelib")
# Under the sanitizers the second run of CoreLib would repeat the first one's memory checks.
if [ "${CIL_SANITIZED:-0}" != 1 ]; then
  "$TOOL" "$corelib" -o "$work/again.dll" > /dev/null 2>&1
  cmp -s "$work/again.dll" "$work/fw/System.Private.CoreLib.dll" || fail "instrumenting CoreLib twice gave different bytes"
fi
[ "$(sha256sum < "$corelib")" = "$sum_before" ] || fail "the input changed"
"$TOOL" "$ROOT/testdata/bin/Exceptions.dll" -o "$work/x1.dll" --mode wrap > /dev/null
"$TOOL" "$ROOT/testdata/bin/Exceptions.dll" -o "$work/x2.dll" --mode wrap > /dev/null
cmp -s "$work/x1.dll" "$work/x2.dll" || fail "wrap mode is not deterministic"

echo "== a heap that crosses 64 KiB: index widths recomputed"
# wrap mode adds a locals signature per method, so a #Blob heap just under 64 KiB grows past it
# and every blob index in the tables stream becomes 4 bytes wide (HeapSizes bit 0x04).
heap_state() {  # heap_state FILE: "<#Blob size> <HeapSizes>"
  "$TOOL" info --json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)["metadata"]
print(next(s["size"] for s in d["streams"] if s["name"] == "#Blob"), d["heapSizes"])'
}
# The candidates (a #Blob heap of 50,000 to 65,535 bytes, narrow indexes), found by one python
# run over every file's info (a python start per file cost more than the search itself).
candidates=$(python3 - "$TOOL" "$fw"/*.dll <<'PY'
import json, subprocess, sys
for f in sys.argv[2:]:
    r = subprocess.run([sys.argv[1], "info", "--json", f], capture_output=True)
    if r.returncode != 0:
        continue
    d = json.loads(r.stdout)["metadata"]
    size = next(s["size"] for s in d["streams"] if s["name"] == "#Blob")
    if 50000 <= size < 65536 and int(d["heapSizes"], 0) & 4 == 0:
        print(f, size, d["heapSizes"])
PY
)
crossed=""
while read -r f size flags; do
  [ -n "$f" ] || continue
  "$TOOL" "$f" -o "$work/cross.dll" --mode wrap > /dev/null 2>&1 || continue
  read -r new_size new_flags < <(heap_state "$work/cross.dll")
  if [ "$new_size" -ge 65536 ] && (( (new_flags & 4) != 0 )); then
    crossed=$(basename "$f")
    echo "  $crossed: #Blob $size -> $new_size bytes, HeapSizes $flags -> $new_flags"
    break
  fi
done <<< "$candidates"
if [ -n "$crossed" ]; then
  srm_compare "the SRM oracle disagrees on $crossed with a #Blob heap past 64 KiB" "$work/cross.dll"
else
  fail "no framework assembly's #Blob heap crossed 64 KiB in wrap mode"
fi

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
  # pedump_new FILE [BREAK]: instruments FILE (then breaks its first probe when BREAK is given),
  # runs pedump on both copies, and sets $new to the number of findings only the output has.
  pedump_new() {
    local f=$1 name
    name=$(basename "$f")
    rm -rf "$work/pv" && mkdir -p "$work/pv/orig" "$work/pv/inst"
    cp "$f" "$work/pv/orig/$name"
    "$TOOL" "$f" -o "$work/pv/inst/$name" > /dev/null 2>&1 || { fail "instrument $f"; return 1; }
    [ -z "${2:-}" ] || python3 "$ROOT/tests/scripts/break_probe.py" "$work/pv/inst/$name"
    { pedump --verify all "$work/pv/orig/$name" 2>&1 || true; } | sed "s|$work/pv/orig/||g" | norm > "$work/pv.before"
    { pedump --verify all "$work/pv/inst/$name" 2>&1 || true; } | sed "s|$work/pv/inst/||g" | norm > "$work/pv.after"
    new=$(comm -13 "$work/pv.before" "$work/pv.after" | wc -l)
  }
  for f in "$ROOT"/testdata/bin/mono/*.exe "$ROOT"/testdata/bin/il/*.exe /usr/lib/mono/4.5/mscorlib.dll \
           /usr/lib/mono/4.5/System.dll /usr/lib/mono/4.5/System.Xml.dll /usr/lib/mono/4.5/System.Core.dll; do
    [ -f "$f" ] || continue
    pedump_new "$f" || continue
    echo "$(basename "$f"): $(wc -l < "$work/pv.before") findings before, $new new"
    [ "$new" -eq 0 ] || { fail "pedump finds new problems in $f"; comm -13 "$work/pv.before" "$work/pv.after" | head -5 >&2; }
  done
  # The control: the same comparison must see a broken probe. In the instrumented MonoMisc.exe,
  # the first probe's pop (after ldelema and the call to Interlocked.Increment) becomes a nop,
  # which leaves an int64 on the stack.
  pedump_new "$ROOT/testdata/bin/mono/MonoMisc.exe" break
  echo "control: MonoMisc.exe with a broken probe: $new new findings"
  [ "$new" -gt 0 ] || fail "pedump's before/after comparison does not see a broken probe"
fi
finish
