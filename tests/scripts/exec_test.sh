#!/usr/bin/env bash
# exec and restore (issue 16): a folder instrumented in place, the command run, every file put
# back with identical hashes after a passing command, a failing command, SIGINT and SIGTERM
# during the command, SIGKILL of the tool during instrumenting (at several moments; then
# `restore`, or the next exec) and during the command (then `restore`); restore is idempotent;
# a second exec on a locked folder is refused; the command sees the instrumented files,
# CIL_INSTRUMENT_OUTPUT and VSTEST_TESTHOST_SHUTDOWN_TIMEOUT; the report counts the run's calls.
#   tests/scripts/exec_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
F=$work/app
mkdir -p "$F/sub"
cp "$ROOT/testdata/bin/Basics.dll" "$ROOT/testdata/bin/Basics.runtimeconfig.json" "$ROOT/testdata/bin/Library.dll" \
   "$ROOT/testdata/bin/DebugInfo.Portable.dll" "$ROOT/testdata/bin/DebugInfo.Portable.pdb" "$F/"
cp "$ROOT/testdata/bin/Generics.dll" "$F/sub/"
before=$(folder_state "$F")
check_restored() {
  [ "$(folder_state "$F")" = "$before" ] || { fail "$1: the folder is not as before"; diff <(echo "$before") <(folder_state "$F") | head -5 >&2; }
  [ ! -e "$F/.cil-instrument-exec" ] || fail "$1: the state directory is left"
}

# A passing command: it sees instrumented files and the environment; the report has its calls.
run_exec "passing" 0 -j 2 -o "$work/out1" "$F" -- sh -c \
  'sha256sum "$0/Basics.dll" > "$1/during"; env > "$1/env"; cd "$0" && dotnet Basics.dll > "$1/app.out"' "$F" "$work"
check_restored "passing"
grep -q "$(sha256sum "$F/Basics.dll" | cut -d' ' -f1)" "$work/during" && fail "passing: the command saw the original Basics.dll"
grep -q "^CIL_INSTRUMENT_OUTPUT=$work/out1$" "$work/env" || fail "passing: CIL_INSTRUMENT_OUTPUT not set to the output directory"
grep -q "^VSTEST_TESTHOST_SHUTDOWN_TIMEOUT=60000$" "$work/env" || fail "passing: VSTEST_TESTHOST_SHUTDOWN_TIMEOUT not set"
(cd "$F" && dotnet Basics.dll) | cmp -s - "$work/app.out" || fail "passing: the instrumented program printed otherwise"
grep -q "^Basics (mvid " "$work/out.txt" || fail "passing: no report of Basics: $(head -3 "$work/out.txt")"
grep -q "instrumented 4 assemblies in place" "$work/err.txt" || fail "passing: $(cat "$work/err.txt")"

# A failing command: its status, and the folder back.
run_exec "failing" 7 "$F" -- sh -c 'exit 7'
check_restored "failing"
# A command that cannot be run.
run_exec "not found" 127 "$F" -- /nonexistent/command
check_restored "not found"

# SIGINT and SIGTERM sent to exec while the command runs: passed on, then the folder back.
for sig in INT TERM; do
  rm -f "$work/started"
  set +e
  (cd "$work" && exec "$TOOL" exec "$F" -- sh -c 'touch "$0/started"; sleep 60 & wait' "$work" > "$work/out.txt" 2> "$work/err.txt") &
  pid=$!
  for _ in $(seq 1 600); do [ -e "$work/started" ] && break; sleep 0.1; done
  kill -$sig $pid
  wait $pid; rc=$?
  set -e
  code=$((128 + $(kill -l $sig)))
  [ "$rc" = "$code" ] || fail "SIG$sig during the command: exit $rc, expected $code"
  check_restored "SIG$sig during the command"
done

# SIGKILL of exec while it instruments (a larger folder, so that it takes a while), at several
# moments: the folder is untouched or restorable; `restore` and the next exec put it back.
K=$work/big
mkdir -p "$K"
fw=$(framework_dir)
for a in System.Private.Xml System.Linq.Expressions System.Data.Common; do cp "$fw/$a.dll" "$K/"; done
cp "$ROOT/testdata/bin/Basics.dll" "$K/"
kbefore=$(cd "$K" && find . -type f | sort | xargs sha256sum)
for delay in 0.05 0.2 0.4 0.7 1.0 1.5; do
  set +e
  "$TOOL" exec --assemblies '*' -j 2 -o "$work/kout" "$K" -- sleep 60 > /dev/null 2>&1 &
  pid=$!
  sleep $delay
  kill -KILL $pid
  wait $pid 2>/dev/null
  set -e
  # The command may have started (sleep 60, orphaned): end it by its parent's death only.
  if [ "$delay" = 1.0 ]; then
    set +e
    (cd "$work" && "$TOOL" exec "$K" -- true > /dev/null 2> "$work/next.err"); rc=$?
    set -e
    [ $rc = 0 ] || fail "next exec after SIGKILL: exit $rc"
  else
    "$TOOL" restore "$K" > /dev/null 2> "$work/restore.err" || fail "restore after SIGKILL at $delay s: $(cat "$work/restore.err")"
  fi
  [ "$(cd "$K" && find . -type f | sort | xargs sha256sum)" = "$kbefore" ] || fail "SIGKILL at $delay s: not restored"
  [ ! -e "$K/.cil-instrument-exec" ] || fail "SIGKILL at $delay s: state directory left"
done

# SIGKILL of exec during the command: instrumented files stay; restore puts them back.
rm -f "$work/started" "$work/child"
set +e
"$TOOL" exec -o "$work/kout" "$F" -- sh -c 'echo $$ > "$0/child"; touch "$0/started"; exec sleep 60' "$work" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do [ -e "$work/started" ] && break; sleep 0.1; done
kill -KILL $pid
wait $pid 2>/dev/null
set -e
[ "$(folder_state "$F")" != "$before" ] || fail "SIGKILL during the command: the folder was not instrumented"
# A second exec or restore while the folder is held is refused: the lock went with the process.
"$TOOL" restore "$F" > "$work/r1.out" 2> "$work/r1.err" || fail "restore after SIGKILL: $(cat "$work/r1.err")"
grep -q "put back 5 files of an interrupted run" "$work/r1.err" || fail "restore said: $(cat "$work/r1.err")"
check_restored "SIGKILL during the command, then restore"
"$TOOL" restore "$F" > /dev/null 2> "$work/r2.err" || fail "second restore failed"
grep -q "nothing to restore" "$work/r2.err" || fail "second restore said: $(cat "$work/r2.err")"
kill "$(cat "$work/child")" 2>/dev/null || true

# The folder is locked while exec runs.
rm -f "$work/started"
# The command runs until the test says go (not for a time a loaded machine may outlast).
rm -f "$work/go"
"$TOOL" exec -o "$work/kout" "$F" -- sh -c 'touch "$0/started"; while [ ! -e "$0/go" ]; do sleep 0.1; done' "$work" > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do [ -e "$work/started" ] && break; sleep 0.1; done
set +e
"$TOOL" restore "$F" > /dev/null 2> "$work/locked.err"; rc=$?
set -e
touch "$work/go"
[ $rc = 4 ] && grep -q "another cil-instrument exec or restore is working on this folder" "$work/locked.err" || fail "locked folder: exit $rc: $(cat "$work/locked.err")"
wait $pid || fail "exec under a refused restore failed"
check_restored "locked"

# Usage.
set +e
"$TOOL" exec "$F" > /dev/null 2> "$work/u1"; [ $? = 2 ] || fail "exec without a command"
"$TOOL" exec -- true > /dev/null 2> "$work/u2"; [ $? = 2 ] || fail "exec without a folder"
"$TOOL" exec "$F/Basics.dll" -- true > /dev/null 2> "$work/u3"; [ $? = 2 ] || fail "exec on a file"
set -e
check_restored "usage"
[ "$FAILURES" -eq 0 ] || exit 1
echo "exec: OK"
