#!/usr/bin/env bash
# End-to-end tests of `diff`: assemblies against themselves (no output, exit 0, fast on
# System.Private.CoreLib), three builds of one program compiled here (a changed method body, a
# method inserted so that tokens shift) against golden files, a fixture against its count- and
# wrap-instrumented copies, and unreadable inputs (exit 3 and one error line). CIL_REGEN=1 rewrites the golden files.
#   tests/scripts/diff_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME ARGS...: runs the tool with stdout in $work/NAME.out, stderr in $work/NAME.err and
# the exit status in $rc.
run() {
  local name=$1
  shift
  set +e
  "$TOOL" "$@" > "$work/$name.out" 2> "$work/$name.err"
  rc=$?
  set -e
}

# (a) Every fixture, and the largest assembly at hand, against itself.
for f in testdata/bin/*.dll; do
  run self diff "$f" "$f"
  [ "$rc" -eq 0 ] || fail "diff $f $f exited $rc: $(head -n 3 "$work/self.err")"
  [ -s "$work/self.out" ] && fail "diff $f $f printed something: $(head -n 3 "$work/self.out")"
done
corelib="$(framework_dir)/System.Private.CoreLib.dll"
if [ -f "$corelib" ]; then
  start=$(date +%s%N)
  run corelib diff "$corelib" "$corelib"
  ms=$((($(date +%s%N) - start) / 1000000))
  [ "$rc" -eq 0 ] || fail "diff of System.Private.CoreLib with itself exited $rc: $(head -n 3 "$work/corelib.err")"
  [ -s "$work/corelib.out" ] && fail "diff of System.Private.CoreLib with itself printed something"
  [ -s "$work/corelib.err" ] && fail "diff of System.Private.CoreLib with itself warned: $(head -n 3 "$work/corelib.err")"
  # Reported, not asserted: speed is measured in bench/, never as a timed test.
  echo "System.Private.CoreLib against itself: $ms ms"
fi

# (b) Three builds of tests/data/diff/*.cs, compared from a fixed directory with relative paths
# so that the output (which names the files) is the same everywhere.
for v in Old Changed Inserted; do
  scripts/csc.sh "$work/$v/App.dll" /optimize+ /debug- "tests/data/diff/$v.cs" > "$work/csc.log" 2>&1 ||
    { cat "$work/csc.log" >&2; fail "could not compile tests/data/diff/$v.cs"; finish; }
done
cd "$work"

# One method body changed: exactly that method, with the changed instruction.
run changed diff Old/App.dll Changed/App.dll
[ "$rc" -eq 1 ] || fail "diff Old Changed exited $rc, expected 1: $(head -n 3 changed.err)"
[ -s changed.err ] && fail "diff Old Changed wrote to stderr: $(head -n 3 changed.err)"
headers=$(grep -c '^--- ' changed.out || true)
[ "$headers" -eq 1 ] || fail "diff Old Changed names $headers methods, expected 1"
grep -q $'^--- Old/App.dll\t0x06000002 Demo.Program::Compute$' changed.out || fail "diff Old Changed does not name Compute"
grep -q '^-  *ldc\.i4\.2$' changed.out || fail "diff Old Changed does not show the old ldc.i4.2"
grep -q '^+  *ldc\.i4\.3$' changed.out || fail "diff Old Changed does not show the new ldc.i4.3"
check_golden diff/changed.txt changed.out

run changed_json diff --json Old/App.dll Changed/App.dll
[ "$rc" -eq 1 ] || fail "diff --json Old Changed exited $rc, expected 1"
python3 -m json.tool changed_json.out > /dev/null || fail "diff --json output is not valid JSON"
check_golden diff/changed.json changed_json.out

# --method leaves out the changed method: no differences.
run filtered diff --method '*::Main' --method '*::Describe' Old/App.dll Changed/App.dll
[ "$rc" -eq 0 ] || fail "diff --method (unchanged methods only) exited $rc, expected 0"
[ -s filtered.out ] && fail "diff --method (unchanged methods only) printed something"
run filtered2 diff --method '*::Comp*' Old/App.dll Changed/App.dll
[ "$rc" -eq 1 ] || fail "diff --method '*::Comp*' exited $rc, expected 1"
cmp -s filtered2.out changed.out || fail "diff --method '*::Comp*' differs from the unfiltered diff"

# A method inserted before others: tokens shift, but methods pair by name (and overloads by
# signature), so only the really changed methods and the new one are reported.
run inserted diff Old/App.dll Inserted/App.dll
[ "$rc" -eq 1 ] || fail "diff Old Inserted exited $rc, expected 1"
grep -q '^only in Inserted/App.dll: 0x06000002 Demo.Program::Square$' inserted.out || fail "diff Old Inserted does not report Square as new"
grep -q '^--- .*Compute' inserted.out && fail "diff Old Inserted reports the unchanged Compute"
grep -q $'^+++ Inserted/App.dll\t0x06000005 Demo.Program::Describe$' inserted.out ||
  fail "diff Old Inserted does not pair Describe(string) across the token shift"
check_golden diff/inserted.txt inserted.out
run inserted_json diff --json Old/App.dll Inserted/App.dll
python3 -m json.tool inserted_json.out > /dev/null || fail "diff --json Old Inserted is not valid JSON"
check_golden diff/inserted.json inserted_json.out
run removed diff Inserted/App.dll Old/App.dll
[ "$rc" -eq 1 ] || fail "diff Inserted Old exited $rc, expected 1"
grep -q '^only in Inserted/App.dll: 0x06000002 Demo.Program::Square$' removed.out || fail "diff Inserted Old does not report Square as removed"
check_golden diff/removed.txt removed.out

# (d) What instrumentation did, the way a user reviews it: a fixture against its instrumented
# copy. Only the selected methods differ, each by its inserted code alone (labels are
# normalised), and the helper type's methods are listed as new.
cp "$ROOT/testdata/bin/Control.dll" Control.dll
"$TOOL" Control.dll -o Counted.dll --include '*::Crunch' --include '*::Fib' > /dev/null
"$TOOL" Control.dll -o Wrapped.dll --mode wrap --include '*::Fib' > /dev/null
run counted diff Control.dll Counted.dll
[ "$rc" -eq 1 ] || fail "diff Control Counted exited $rc, expected 1"
[ "$(grep -c '^--- ' counted.out)" -eq 2 ] || fail "diff Control Counted: expected exactly Fib and Crunch to differ"
grep -q '^-' <(grep -v '^--- \|^-  // code size' counted.out) && fail "diff Control Counted: count mode removed an instruction"
check_golden diff/counted.txt counted.out
run wrapped diff Control.dll Wrapped.dll
[ "$rc" -eq 1 ] || fail "diff Control Wrapped exited $rc, expected 1"
check_golden diff/wrapped.txt wrapped.out

# (c) Inputs that cannot be read: exit 3, one error line naming the file, nothing on stdout.
head -c 600 Old/App.dll > truncated.dll
cp "$ROOT/tests/data/diff/Old.cs" not-pe.dll
: > errors.txt
for args in "not-pe.dll Old/App.dll" "Old/App.dll not-pe.dll" "truncated.dll Old/App.dll" "Old/App.dll missing.dll"; do
  # shellcheck disable=SC2086
  run bad diff $args
  [ "$rc" -eq 3 ] || fail "diff $args exited $rc, expected 3"
  lines=$(wc -l < bad.err)
  [ "$lines" -eq 1 ] || fail "diff $args: expected one error line, got $lines"
  [ -s bad.out ] && fail "diff $args printed to stdout"
  { echo "diff $args: exit $rc"; cat bad.err; } >> errors.txt
done
# Usage errors: exit 2.
for args in "Old/App.dll" "Old/App.dll Changed/App.dll Inserted/App.dll" "--bogus Old/App.dll Changed/App.dll"; do
  # shellcheck disable=SC2086
  run usage diff $args
  [ "$rc" -eq 2 ] || fail "diff $args exited $rc, expected 2"
  { echo "diff $args: exit $rc"; cat usage.err; } >> errors.txt
done
check_golden diff/errors.txt errors.txt
run help diff --help
[ "$rc" -eq 0 ] && grep -q -- '--method' help.out || fail "diff --help"
finish
