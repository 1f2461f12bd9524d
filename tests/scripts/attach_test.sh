#!/usr/bin/env bash
# `cil-instrument attach` (issue 17) on the installed dotnet, against Ticker
# (testdata/bin/profiler/Ticker.dll; for sessions, tests/apps/HeldTicker.cs, the same with a hold
# file so that it cannot end before the test is done with it), which calls Work.Tick about once a
# millisecond (Work.Late in its second half only) and logs the CLOCK_MONOTONIC time of every call.
# Nothing is judged by how far the program got in a given time: counts against the calls logged
# inside each session's recorded edges, waits on events (a 120 s bound only stops a hang):
#  - count sessions through ReJIT: for each method, the count equals at least the calls made
#    while every probe was in (session record: window-full-ns to window-end-ns) and at most the
#    calls made from the first ReJIT request to the end of the revert (window-start-ns to
#    window-closed-ns). Calls keep coming between the revert and the counts' reading
#    (written-ns), 200 ms later, and none of them is counted: no probe runs after the revert;
#  - a second attach to the same process (the profiler left loaded takes it), a third ended
#    with SIGINT, a fourth whose client is killed (the profiler ends the session by itself);
#  - `report` reads the counts files;
#  - the program's output and exit status equal those of a run without attach;
#  - events mode detaches (no ReJIT), and its log says so;
#  - the target ended by SIGTERM during a session: attach names the counts file, exit status 0;
#  - the profiler's attach socket is removed when its process ends (normally, by SIGTERM), a
#    stale one by the next attach;
#  - run --window and --start-after against the session record's edges;
#  - errors, one line each with exit status 8: not a .NET process (also with a stale socket of an
#    earlier process with its id), no such process, a process
#    without the diagnostics socket, and the loaded count profiler asked for events mode
#    (golden: tests/golden/attach/errors.txt, process ids written PID).
#   tests/scripts/attach_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ticker="$ROOT/testdata/bin/profiler/Ticker.dll"
attach_scratch

build_held_ticker || { finish; exit 1; }

# start_ticker NAME TICKS: start_held, then a moment past its start-up (Tick is compiled and
# running); sets $ticker_pid.
start_ticker() {
  start_held "$1" "$2" || return 1
  ticker_pid=$held_pid
  sleep 0.3
}

# check_window DIR CALLS [run]: the counts of the session in DIR against the calls Ticker logged;
# with `run`, a window of `run --window`, whose counts are read at the process's end.
check_window() {
  python3 - "$1" "$2" "${3:-attach}" << 'PY' || fail "$1: counts outside the session's window"
import glob, json, sys
d, calls_file, kind = sys.argv[1], sys.argv[2], sys.argv[3]
record = dict(line.split(' ', 1) for line in open(glob.glob(d + '/*.session')[0]).read().splitlines())
start, full, end, closed, written = (int(record[k]) for k in
    ('window-start-ns', 'window-full-ns', 'window-end-ns', 'window-closed-ns', 'written-ns'))
if kind == 'run':
    written = 1 << 63
calls = {}
for line in open(calls_file):
    name, t = line.split()
    calls.setdefault(name, []).append(int(t))
files = glob.glob(d + '/*.counts.json')
if files:
    counts = {m['name'].split('::')[1]: m['count'] for m in json.load(open(files[0]))['methods']}
else:  # coverage (--hit-counts): the method-entry probes ("M<tab>token<tab>name", then their probe's other entries)
    entries = json.load(open(glob.glob(d + '/*.hits.json')[0]))['methods']
    counts = {m['name'].split('\n')[0].split('\t')[2].split('::')[1]: m['count'] for m in entries if m['name'].startswith('M\t')}
ok = True
for name in ('Tick', 'Late'):
    times = calls.get(name, [])
    low = sum(1 for t in times if full <= t < end)
    high = sum(1 for t in times if start <= t < closed)
    count = counts.get(name)
    print(f"{d} {name}: {low} <= {count} <= {high}")
    if count is None or not (low <= count <= high):
        ok = False
if counts.get('Quiet') != 0:
    print(f"{d}: Quiet counted {counts.get('Quiet')}"); ok = False
after = sum(1 for t in calls['Tick'] if closed <= t < written)
print(f"{d}: {after} calls of Tick between the revert and the reading of the counts, none counted")
if after > 0:
    open(d + '.revert_shown', 'w').close()
if record.get('end') is None or int(record.get('reverted', 0)) != int(record.get('rejit', -1)):
    print(f"{d}: not every method ReJIT-ed was reverted: {record}"); ok = False
sys.exit(0 if ok else 1)
PY
}

# --- a run without attach, beside the attached one (same arguments) ---
(status=0; dotnet "$ticker" 6000 plain.calls > plain.stdout 2> plain.stderr || status=$?; echo "$status" > plain.status) &
plain_job=$!
pids+=("$plain_job")
start_ticker attached 6000 || { finish; exit 1; }

# 1. count, 1 s
"$TOOL" attach "$ticker_pid" --duration 1s -o s1 2> s1.err || fail "session 1: status $?"
has -F "attached to process $ticker_pid" < s1.err || fail "session 1: $(cat s1.err)"
has "profiler left loaded and inactive" < s1.err || fail "session 1 summary: $(cat s1.err)"
has -F "session record $work/s1/cil-instrument.$ticker_pid.attach-" < s1.err || fail "session 1 lists no record: $(cat s1.err)"

# The profiler left loaded listens for the next attach on its socket, removed when the process
# ends (checked below). A stale one, made by a process now gone (as SIGKILL leaves them), is
# removed by the next attach; a live one of another process is not.
agent_dir=${TMPDIR:-/tmp}
agent_socket=$agent_dir/cil-instrument-$ticker_pid-socket
[ -S "$agent_socket" ] || fail "no attach socket $agent_socket after session 1"
sh -c 'exit 0' &
dead_pid=$!
wait "$dead_pid"
stale_agent=$agent_dir/cil-instrument-$dead_pid-socket
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()' "$stale_agent"

# 2. count again, through the profiler left loaded, only Work::*
sleep 0.5
"$TOOL" attach "$ticker_pid" --duration 800ms --include 'Work::*' -o s2 2> s2.err || fail "session 2: status $?"
has -F "reusing the profiler loaded in process $ticker_pid" < s2.err || fail "session 2: $(cat s2.err)"
[ ! -e "$stale_agent" ] || fail "attach left the stale socket $stale_agent"
rm -f "$stale_agent"
[ -S "$agent_socket" ] || fail "attach removed the live socket $agent_socket"

# 3. until SIGINT (^C), sent once the session runs; Work.Late is first called (and compiled)
# during it
"$TOOL" attach "$ticker_pid" -o s3 2> s3.err &
client=$!
wait_for s3.err "reusing the profiler" || fail "session 3 did not start: $(cat s3.err)"
release attached late
sleep 0.7
kill -INT "$client" 2> /dev/null || fail "session 3: the client ended before ^C: $(cat s3.err)"
wait "$client" || fail "session 3: status $?"
has "session ended (stopped)" < s3.err || fail "session 3: $(cat s3.err)"

# 4. the client killed: the profiler ends the session by itself
"$TOOL" attach "$ticker_pid" -o s4 2> s4.err &
client=$!
wait_for s4.err "reusing the profiler" || fail "session 4 did not start: $(cat s4.err)"
sleep 0.7
kill -KILL "$client" 2> /dev/null || fail "session 4: the client ended before it was killed: $(cat s4.err)"
wait "$client" 2> /dev/null || true
deadline=$((SECONDS + 120))
until ls s4/*.session > /dev/null 2>&1 || [ $SECONDS -ge $deadline ]; do sleep 0.05; done
has "^end client-gone$" < s4/cil-instrument.*.session || fail "session 4: $(cat s4/*.session 2> /dev/null) $(cat s4.err)"

# 5. events mode on a profiler loaded for count mode: refused
status=0
"$TOOL" attach "$ticker_pid" --mode events --duration 200ms -o s5 2> s5.err || status=$?
echo "status $status" >> s5.err
sed -i -E "s/process $ticker_pid/process PID/g" s5.err

release attached end
wait "$job" || true
wait "$plain_job" || true
[ ! -e "$agent_socket" ] || fail "the attach socket $agent_socket outlived its process (ended normally)"
for s in s1 s2 s3 s4; do check_window "$s" attached.calls; done
cmp -s plain.stdout attached.stdout || fail "output differs: $(cat plain.stdout) / $(cat attached.stdout)"
[ "$(cat plain.status)" = "$(cat attached.status)" ] || fail "exit status differs: $(cat plain.status) / $(cat attached.status)"
[ ! -s attached.stderr ] || fail "attached run's stderr: $(cat attached.stderr)"
"$TOOL" report s1/*.counts.json s2/*.counts.json > report.txt 2> report.err || fail "report: $(cat report.err)"
has "Work::Tick" < report.txt || fail "report: $(cat report.txt)"

# --- coverage mode: HeldTicker with its portable PDB, its probes through ReJIT ---
start_ticker coverage 3000 || { finish; exit 1; }
"$TOOL" attach "$ticker_pid" --mode coverage --hit-counts --duration 700ms -o cov 2> cov.err || fail "coverage: status $?: $(cat cov.err)"
release coverage "late end"
wait "$job" || true
ls cov/HeldTicker.*.attach-*.hits.json > /dev/null 2>&1 || fail "coverage: no hits file: $(cat cov.err)"
check_window cov coverage.calls
"$TOOL" report cov/*.hits.json > cov.report 2>&1 || fail "coverage report: $(cat cov.report)"
has "^| HeldTicker " < cov.report || fail "coverage report: $(cat cov.report)"

# --- events mode: no ReJIT, the profiler detaches ---
start_ticker events 2500 || { finish; exit 1; }
"$TOOL" attach "$ticker_pid" --mode events --duration 300ms -o ev 2> ev.err || fail "events: status $?"
has "profiler detached" < ev.err || fail "events: $(cat ev.err)"
release events "late end"
wait "$job" || true
has "InitializeForAttach: CoreCLR" < ev/*.events.log || fail "events log: $(head -3 ev/*.events.log)"
has "^\[--\] Detach$" < ev/*.events.log || fail "events log does not end with the detach: $(tail -3 ev/*.events.log)"
[ "$(cat events.status)" = 3 ] || fail "events: exit status $(cat events.status)"
has "^2500 ticks, 1250 late, total " < events.stdout || fail "events: output $(cat events.stdout)"

# --- the process ended by SIGTERM during a session: the profiler's signal writer writes the
# files as the process ends (no Shutdown, no done marker): attach names them and exits 0. The
# first session leaves the profiler loaded with its socket, which must not outlive the process.
start_ticker term 100000 || { finish; exit 1; }
"$TOOL" attach "$ticker_pid" --duration 300ms -o term1 2> term1.err || fail "SIGTERM case, first session: status $?: $(cat term1.err)"
term_socket=$agent_dir/cil-instrument-$ticker_pid-socket
[ -S "$term_socket" ] || fail "SIGTERM case: no attach socket $term_socket"
"$TOOL" attach "$ticker_pid" -o term 2> term.err &
client=$!
wait_for term.err "reusing the profiler" || fail "SIGTERM case: the session did not start: $(cat term.err)"
sleep 0.5
kill -TERM "$ticker_pid"
status=0
wait "$client" || status=$?
[ "$status" = 0 ] || fail "attach, the process ended by SIGTERM: status $status: $(cat term.err)"
has "session ended with the process (by a signal)" < term.err || fail "SIGTERM case: $(cat term.err)"
counts_file=$(ls term/HeldTicker.$ticker_pid.attach-*.counts.json 2> /dev/null | head -1 || true)
[ -n "$counts_file" ] || fail "SIGTERM case: no counts file in term/"
has -F "wrote $work/$counts_file" < term.err || fail "SIGTERM case: the counts file is not named: $(cat term.err)"
# Complete (how much it counted depends on how far the program got: not judged here).
python3 -c 'import json, sys; assert isinstance(json.load(open(sys.argv[1]))["methods"], list)' "$counts_file" ||
  fail "SIGTERM case: $counts_file is not a complete counts file"
wait "$job" || true
echo "SIGTERM case: Ticker's status $(cat term.status); $(grep -c . term.err) lines from attach"
[ ! -e "$term_socket" ] || fail "the attach socket $term_socket outlived its process (ended by SIGTERM)"

# --- run --window: probes in through ReJIT at START, out at END, in a process run started ---
status=0
"$TOOL" run --window 1500ms:2500ms -o win -- dotnet "$ticker" 5000 win.calls > win.stdout 2> win.err || status=$?
[ "$status" = 3 ] || fail "run --window: status $status: $(cat win.err)"
has "^5000 ticks, 2500 late, total " < win.stdout || fail "run --window: output $(cat win.stdout)"
has "^end window$" < win/cil-instrument.*.session || fail "run --window: no window record"
check_window win win.calls run
# --start-after: from START to the end, no revert. Judged by the window's edges in the session
# record against the program's log of calls, never by how far the program got in 2 s.
"$TOOL" run --start-after 2s -o after -- dotnet "$ticker" 5000 after.calls > after.stdout 2> after.err || true
python3 - after after.calls << 'PY' || fail "run --start-after: counts outside the window"
import glob, json, sys
d = sys.argv[1]
record = dict(line.split(' ', 1) for line in open(glob.glob(d + '/*.session')[0]).read().splitlines())
start, full = int(record['window-start-ns']), int(record['window-full-ns'])
calls = [int(l.split()[1]) for l in open(sys.argv[2]) if l.startswith('Tick ')]
counts = {m['name']: m['count'] for m in json.load(open(glob.glob(d + '/*.counts.json')[0]))['methods']}
tick = counts['Work::Tick']
low = sum(1 for t in calls if t >= full)   # every call once all probes were in
high = sum(1 for t in calls if t >= start)  # no call before the first ReJIT request
print(f"start-after (record: end {record.get('end')}): Tick {low} <= {tick} <= {high} of {len(calls)}")
sys.exit(0 if record.get('end') == 'process-exit' and low <= tick <= high else 1)
PY
usage=$work/usage.txt
for args in "--window 5s" "--window 5s:2s" "--start-after 1s --window 1s:2s" "--mode events --start-after 1s"; do
  status=0
  # shellcheck disable=SC2086
  "$TOOL" run $args -- true > "$work/out.txt" 2>&1 || status=$?
  { echo "== run $args"; cat "$work/out.txt"; echo "status $status"; } >> "$usage"
done
check_golden attach/run_window_errors.txt "$usage"

# --- errors ---
sleep 30 &
other=$!
pids+=("$other")
errors=$work/errors.txt
: > "$errors"
attach_error() { # LABEL PID ARGS...
  local label=$1 pid=$2
  shift 2
  echo "== $label" >> "$errors"
  local status=0
  "$TOOL" attach "$pid" "$@" > "$work/error.out" 2>&1 || status=$?
  sed -E "s/(process |pid )$pid/\1PID/g; s/-$pid-/-PID-/g; s| in /[^ ]*/ \(| in TMPDIR/ (|" "$work/error.out" >> "$errors"
  echo "status $status" >> "$errors"
}
# A socket that an earlier .NET process with the same id left behind (a killed one does not
# remove it; with pid_max 32768 ids come round within a test run) is not this process's: its key
# is not this process's start time. Made here for the non-.NET process, it must change nothing.
stale_socket="${TMPDIR:-/tmp}/dotnet-diagnostic-$other-1-socket"
touch "$stale_socket"
attach_error "not a .NET process" "$other"
rm -f "$stale_socket"
# Another user's process: the client runs as nobody against this test's (root's) process. Only
# root can start a client as another user, so elsewhere this check is skipped, and it stays out
# of the golden file.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups "$TOOL" --version > /dev/null 2>&1; then
  status=0
  setpriv --reuid=65534 --regid=65534 --clear-groups "$TOOL" attach "$other" > "$work/other_user.out" 2>&1 || status=$?
  expected="cil-instrument: error: attach: process $other belongs to another user (uid 0): only its own user can attach"
  if [ "$status" = 8 ] && [ "$(cat "$work/other_user.out")" = "$expected" ]; then
    echo "another user's process: refused with status 8 and one line"
  else
    fail "attach as nobody to a process of root: status $status, $(cat "$work/other_user.out")"
  fi
else
  echo "another user's process: not checked (needs root, setpriv, and a tool that user nobody can run)"
fi
kill "$other"
wait "$other" 2> /dev/null || true
attach_error "no such process" "$other"
DOTNET_EnableDiagnostics=0 dotnet "$ticker" 1500 nodiag.calls nodiag.ready > /dev/null &
nodiag=$!
pids+=("$nodiag")
wait_for nodiag.ready
attach_error "diagnostics off" "$(cat nodiag.ready)"
echo "== the profiler loaded for count mode, asked for events mode" >> "$errors"
cat s5.err >> "$errors"
rm -f profiled.ready
("$TOOL" run -q -o profiled -- dotnet "$ticker" 2000 profiled.calls profiled.ready > /dev/null 2>&1 || true) &
profiled=$!
pids+=("$profiled")
wait_for profiled.ready
attach_error "a process already profiled from its start" "$(cat profiled.ready)"
attach_error "args mode" 1 --mode args
attach_error "bad duration" 1 --duration 5x
wait "$nodiag" 2> /dev/null || true
wait "$profiled" 2> /dev/null || true
check_golden attach/errors.txt "$errors"
# The revert shows as calls between it and the reading of the counts (200 ms later), none
# counted; a loaded machine may make no call in one such gap, so one session must show it.
ls ./*.revert_shown > /dev/null 2>&1 || fail "no session had a call between the revert and the reading: the revert is not shown"
finish
