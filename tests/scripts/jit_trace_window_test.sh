#!/usr/bin/env bash
# Trace mode through ReJIT (issue 38), against HeldTicker (lib.sh's build_held_ticker) run with
# no ticks of its own: held, it calls Work.Tick(8k) for k = 0, 1, 2, ... about once a millisecond,
# logs the CLOCK_MONOTONIC time of every call, and ends only when the test says so (its hold
# file). The hooks are TraceHooks, whose log names each call's argument, so the test knows which
# calls were traced. Judged by recorded events only:
#  - `run --mode trace --window 1500ms:2500ms`: the calls traced are one contiguous run of i; each
#    lies between the session record's window-start-ns and window-closed-ns (none after the
#    revert), and every call made while the traced body was in (window-full-ns to window-end-ns)
#    is traced; every OnEnter has its OnLeave; the program's output and exit status are right;
#  - `attach PID --mode trace` to a running HeldTicker:
#    - bad hooks (a missing file: exit 3; a broken contract: exit 2) are one line, and the
#      process is untouched (no file, still running);
#    - hooks that pass every check but cannot be loaded in the process (their hook type's base
#      class is in an assembly that is missing): the loader's report ends the session, everything
#      is reverted, attach prints one line with the reason and exits 8; nothing was traced;
#    - then, through the profiler left loaded, TraceHooks: loader first (phase 1), then the traced
#      bodies (phase 2): the calls traced are one contiguous run between the session's start and
#      the end of its revert (calls between the phases are untraced, so no lower bound of full);
#    - a second TraceHooks session goes straight to the traced bodies (the hooks are loaded, the
#      helper types defined once), its calls likewise inside its own edges; other hooks after
#      that are refused with one line (exit 8);
#    - the program's output and exit status are right after all of it.
#   tests/scripts/jit_trace_window_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
hooks="$ROOT/testdata/bin/trace/TraceHooks.dll"
attach_scratch

build_held_ticker || { finish; exit 1; }

# The hooks that fail in the process (as in jit_trace_test.sh), built meanwhile.
mkdir -p late
cat > late/Base.cs <<'CS'
namespace LateBase { public class HookBase { } }
CS
cat > late/Hooks.cs <<'CS'
namespace LateHooks {
  public class Hooks : LateBase.HookBase {
    public static void OnEnter(string method) { System.IO.File.AppendAllText(System.Environment.GetEnvironmentVariable("CIL_TRACE_LOG"), "late enter " + method + "\n"); }
  }
}
CS
("$ROOT/scripts/csc.sh" late/LateBase.dll /target:library late/Base.cs &&
  "$ROOT/scripts/csc.sh" late/LateHooks.dll /target:library /r:late/LateBase.dll late/Hooks.cs && rm late/LateBase.dll) > late/csc.log 2>&1 &
late_build=$!

# check_traced NAME KIND DIR...: HeldTicker's calls of Tick (NAME.calls) against the hooks' log
# (NAME.hooks) and the session records in DIR... (sessions one after the other on one process): each call
# traced lies inside one session's edges, and those of each session are one contiguous run;
# KIND `window` also asks that every call made while the traced body was in be traced.
check_traced() {
  python3 - "$@" << 'PY' || fail "$1: traced calls outside the sessions' edges"
import glob, re, sys
name, kind, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
times = [int(line.split()[1]) for line in open(name + '.calls') if line.startswith('Tick ')]
log = open(name + '.hooks').read().splitlines() if glob.glob(name + '.hooks') else []
# The k-th call passes 8k (tests/apps/HeldTicker.cs).
args = [int(m.group(1)) for m in (re.match(r'enter Work::Tick 0x[0-9A-F]{8}\((\d+)\)$', l.strip()) for l in log) if m]
seen = [a // 8 for a in args]
leaves = sum(1 for l in log if l.strip().startswith('leave Work::Tick'))
ok = True
def bad(text):
    global ok
    print(f"{name}: {text}")
    ok = False
if leaves != len(seen):
    bad(f"{len(seen)} OnEnter, {leaves} OnLeave")
if any(a % 8 or a // 8 >= len(times) for a in args):
    bad(f"arguments that are no call's: {[a for a in args if a % 8 or a // 8 >= len(times)][:5]}")
# Call i runs between times[i] and times[i + 1].
after = lambda i: times[i + 1] if i + 1 < len(times) else 1 << 63
claimed = set()
for d in dirs:
    record = dict(line.split(' ', 1) for line in open(glob.glob(d + '/*.session')[0]).read().splitlines())
    start, full, end, closed = (int(record[k]) for k in ('window-start-ns', 'window-full-ns', 'window-end-ns', 'window-closed-ns'))
    mine = sorted(i for i in seen if after(i) > start and times[i] < closed)
    claimed.update(mine)
    # Calls made while the traced body was in (window: every one is traced). An attach session
    # traces from its phase 2, after the loader's first call and a session tick (10 ms): with
    # dozens of calls in its window, some are traced. A window the program made no call in (a
    # machine so slow that Main began after END) can only check that nothing was traced.
    inside = sum(1 for t in times if full <= t < end)
    if not mine:
        if inside > (0 if kind == 'window' else 50):
            bad(f"{d}: nothing traced ({inside} calls while the traced body was in; record {record})")
        continue
    if mine != list(range(mine[0], mine[-1] + 1)):
        bad(f"{d}: the traced calls are not one contiguous run: {len(mine)} calls in {mine[0]}..{mine[-1]}")
    if kind == 'window':
        traced = set(mine)
        missed = [i for i in range(len(times)) if times[i] >= full and after(i) <= end and i not in traced]
        if missed:
            bad(f"{d}: calls {missed[:5]} made while the traced body was in were not traced")
    print(f"{d}: calls {mine[0]}..{mine[-1]} traced, {inside} made while the traced body was in, "
          f"{sum(1 for t in times if closed <= t)} after the revert")
outside = sorted(set(seen) - claimed)
if outside:
    bad(f"{len(outside)} calls traced outside every session's window-start-ns..window-closed-ns (first {outside[:5]})")
print(f"{name}: {len(seen)} calls traced of {len(times)}, {len(outside)} outside the sessions")
sys.exit(0 if ok else 1)
PY
}

# check_output NAME STATUS: HeldTicker's output (no ticks of its own) and exit status.
check_output() {
  [ "$2" = 3 ] || fail "$1: exit status $2, not 3"
  [ "$(cat "$1.stdout")" = "0 ticks, 0 late, total 0" ] || fail "$1: output $(cat "$1.stdout")"
}

echo "== run --mode trace --window: traced from START to END only"
: > win.hold
(status=0
 CIL_TRACE_LOG=$work/win.hooks "$TOOL" run -q --mode trace --hooks "$hooks" --include 'Work::Tick' --window 1500ms:2500ms -o win \
   -- dotnet "$held" 0 win.calls win.ready win.hold > win.stdout 2> win.err || status=$?
 echo "$status" > win.status) &
pids+=($!)
win_job=$!
# The window ends while the program runs: it is let go only once the record says so.
for _ in $(seq 2400); do compgen -G 'win/cil-instrument.*.session' > /dev/null && grep -q '^end window$' win/cil-instrument.*.session && break; sleep 0.05; done
release win end
wait "$win_job" || true
check_output win "$(cat win.status)"
[ ! -s win.err ] || fail "run --window: stderr: $(head -3 win.err)"
if compgen -G 'win/cil-instrument.*.session' > /dev/null; then
  has "^end window$" < win/cil-instrument.*.session || fail "run --window: no window record: $(cat win/cil-instrument.*.session)"
  check_traced win window win
else
  fail "run --window: no session record: $(ls win)"
fi

echo "== attach --mode trace"
start_held att 0 CIL_TRACE_LOG="$work/att.hooks" || { finish; exit 1; }
att_job=$job
pid=$held_pid

# bad LABEL STATUS ARGS...: attach refuses with exit STATUS and one line; the process is untouched.
bad() {
  local label=$1 status=$2 got=0
  shift 2
  "$TOOL" attach "$pid" --mode trace "$@" -o bad > bad.out 2> bad.err || got=$?
  [ "$got" = "$status" ] || fail "attach, $label: exit status $got, not $status: $(cat bad.err)"
  [ "$(wc -l < bad.err)" = 1 ] || fail "attach, $label: $(wc -l < bad.err) lines: $(cat bad.err)"
  [ -z "$(ls bad 2> /dev/null)" ] || fail "attach, $label: files written: $(ls bad)"
  kill -0 "$pid" 2> /dev/null || fail "attach, $label: the process is gone"
  echo "ok   attach, $label: $(cat bad.err)"
}
bad "missing hooks file" 3 --hooks "$work/NoSuchHooks.dll"
bad "broken contract" 2 --hooks "$ROOT/testdata/bin/trace/BadHooks.dll" --hook-type BadHooks.WrongType

wait "$late_build" || fail "csc LateHooks: $(tail -2 late/csc.log)"
status=0
"$TOOL" attach "$pid" --mode trace --hooks late/LateHooks.dll --include 'Work::Tick' --duration 60s -q -o late-out 2> late.err || status=$?
[ "$status" = 8 ] || fail "attach, hooks that fail in the process: exit status $status: $(cat late.err)"
[ "$(wc -l < late.err)" = 1 ] && has "process $pid: hooks .*LateHooks.dll: cannot be loaded in the process" < late.err ||
  fail "attach, hooks that fail in the process: $(cat late.err)"
has "^end failed$" < late-out/cil-instrument.*.session || fail "attach, failed hooks: record $(cat late-out/cil-instrument.*.session)"
has "^reverted [1-9]" < late-out/cil-instrument.*.session || fail "attach, failed hooks: nothing reverted: $(cat late-out/cil-instrument.*.session)"
echo "ok   attach, hooks that fail in the process: $(cat late.err)"

status=0
"$TOOL" attach "$pid" --mode trace --hooks "$hooks" --include 'Work::Tick' --duration 1s -o att 2> att.err || status=$?
[ "$status" = 0 ] || fail "attach --mode trace: exit status $status: $(cat att.err)"
has "reverted" < att.err || fail "attach --mode trace: $(cat att.err)"
has "^phase loader$" < att/cil-instrument.*.session || fail "attach --mode trace: not through the loader: $(cat att/cil-instrument.*.session)"
# A second session with the same hooks: they are loaded, so straight to the traced bodies, with
# the helper types defined in the first session (none is defined again).
status=0
"$TOOL" attach "$pid" --mode trace --hooks "$hooks" --include 'Work::Tick' --duration 500ms -o att2 2> att2.err || status=$?
[ "$status" = 0 ] || fail "second attach --mode trace: exit status $status: $(cat att2.err)"
has "^phase traced$" < att2/cil-instrument.*.session || fail "second attach: $(cat att2/cil-instrument.*.session)"
# Other hooks once these have traced: refused with one line, nothing traced.
status=0
"$TOOL" attach "$pid" --mode trace --hooks "$ROOT/testdata/bin/trace/SlimHooks.dll" --hook-type SlimHooks.EnterOnly --include 'Work::Tick' \
  --duration 30s -q -o other 2> other.err || status=$?
[ "$status" = 8 ] && [ "$(wc -l < other.err)" = 1 ] && has "must name the same hooks" < other.err ||
  fail "attach with other hooks: exit status $status: $(cat other.err)"
echo "ok   attach with other hooks: $(cat other.err)"
release att end
wait "$att_job" || true
check_output att "$(cat att.status)"
[ ! -s att.stderr ] || fail "attach: the program's stderr: $(head -3 att.stderr)"
! grep -q '^late enter' att.hooks 2> /dev/null || fail "attach: the failed hooks were called"
check_traced att attach att att2
finish
