#!/usr/bin/env bash
# `cil-instrument run` whose output directory is on a full file system (a 64 KiB tmpfs filled
# up): the profiler cannot write its counts file, and its log (created only when it has
# something to say) stays empty. run must not exit 0 and point to that empty log as if all were
# well: one error line names the empty log (or the full directory), and the exit status is 4
# although the program exited 0. With -q too. A control with room: exit 0 and the counts file.
# No temporary file is left on the full file system, by run's profiler nor by an offline
# count-mode program's own writer (which says why on stderr and runs on as the original).
#   tests/scripts/run_full_disk_test.sh [TOOL]
# Skips (77) without dotnet, without libcilprofiler.so next to TOOL, or where a tmpfs cannot be
# mounted (it needs root).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
[ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so"; exit 77; }
work=$(mktemp -d)
full=$work/full
mkdir "$full"
if ! mount -t tmpfs -o size=64k tmpfs "$full" 2> "$work/mount.err"; then
  echo "skip: cannot mount a tmpfs here: $(cat "$work/mount.err")"
  rm -rf "$work"
  exit 77
fi
trap 'umount "$full" 2> /dev/null; rm -rf "$work"' EXIT
app="$ROOT/testdata/bin/Basics.dll"
expected=$(cat "$ROOT/testdata/expected/Basics.exitcode")
[ "$expected" = 0 ] || { fail "Basics.dll is expected to exit $expected, not 0: pick another program"; finish; }

echo "== control: room on the file system"
status=0
"$TOOL" run -o "$work/room" -- dotnet "$app" > /dev/null 2> "$work/room.err" || status=$?
[ "$status" = 0 ] || fail "control: status $status: $(cat "$work/room.err")"
ls "$work"/room/Basics.*.counts.json > /dev/null 2>&1 || fail "control: no counts file: $(cat "$work/room.err")"

echo "== the output directory's file system full"
dd if=/dev/zero of="$full/fill" bs=4k 2> /dev/null || true
[ "$(df --output=avail "$full" | tail -1 | tr -d ' ')" = 0 ] || fail "the tmpfs is not full: $(df "$full" | tail -1)"
for quiet in "" -q; do
  status=0
  # shellcheck disable=SC2086
  "$TOOL" run $quiet -o "$full" -- dotnet "$app" > "$work/out" 2> "$work/err" || status=$?
  echo "run $quiet: status $status; $(cat "$work/err")"
  [ "$status" = 4 ] || fail "run $quiet on a full file system: status $status, not 4"
  errors=$(grep -c "^cil-instrument: error: $full" "$work/err" || true)
  [ "$errors" -ge 1 ] || fail "run $quiet on a full file system: no error line naming $full: $(cat "$work/err")"
  if grep -q "warnings in" "$work/err"; then fail "run $quiet points to a log: $(cat "$work/err")"; fi
  cmp -s "$work/out" "$ROOT/testdata/expected/Basics.stdout" || fail "run $quiet: the program's output changed"
  [ -z "$(find "$full" -name '*.tmp')" ] || fail "run $quiet left temporary files: $(find "$full" -name '*.tmp')"
  find "$full" -name 'cil-instrument.*.log' -delete
done

echo "== offline count mode: the instrumented program's counts file on the full file system"
# The injected writer creates COUNTS.tmp, fails to fill it, says so on stderr and must remove it;
# the program's own output and exit status stay the original's.
mkdir "$work/inst"
"$TOOL" "$app" -o "$work/inst/Basics.dll" > /dev/null
cp "$ROOT/testdata/bin/Basics.runtimeconfig.json" "$work/inst/"
status=0
CIL_INSTRUMENT_OUTPUT=$full dotnet "$work/inst/Basics.dll" > "$work/out" 2> "$work/err" || status=$?
[ "$status" = 0 ] || fail "offline count mode on a full file system: the program's status $status, not 0"
cmp -s "$work/out" "$ROOT/testdata/expected/Basics.stdout" || fail "offline count mode: the program's output changed"
has "^cil-instrument: cannot write call counts: " < "$work/err" || fail "offline count mode: no line says the write failed: $(cat "$work/err")"
[ -z "$(find "$full" -name '*.tmp')" ] || fail "offline count mode left temporary files: $(find "$full" -name '*.tmp')"
finish
