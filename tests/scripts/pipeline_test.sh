#!/usr/bin/env bash
# Many inputs at once (issue 16): a directory and several files to an output directory that is
# created; -j 1 and -j 2 give the same bytes and the same messages in the same order (the SDK's
# Roslyn bincore folder, 28 assemblies, with --assemblies '*', and testdata/bin, 38 assemblies
# and 31 other files); the instrumented folder runs its program with identical output; the
# default choice leaves framework, reference and native files alone; --json gives one record
# per file; a corrupt DLL, an unreadable file, a read-only output folder and a file that vanishes
# give one clear line each and the rest done; --fail-fast; no command ignores an extra
# positional argument. Messages against tests/golden/pipeline.txt.
#   tests/scripts/pipeline_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
log=$work/log.txt
: > "$log"
# say TITLE, then run the tool: its stdout, stderr and exit status go to the log, with the
# work directory and the closing timing line normalized.
say() { echo "== $1" >> "$log"; }
tool() {
  set +e
  "$TOOL" "$@" > "$work/out.txt" 2> "$work/err.txt"
  local rc=$?
  set -e
  sed -e "s|$work|\$W|g" -e "s|$ROOT|\$ROOT|g" -e 's/ in [0-9]* ms ([0-9.]* files\/s)$/ in T ms (R files\/s)/' "$work/out.txt" "$work/err.txt" >> "$log"
  echo "exit $rc" >> "$log"
}
hashes() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

# 1. testdata/bin: a folder of fixtures with subfolders, runtimeconfig files and PDBs.
cp -r "$ROOT/testdata/bin" "$work/bin"
say "testdata/bin -j 1 (the output directory, two levels deep, is created)"
tool "$work/bin" -o "$work/seq/deeper" -j 1
cp "$work/out.txt" "$work/seq.out"; cp "$work/err.txt" "$work/seq.err"
"$TOOL" "$work/bin" -o "$work/par" -j 2 > "$work/par.out" 2> "$work/par.err"
grep -v ' files: ' "$work/seq.out" > "$work/a"; grep -v ' files: ' "$work/par.out" | sed "s|$work/par|$work/seq/deeper|" > "$work/b"
cmp -s "$work/a" "$work/b" || fail "testdata/bin: -j 2 printed other lines, or in another order, than -j 1"
sed "s|$work/par|$work/seq/deeper|" "$work/par.err" | cmp -s - "$work/seq.err" || fail "testdata/bin: -j 2's warnings differ from -j 1's"
[ "$(hashes "$work/seq/deeper")" = "$(hashes "$work/par")" ] || fail "testdata/bin: -j 1 and -j 2 outputs differ"
[ "$(find "$work/bin" -type f | wc -l)" = "$(find "$work/par" -type f | wc -l)" ] || fail "testdata/bin: the output folder does not have every file"
# Each output equals the single-file command's.
for f in Basics.dll trace/TraceApp.dll DebugInfo.Portable.dll; do
  # The same output path: a standalone PDB is named in the output by its path.
  rm -rf "$work/single" && mkdir -p "$work/single" && mv "$work/par" "$work/par.keep" && mkdir -p "$(dirname "$work/par/$f")"
  "$TOOL" "$work/bin/$f" -o "$work/par/$f" > /dev/null 2>&1
  mv "$work/par" "$work/single/par" && mv "$work/par.keep" "$work/par"
  cmp -s "$work/single/par/$f" "$work/par/$f" || fail "$f: the folder's output differs from the single-file command's"
  if [ -f "$work/par/${f%.dll}.pdb" ]; then cmp -s "$work/single/par/${f%.dll}.pdb" "$work/par/${f%.dll}.pdb" || fail "$f: the PDB differs"; fi
done
# The instrumented folder runs as the original.
mkdir -p "$work/counts"
for app in Basics Generics Exceptions; do
  a=$(cd "$work/bin" && dotnet $app.dll 2>&1; echo "exit $?")
  b=$(cd "$work/par" && CIL_INSTRUMENT_OUTPUT="$work/counts" dotnet $app.dll 2>&1; echo "exit $?")
  [ "$a" = "$b" ] || fail "$app: the instrumented folder's program prints otherwise: $(diff <(echo "$a") <(echo "$b") | head -5)"
done
ls "$work/counts"/Basics.*.counts.json > /dev/null 2>&1 || fail "the instrumented Basics wrote no counts"

say "--json: one record per file"
tool "$work/bin/Basics.dll" "$work/bin/Library.dll" "$work/bin/Basics.runtimeconfig.json" -o "$work/json" --json
python3 - "$work/out.txt" <<'PY' || fail "--json: not one JSON object per line"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 3, lines
for l in lines: json.loads(l)
PY

# 2. Roslyn's bincore folder: Microsoft-signed, so left alone by default and chosen with --assemblies.
sdk=$(dotnet --list-sdks | tail -1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
bincore=$sdk/Roslyn/bincore
if [ -d "$bincore" ]; then
  n=$(find "$bincore" -name '*.dll' | wc -l)
  [ "$n" -ge 25 ] || fail "bincore has only $n assemblies"
  "$TOOL" "$bincore" -o "$work/roslyn-default" > "$work/rd.out" 2>&1 || fail "bincore (default choice) failed"
  grep -q " 0 instrumented, $(find "$bincore" -type f | wc -l) copied unchanged" "$work/rd.out" || fail "bincore: the default choice instrumented framework-signed files: $(tail -1 "$work/rd.out")"
  "$TOOL" "$bincore" -o "$work/roslyn1" --assemblies '*' -j 1 > "$work/r1.out" 2> "$work/r1.err" || fail "bincore -j 1 failed: $(cat "$work/r1.err")"
  "$TOOL" "$bincore" -o "$work/roslyn2" --assemblies '*' -j 2 > "$work/r2.out" 2> "$work/r2.err" || fail "bincore -j 2 failed"
  [ "$(hashes "$work/roslyn1")" = "$(hashes "$work/roslyn2")" ] || fail "bincore: -j 1 and -j 2 outputs differ"
  diff <(grep -v ' files: ' "$work/r1.out" | sed "s|roslyn1|X|") <(grep -v ' files: ' "$work/r2.out" | sed "s|roslyn2|X|") > /dev/null || fail "bincore: messages differ between -j 1 and -j 2"
  m=$(grep -c ': instrumented ' "$work/r1.out")
  [ "$m" -ge 25 ] || fail "bincore: only $m assemblies instrumented"
  cmp -s "$work/r1.err" "$work/r2.err" || fail "bincore: warnings differ between -j 1 and -j 2"
else
  echo "note: no Roslyn bincore folder in the SDK; skipped that part" >&2
fi

# 3. The default choice: framework, reference and native files are copied, not instrumented.
mkdir -p "$work/mixed"
fw=$(framework_dir)
cp "$fw/System.Collections.dll" "$fw/libSystem.Native.so" "$work/mixed/"
ref=$(ls -d "$(dirname "$(dirname "$(dirname "$fw")")")"/packs/Microsoft.NETCore.App.Ref/*/ref/net*/ | tail -1)
cp "$ref/System.Runtime.dll" "$work/mixed/System.Runtime.Ref.dll"
cp "$ROOT/testdata/bin/Basics.dll" "$work/mixed/"
printf 'MZ not really' > "$work/mixed/native.dll"
say "default choice, --json"
tool "$work/mixed" -o "$work/mixed-out" --json
say "--assemblies and --skip-assemblies"
tool "$work/mixed" -o "$work/mixed-out2" --assemblies 'System.*' --skip-assemblies '*.Ref.dll'

# 4. Bad input: a corrupt DLL among good ones, an unreadable file, a read-only output, a vanished file.
mkdir -p "$work/bad"
cp "$ROOT/testdata/bin/Basics.dll" "$ROOT/testdata/bin/Library.dll" "$work/bad/"
head -c 3000 "$ROOT/testdata/bin/Generics.dll" > "$work/bad/Corrupt.dll"
say "a corrupt DLL: one error line, the rest done, the exit status says so"
tool "$work/bad" -o "$work/bad-out" -j 2
[ -f "$work/bad-out/Library.dll" ] && [ -f "$work/bad-out/Basics.dll" ] || fail "corrupt DLL: the good files were not done"
cmp -s "$work/bad/Corrupt.dll" "$work/bad-out/Corrupt.dll" || fail "corrupt DLL: not copied unchanged"
say "--fail-fast"
tool "$work/bad" -o "$work/bad-ff" -j 1 --fail-fast
if [ "$(id -u)" != 0 ]; then
  cp "$ROOT/testdata/bin/Generics.dll" "$work/bad/Unreadable.dll"; chmod 000 "$work/bad/Unreadable.dll"
  say "an unreadable file"
  tool "$work/bad" -o "$work/bad-out3" -j 2
  rm -f "$work/bad/Unreadable.dll"
  mkdir -p "$work/ro"; chmod 555 "$work/ro"
  say "a read-only output folder"
  tool "$work/bad/Basics.dll" "$work/bad/Library.dll" -o "$work/ro" -j 2
  [ -z "$(ls -A "$work/ro")" ] || fail "read-only output: something was written"
  chmod 755 "$work/ro"
fi
say "an input file that does not exist"
tool "$work/bad/Basics.dll" "$work/bad/Missing.dll" -o "$work/missing"
say "the output directory is the input directory"
tool "$work/bad" -o "$work/bad"
say "an output that is a file"
tool "$work/bad/Basics.dll" "$work/bad/Library.dll" -o "$work/bad/Basics.dll"
say "two inputs with the same name"
tool "$work/bad/Basics.dll" "$work/bin/Basics.dll" -o "$work/same"
say "--assemblies with one input file"
tool "$work/bad/Basics.dll" -o "$work/one.dll" --assemblies '*'
say "-j 0"
tool "$work/bad" -o "$work/j0" -j 0
# A file that vanishes while the run goes on: the run says which and finishes the others.
mkdir -p "$work/vanish"
for i in $(seq 1 40); do cp "$ROOT/testdata/bin/Generics.dll" "$work/vanish/G$i.dll"; done
set +e
"$TOOL" "$work/vanish" -o "$work/vanish-out" -j 1 > "$work/v.out" 2> "$work/v.err" &
pid=$!
# Removed once the run has begun writing (the walk has listed it by then), before its turn.
for _ in $(seq 1 20000); do [ -e "$work/vanish-out/G1.dll" ] && break; done
rm -f "$work/vanish/G40.dll"
wait $pid; rc=$?
set -e
if [ -f "$work/vanish-out/G40.dll" ] || grep -q '^39 files' "$work/v.out"; then
  [ $rc = 0 ] || fail "vanishing file: exit $rc though every file listed was done"
  echo "note: the vanishing file was not removed mid-run this time" >&2
else
  [ $rc = 3 ] && grep -q "G40.dll" "$work/v.err" || fail "vanishing file: exit $rc, no line naming it: $(cat "$work/v.err")"
  [ "$(ls "$work/vanish-out" | wc -l)" = 39 ] || fail "vanishing file: the others were not all done"
fi

# 5. No command ignores an extra positional argument.
B=$ROOT/testdata/bin/Basics.dll
say "extra positional arguments"
tool info "$B" "$B"
tool dump "$B" extra
tool report a.json b.json extra-is-a-file-here
tool diff "$B" "$B" "$B"
tool restore

check_golden pipeline.txt "$log"
[ "$FAILURES" -eq 0 ] || exit 1
echo "pipeline: OK"
