#!/usr/bin/env bash
# The tool used as a new user would, with faults and hostile files (issue 12): one case per
# defect, each a command with its exit status and its lines on stderr in
# tests/golden/misuse.txt (the scratch directory written as $W), plus what each case must leave
# behind: special files are never replaced, nothing is written over the hooks assembly, no
# temporary file stays, modes follow the umask or the file replaced.
#   tests/scripts/misuse_test.sh [TOOL]        (CIL_REGEN=1 rewrites the golden file)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$ROOT/testdata/bin"
app="$work/App.dll"
cp "$bin/Basics.dll" "$app"
cp "$bin/trace/TraceHooks.dll" "$work/Hooks.dll"
summary="$work/misuse.txt"
: > "$summary"

# record LABEL FILE: FILE's lines into the summary, the scratch directory written $W and runs of
# 16 or more of one character as {N x C}, after checking that no line is longer than the cap on
# an error line or holds a control character other than a tab.
record() {
  echo "== $1" >> "$summary"
  python3 - "$1" "$2" "$work" >> "$summary" <<'PY' || fail "$1: a line is too long or holds control characters"
import re, sys
label, path, work = sys.argv[1], sys.argv[2], sys.argv[3]
ok = True
for line in open(path, "rb").read().split(b"\n")[:-1]:
    if len(line) + 1 > 4096 or any(c < 0x20 and c != 9 or c == 0x7F for c in line):
        ok = False
    text = line.decode("utf-8", "backslashreplace").replace(work, "$W")
    print(re.sub(r"(.)\1{15,}", lambda m: "{%d x %s}" % (len(m.group(0)), m.group(1)), text))
sys.exit(0 if ok else 1)
PY
}

# case LABEL ARGS...: runs the tool (120 s at most: a hang fails; a slow, loaded machine does
# not), records the exit status and stderr in the summary; the status is left in $rc, stdout in
# $work/stdout.
case_() {
  local label=$1
  shift
  set +e
  timeout 120 "$TOOL" "$@" > "$work/stdout" 2> "$work/stderr"
  rc=$?
  set -e
  [ "$rc" -ne 124 ] || fail "$label: timed out"
  [ "$(wc -l < "$work/stderr")" -le 2 ] || fail "$label: more than one error line"
  { echo "exit $rc"; cat "$work/stderr"; } > "$work/case"
  record "$label" "$work/case"
}

# no_temporaries DIR LABEL: no temporary file of an output is left in DIR.
no_temporaries() {
  local left
  left=$(find "$1" -maxdepth 1 -name '.cil-instrument-*' -o -maxdepth 1 -name '*.tmp-*' | head -3)
  [ -z "$left" ] || fail "$2: temporary files left: $left"
}

echo "== inputs that are not regular files are refused at once (a FIFO blocked open() forever)"
mkfifo "$work/fifo"
case_ "info of a FIFO" info "$work/fifo"
[ "$rc" -eq 3 ] || fail "info of a FIFO: exit $rc"
case_ "instrument a FIFO" "$work/fifo" -o "$work/out.dll"
case_ "a FIFO as --hooks" "$app" -o "$work/out.dll" --mode trace --hooks "$work/fifo"
case_ "dump of a character device" dump /dev/zero
case_ "report of a FIFO" report "$work/fifo"
case_ "info of a directory" info "$work"
[ ! -e "$work/out.dll" ] || fail "a refused input left an output"

echo "== an OUT that exists and is not a regular file is refused, not replaced"
case_ "-o /dev/null" "$app" -o /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
case_ "-o FIFO" "$app" -o "$work/fifo"
[ -p "$work/fifo" ] || fail "the FIFO was replaced"
case_ "-o a directory" "$app" -o "$work"
echo "old" > "$work/target.dll"
ln -s target.dll "$work/link.dll"
case_ "-o a symbolic link" "$app" -o "$work/link.dll"
[ -L "$work/link.dll" ] && [ "$(cat "$work/target.dll")" = old ] || fail "the symbolic link or its target was replaced"
ln -s nowhere.dll "$work/dangling.dll"
case_ "-o a dangling symbolic link" "$app" -o "$work/dangling.dll"
[ -L "$work/dangling.dll" ] && [ ! -e "$work/nowhere.dll" ] || fail "the dangling link was followed or replaced"
no_temporaries "$work" "special outputs"

echo "== -o equal to --hooks is refused, as -o equal to IN is"
sha=$(sha256sum < "$work/Hooks.dll")
case_ "-o equal to --hooks" "$app" -o "$work/Hooks.dll" --mode trace --hooks "$work/Hooks.dll"
ln "$work/Hooks.dll" "$work/HooksLink.dll"
case_ "-o a hard link of --hooks" "$app" -o "$work/HooksLink.dll" --mode trace --hooks "$work/Hooks.dll"
[ "$(sha256sum < "$work/Hooks.dll")" = "$sha" ] || fail "the hooks assembly was overwritten"

echo "== the temporary file's name does not lengthen OUT's name"
long="$work/$(printf 'a%.0s' $(seq 1 251)).dll"
case_ "-o a 255-byte name" "$app" -o "$long"
[ -s "$long" ] || fail "no output with a 255-byte name"
echo "old" > "$long"
case_ "-o an existing 255-byte name" "$app" -o "$long"
"$TOOL" info "$long" > /dev/null || fail "the 255-byte output does not read back"
no_temporaries "$work" "long names"

echo "== modes: new files follow the umask, replaced files keep theirs"
(umask 077 && "$TOOL" "$app" -o "$work/private.dll" > /dev/null)
[ "$(stat -c %a "$work/private.dll")" = 600 ] || fail "umask 077: mode $(stat -c %a "$work/private.dll")"
(umask 002 && "$TOOL" "$app" -o "$work/group.dll" > /dev/null)
[ "$(stat -c %a "$work/group.dll")" = 664 ] || fail "umask 002: mode $(stat -c %a "$work/group.dll")"
echo "old" > "$work/kept.dll"
chmod 640 "$work/kept.dll"
"$TOOL" "$app" -o "$work/kept.dll" > /dev/null
[ "$(stat -c %a "$work/kept.dll")" = 640 ] || fail "an existing OUT's mode became $(stat -c %a "$work/kept.dll")"
"$TOOL" info "$work/kept.dll" > /dev/null || fail "the replaced output does not read back"

echo "== reading a hooks assembly is linear in its types (4,000 took 0.16 s, 10,000 took 34 s)"
command -v ilasm > /dev/null || fail "ilasm (Mono) is needed to make the hooks assemblies"
# ilasm_dll FILE ASSEMBLY: assembles IL from stdin into FILE, an assembly named ASSEMBLY that
# references the core library $core (mscorlib unless set).
core=mscorlib
ilasm_dll() {
  { echo ".assembly extern $core {}"; echo ".assembly '$2' {}"; echo ".module '$(basename "$1")'"; cat; } > "$1.il"
  ilasm /dll /quiet "/output:$1" "$1.il" > "$work/ilasm.log" 2>&1 || fail "ilasm $1: $(tail -3 "$work/ilasm.log")"
}
python3 -c '
for i in range(50000):
    print(".class public abstract sealed H.T%d extends [mscorlib]System.Object {" % i)
    print("  .method public static void OnEnter(string '"'"'method'"'"') cil managed { ret }")
    print("}")' | ilasm_dll "$work/Hooks50k.dll" Hooks50k
# A hang guard far above the milliseconds this takes (the quadratic reading took hours).
set +e
timeout 120 "$TOOL" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/Hooks50k.dll" --hook-type H.T49999 > /dev/null 2> "$work/stderr"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "50,000 hook types, --hook-type H.T49999: exit $rc: $(head -c 300 "$work/stderr")"
set +e
timeout 120 "$TOOL" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/Hooks50k.dll" > /dev/null 2> "$work/stderr"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "50,000 hook types without --hook-type: exit $rc, expected 2 (several hook types)"

echo "== hook contracts that made the output unusable (TypeLoadException) are refused"
rm -f "$work/traced.dll"
hook_type() {  # hook_type NAME [GENERIC-PARAMETERS]: a public class NAME with OnEnter(string method)
  echo ".class public abstract sealed $1${2:-} extends [$core]System.Object {"
  echo "  .method public static void OnEnter(string 'method') cil managed { ret }"
  echo "}"
}
hook_type 'Ns.Holder`1' '<T>' | ilasm_dll "$work/GenericHooks.dll" GenericHooks
case_ "a generic hook type" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/GenericHooks.dll" --hook-type 'Ns.Holder`1'
case_ "a generic hook type, found alone" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/GenericHooks.dll"
for name in System.Private.CoreLib System.Runtime mscorlib MSCORLIB netstandard Microsoft.Win32.Primitives \
    Microsoft.AspNetCore.Http Mono.Posix; do
  [ "${name,,}" = mscorlib ] && core=netstandard || core=mscorlib
  hook_type Ns.Hooks | ilasm_dll "$work/Named.dll" "$name"
  case_ "a hooks assembly named $name" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/Named.dll"
done
[ ! -e "$work/traced.dll" ] || fail "a refused hook contract left an output"
# A name beside the framework's is the user's: accepted, and the traced program runs.
core=mscorlib
hook_type Ns.Hooks | ilasm_dll "$work/System.Contoso.Hooks.dll" System.Contoso.Hooks
mkdir -p "$work/run"
cp "$bin/Basics.runtimeconfig.json" "$work/System.Contoso.Hooks.dll" "$work/run/"
case_ "a hooks assembly named System.Contoso.Hooks" "$app" -o "$work/run/Basics.dll" --mode trace --hooks "$work/System.Contoso.Hooks.dll"
(cd "$bin" && dotnet Basics.dll > "$work/plain.out" 2>&1) || true
(cd "$work/run" && timeout 60 dotnet Basics.dll > "$work/traced.out" 2>&1) || true
cmp -s "$work/plain.out" "$work/traced.out" || fail "Basics traced with System.Contoso.Hooks: $(head -3 "$work/traced.out")"

echo "== names in error lines are cut (a 100,105-character line), lists too (85,117)"
long_name=$(python3 -c 'print("N" * 100000)')
case_ "a 100,000-character --hook-type" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/Hooks.dll" --hook-type "$long_name"
case_ "50,000 hook types listed" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/Hooks50k.dll"
# Names read from the file: a hooks assembly named with 20,000 characters, a parameter too.
hook_type Ns.Hooks | ilasm_dll "$work/LongName.dll" "$(python3 -c 'print("A" * 20000)')"
case_ "a 20,000-character assembly name" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/LongName.dll" --hook-type Missing
{ echo ".class public abstract sealed Ns.Hooks extends [mscorlib]System.Object {"
  echo "  .method public static void OnEnter(string '$(python3 -c 'print("p" * 20000)')') cil managed { ret }"
  echo "}"; } | ilasm_dll "$work/LongParam.dll" LongParam
case_ "a 20,000-character parameter name" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/LongParam.dll"
case_ "a 100,000-character --mode" "$app" -o "$work/m.dll" --mode "$long_name"
case_ "a 100,000-character missing input" info "$work/$(python3 -c 'print("f" * 200)')/$long_name"
[ ! -e "$work/traced.dll" ] || fail "a refused hook contract left an output"

echo "== control characters from hostile files and the command line are escaped"
# Exceptions.dll with a body past its section (one warning), its method SafeDivide renamed to
# 10 hostile bytes (ESC [2J clears the screen, BEL, VT, US, C1 NEL, an invalid byte), its
# assembly to an OSC sequence that sets the terminal's title, and its .text section to ESC
# sequences; a hooks parameter named with the same bytes.
python3 "$ROOT/tests/scripts/make_broken.py" "$bin/Exceptions.dll" "$work/broken" > /dev/null
python3 - "$work/broken/body-past-section.dll" "$work/Hostile.dll" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
def swap(old, new):
    assert len(old) == len(new) and data.count(old) >= 1, old
    at = data.index(old)
    data[at:at + len(old)] = new
swap(b"\0SafeDivide\0", b"\0\x1b[2J\x07\x0b\x1f\xc2\x85\xff\0")
swap(b"\0Exceptions\0", b"\0\x1b]0;pwnd\x07!\0")
swap(b".text\0\0\0", b".t\x1b[1mx\x1b")
open(sys.argv[2], "wb").write(data)
PY
case_ "instrument a file with hostile names (warning)" "$work/Hostile.dll" -o "$work/hostile-out.dll"
"$TOOL" info "$work/Hostile.dll" > "$work/info.txt" 2>&1 || fail "info of the hostile file"
grep -E '^(Assembly|  \.t)' "$work/info.txt" > "$work/lines"
record "info of a file with hostile names: the lines that show them" "$work/lines"
"$TOOL" dump "$work/Hostile.dll" > "$work/dump.txt" 2> "$work/dump.err" || fail "dump of the hostile file"
{ grep -E '^// assembly|^  // error|::Main\(' "$work/dump.txt"; grep -A1 '^// 0x06000009' "$work/dump.txt"; cat "$work/dump.err"; } > "$work/lines"
record "dump of a file with hostile names: the lines that show them, and the warning" "$work/lines"
python3 - "$work/dump.txt" "$work/info.txt" "$work/hostile-out.dll" <<'PY' || fail "a control character reached the text output"
import sys
for path in sys.argv[1:3]:
    data = open(path, "rb").read()
    bad = [c for c in data if (c < 0x20 and c not in (9, 10)) or c == 0x7F]
    assert not bad, f"{path}: {bad[:5]}"
    data.decode("utf-8")  # valid UTF-8: the invalid byte was escaped
PY
"$TOOL" dump --json "$work/Hostile.dll" 2> /dev/null | python3 -c '
import json, sys
names = [m["name"] for m in json.load(sys.stdin)["methods"]]
assert any("[2J" in n for n in names), names' || fail "dump --json does not carry the exact name"
{ echo ".class public abstract sealed Ns.Hooks extends [mscorlib]System.Object {"
  echo "  .method public static void OnEnter(string 'PARAMxCTRL') cil managed { ret }"
  echo "}"; } | ilasm_dll "$work/HostileHooks.dll" HostileHooks
python3 - "$work/HostileHooks.dll" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.index(b"PARAMxCTRL")
data[at:at + 10] = b"\x1b[2J\x07\x0b\x1f\xc2\x85\xff"
open(sys.argv[1], "wb").write(data)
PY
case_ "a hooks parameter with hostile bytes" "$app" -o "$work/traced.dll" --mode trace --hooks "$work/HostileHooks.dll"
case_ "control characters on the command line" "$app" -o "$work/m.dll" --mode $'\e[2J\u202Efast'
case_ "control characters in a file name" info "$work/"$'a\e]0;pwn\ab.dll'

echo "== a failed write to standard output says so (it exited 4 with no error line)"
# full LABEL ARGS...: the command with standard output on /dev/full.
full() {
  local label=$1
  shift
  set +e
  timeout 120 "$TOOL" "$@" > /dev/full 2> "$work/stderr"
  rc=$?
  set -e
  { echo "exit $rc"; cat "$work/stderr"; } > "$work/case"
  record "$label > /dev/full" "$work/case"
  [ "$rc" -eq 4 ] || fail "$label > /dev/full: exit $rc"
}
full "info" info "$app"
full "dump" dump "$app"
full "dump --json" dump --json "$app"
full "diff" diff "$app" "$work/kept.dll"
full "report" report "$ROOT/tests/data/report/App.1001.counts.json"
full "--help" --help
full "--version" --version
full "info --help" info --help
rm -f "$work/reported.dll"
full "instrument" "$app" -o "$work/reported.dll"
# The summary could not be printed, but OUT is complete, and the error line says it was written.
"$TOOL" info "$work/reported.dll" > /dev/null || fail "instrument > /dev/full: OUT is not complete"
set +e
"$TOOL" info "$app" >&- 2> "$work/stderr"
rc=$?
set -e
{ echo "exit $rc"; cat "$work/stderr"; } > "$work/case"
record "info with standard output closed" "$work/case"

check_golden misuse.txt "$summary"
finish
