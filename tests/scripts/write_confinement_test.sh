#!/usr/bin/env bash
# Write confinement (issue 36): a path is written only inside the output the user named, never
# over an input (by device and inode: other spellings, hard links, the PDB beside an input),
# never through a symbolic link the user did not name.
# 1. Seeded random input trees (tests/scripts/write_confinement.py): folder mode with the output
#    beside the tree, inside it, around it, relative and absolute; links to files and folders
#    inside and outside, hard links, dangling and looping links; nothing but the planned outputs
#    appears, nowhere but in OUTDIR; refusals change nothing; exec and restore over a twin of
#    each tree leave everything outside it alone, also while the command runs.
# 2. The tester's cases: `in/Calc.dll -> ../lib/Calc.dll`, `App.dll Lib.dll -o .`, `s1/App.dll
#    -o s1/`, `-o App.exe` beside App.dll and App.pdb, report --cobertura/--lcov onto its input.
# 3. Standard input, output and error closed (`<&- >&- 2>&-`) for every command: the files
#    written are byte-identical to a normal run's, the exit status the same, nothing else made.
# 4. `-o out/app.dll` with out/ missing; an OUT name whose PDB name would pass 255 bytes.
# 5. An unreadable input in folder mode: its error line once (the copy after it said it again).
#   tests/scripts/write_confinement_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
bin=$ROOT/testdata/bin
# state DIR: every entry under DIR (links not followed): type, link target, inode, mode, hash.
state() {
  (cd "$1" && find . -printf '%P %y %l %i %m\n' | sort && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# shape DIR: the same without inodes, for trees made by two runs.
shape() {
  (cd "$1" && find . -printf '%P %y %l %m\n' | sort && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

echo "== 1. random trees (folder mode, exec, restore)"
mkdir "$work/trees"
python3 "$ROOT/tests/scripts/write_confinement.py" "$TOOL" "$bin" "$work/trees" 10 || fail "random trees (lines above)"

echo "== 2. the tester's cases"
# The link out of the tree: its output goes at the link's place, inside OUTDIR.
t=$work/t1
mkdir -p "$t/in" "$t/lib"
cp "$bin/Basics.dll" "$t/lib/Calc.dll"
ln -s ../lib/Calc.dll "$t/in/Calc.dll"
before=$(state "$t/lib")
(cd "$t" && "$TOOL" in -o out > "$t/stdout" 2> "$t/stderr") || fail "in/Calc.dll -> ../lib/Calc.dll: exit $?: $(cat "$t/stderr")"
[ "$(state "$t/lib")" = "$before" ] || fail "in/Calc.dll -> ../lib/Calc.dll: lib/ changed"
[ -f "$t/out/Calc.dll" ] && [ ! -L "$t/out/Calc.dll" ] || fail "in/Calc.dll -> ../lib/Calc.dll: out/Calc.dll is not a file"
has -x 'out/Calc.dll: instrumented [0-9]* methods (count mode)' < "$t/stdout" || fail "in/Calc.dll: $(cat "$t/stdout")"

# refused CASE DIR EXPECTED_LINE ARGS...: run in DIR, exit 2, that one line, nothing changed.
refused() {
  local label=$1 dir=$2 line=$3
  shift 3
  local before
  before=$(state "$dir")
  set +e
  (cd "$dir" && "$TOOL" "$@" > "$work/stdout" 2> "$work/stderr")
  local rc=$?
  set -e
  [ "$rc" = 2 ] || fail "$label: exit $rc, not 2"
  # A usage error's hint may follow the line.
  [ "$(grep -vx "Try 'cil-instrument --help'." "$work/stderr")" = "$line" ] || fail "$label: printed '$(cat "$work/stderr")', not '$line'"
  [ "$(state "$dir")" = "$before" ] || fail "$label: something changed"
}
t=$work/t2
mkdir -p "$t/s1"
cp "$bin/Basics.dll" "$t/App.dll"; cp "$bin/Library.dll" "$t/Lib.dll"
cp "$bin/DebugInfo.Portable.dll" "$t/s1/App.dll"; cp "$bin/DebugInfo.Portable.pdb" "$t/s1/App.pdb"
refused "App.dll Lib.dll -o ." "$t" \
  "cil-instrument: error: ./App.dll: is an input of this run (the same file): the inputs are never modified" App.dll Lib.dll -o .
refused "s1/App.dll -o s1/" "$t" \
  "cil-instrument: error: s1/App.dll: is an input of this run (the same file): the inputs are never modified" s1/App.dll -o s1/
refused "s1/App.dll -o $t/s1/ (absolute)" "$t" \
  "cil-instrument: error: $t/s1/App.dll: is an input of this run (the same file): the inputs are never modified" s1/App.dll -o "$t/s1/"
refused "s1/App.dll -o s1/App.exe (App.pdb is the input's)" "$t" \
  "cil-instrument: error: s1/App.pdb: is an input of this run (the same file): the inputs are never modified" s1/App.dll -o s1/App.exe
ln "$t/s1/App.dll" "$t/hard.dll"
refused "s1/App.dll -o hard.dll (a hard link)" "$t" \
  "cil-instrument: error: the output must not be the input: the input is never modified" s1/App.dll -o hard.dll
mkdir "$t/o"; ln "$t/s1/App.dll" "$t/o/App.dll"
refused "s1/App.dll Lib.dll -o o/ (o/App.dll a hard link to the input)" "$t" \
  "cil-instrument: error: o/App.dll: is an input of this run (the same file): the inputs are never modified" s1/App.dll Lib.dll -o o/

# report: an output that is one of its hits files is refused, the file intact.
t=$work/t3
mkdir -p "$t/run"
"$TOOL" "$bin/debug/Coverage.dll" -o "$t/run/Coverage.dll" --mode coverage > /dev/null
cp "$bin/debug/Coverage.runtimeconfig.json" "$t/run/"
(cd "$t/run" && timeout 120 dotnet Coverage.dll > /dev/null 2>&1) || fail "the coverage fixture did not run"
hits=("$t"/run/Coverage.*.hits.json)
if [ -f "${hits[0]}" ]; then
  cp "${hits[0]}" "$t/hits.json"
  ln "$t/hits.json" "$t/hits-hard.json"
  refused "report --cobertura onto its input" "$t" \
    "cil-instrument: error: hits.json: is an input of this run (the same file): the inputs are never modified" report hits.json --cobertura hits.json
  refused "report --lcov onto its input (absolute)" "$t" \
    "cil-instrument: error: $t/hits.json: is an input of this run (the same file): the inputs are never modified" report hits.json --lcov "$t/hits.json"
  refused "report --lcov onto a hard link of its input" "$t" \
    "cil-instrument: error: hits-hard.json: is an input of this run (the same file): the inputs are never modified" report hits.json --lcov hits-hard.json
  refused "report --lcov onto a hits file in a folder given" "$t" \
    "cil-instrument: error: run/${hits[0]##*/}: is an input of this run (the same file): the inputs are never modified" report run --lcov "run/${hits[0]##*/}"
  refused "report --cobertura F --lcov F" "$t" \
    "cil-instrument: error: report: --cobertura x.xml and --lcov x.xml are the same file" report hits.json --cobertura x.xml --lcov x.xml
  (cd "$t" && "$TOOL" report hits.json --cobertura c.xml --lcov l.info > /dev/null) || fail "report to other files failed"
  [ -s "$t/c.xml" ] && [ -s "$t/l.info" ] || fail "report wrote no files"
else
  fail "no hits file from the coverage fixture"
fi

echo "== 3. standard input, output and error closed, for every command"
t=$work/t4
mkdir -p "$t/in/sub"
cp "$bin/Basics.dll" "$bin/Library.dll" "$bin/DebugInfo.Portable.dll" "$bin/DebugInfo.Portable.pdb" "$t/in/"
cp "$bin/Control.dll" "$bin/Basics.runtimeconfig.json" "$t/in/sub/"
cp "$ROOT/tests/data/report/App.1001.counts.json" "$t/"
cp -r "$t/in" "$t/exec"
# both LABEL ARGS...: the command in a copy of $t with its descriptors open (to files) and
# closed; the trees after each must be identical, and so must the exit statuses.
both() {
  local label=$1
  shift
  rm -rf "$work/open" "$work/closed"
  cp -a "$t" "$work/open"; cp -a "$t" "$work/closed"
  set +e
  (cd "$work/open" && "$TOOL" "$@" < /dev/null > "$work/open.stdout" 2> "$work/open.stderr")
  local open_rc=$?
  (cd "$work/closed" && "$TOOL" "$@" <&- >&- 2>&-)
  local closed_rc=$?
  set -e
  [ "$open_rc" = "$closed_rc" ] || fail "$label: exit $closed_rc with the descriptors closed, $open_rc with them open"
  [ "$(shape "$work/open")" = "$(shape "$work/closed")" ] || fail "$label: the files differ with the descriptors closed"
}
both "instrument (one file)" in/Basics.dll -o out/Basics.dll
both "instrument (one file with a PDB)" in/DebugInfo.Portable.dll -o out/D.dll
both "instrument (folder)" in -o out -j 2
both "instrument (folder, JSON)" in -o out --json
both "info" info in/Basics.dll
both "dump" dump in/Basics.dll
both "diff" diff in/Basics.dll in/Library.dll
both "report" report App.1001.counts.json
both "exec" exec exec -- true
both "restore" restore exec

echo "== 4. output names"
t=$work/t5
mkdir -p "$t"
cp "$bin/DebugInfo.Portable.dll" "$bin/DebugInfo.Portable.pdb" "$t/"
(cd "$t" && "$TOOL" DebugInfo.Portable.dll -o new/deeper/App.dll > /dev/null 2> "$t/err") ||
  fail "-o new/deeper/App.dll (folders missing): $(cat "$t/err")"
[ -f "$t/new/deeper/App.dll" ] && [ -f "$t/new/deeper/App.pdb" ] || fail "-o new/deeper/App.dll: not written"
long=$(printf 'L%.0s' $(seq 253))
refused "a 253-byte OUT without an extension, the input with a PDB" "$t" \
  "cil-instrument: error: -o $long: the PDB beside it, $long.pdb, would have a name longer than the file system allows; give a shorter output name, or --pdb none" \
  DebugInfo.Portable.dll -o "$long"
(cd "$t" && "$TOOL" DebugInfo.Portable.dll -o "$long" --pdb none > /dev/null 2> "$t/err") || fail "$long --pdb none: $(cat "$t/err")"
(cd "$t" && "$TOOL" "$bin/Basics.dll" -o "${long}X" > /dev/null 2> "$t/err") || fail "a 254-byte OUT, no PDB: $(cat "$t/err")"

echo "== 5. an unreadable input in folder mode: one line, not the same line twice"
t=$work/t6
mkdir -p "$t/in"
chmod 777 "$t"
cp "$bin/Basics.dll" "$bin/Generics.dll" "$t/in/"
chmod 000 "$t/in/Generics.dll"
as_user=()
tool_path=$TOOL
# root reads any file: run the tool as nobody (the work directory is another user's, 0700, so a copy of the tool goes along).
if [ "$(id -u)" = 0 ]; then
  chmod 755 "$work"
  cp "$TOOL" "$t/tool"
  tool_path=./tool
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [ "$(id -u)" != 0 ] || command -v setpriv > /dev/null; then
  set +e
  (cd "$t" && "${as_user[@]}" "$tool_path" in -o out > /dev/null 2> "$t/err")
  rc=$?
  set -e
  [ "$rc" = 3 ] || fail "unreadable input: exit $rc, not 3"
  [ "$(cat "$t/err")" = "cil-instrument: error: in/Generics.dll: cannot open: Permission denied" ] ||
    fail "unreadable input: printed '$(cat "$t/err")'"
else
  echo "note: root without setpriv: the unreadable input is not tried" >&2
fi

finish
