#!/usr/bin/env bash
# Counts survive the endings a program does not choose (issue 12, item 1): an app instrumented
# offline in count mode (tests/apps/Signals.cs) on dotnet
#   - sends itself SIGTERM, SIGINT and SIGQUIT after a known number of calls: it still dies by
#     the signal, and its counts file has exactly those calls;
#   - is killed with SIGTERM, SIGINT and SIGQUIT at random points of a busy loop: it dies by the
#     signal and leaves one complete counts file (read by `report`), no temporary file;
#   - is killed with SIGKILL (by itself after a known number of calls, or from outside): no
#     counts file, but the live file that held the counters, which `report` reads with exactly
#     the calls made; with CIL_INSTRUMENT_FLUSH_SECONDS, the last flushed file and the live file,
#     and `report` of the folder takes the live one;
#   - exits normally with the flush timer running: the timer does not keep it alive, and the
#     counts are exact.
# The kill points are random (the seed is printed; CIL_SIGNAL_SEED repeats a run). No assertion
# is on the wall clock; waits are bounded only so that a hang fails instead of blocking CI.
#   tests/scripts/signal_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$ROOT/scripts/csc.sh" "$work/orig/Signals.dll" /nullable- "$ROOT/tests/apps/Signals.cs" > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the app did not compile"; finish; }
mkdir -p "$work/inst"
cp "$work/orig/Signals.runtimeconfig.json" "$work/inst/"
"$TOOL" "$work/orig/Signals.dll" -o "$work/inst/Signals.dll" > /dev/null || { fail "instrumenting failed"; finish; }

python3 - "$TOOL" "$work" "${CIL_SIGNAL_SEED:-}" <<'PY' || fail "signal test"
import glob, json, os, random, signal, subprocess, sys, time

tool, work, seed = sys.argv[1], sys.argv[2], sys.argv[3]
seed = int(seed) if seed else random.randrange(1 << 30)
print(f"seed {seed} (CIL_SIGNAL_SEED={seed} repeats these kill points)")
rng = random.Random(seed)
app = os.path.join(work, "inst", "Signals.dll")
failures = 0

def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, file=sys.stderr)

def fresh_dir(name):
    d = os.path.join(work, "runs", name)
    os.makedirs(d)
    return d

def start(out, *args, flush=None):
    env = dict(os.environ, CIL_INSTRUMENT_OUTPUT=out)
    env.pop("CIL_INSTRUMENT_FLUSH_SECONDS", None)
    if flush:
        env["CIL_INSTRUMENT_FLUSH_SECONDS"] = flush
    log = open(os.path.join(out, "stdout"), "w")
    return subprocess.Popen(["dotnet", app, *args], stdout=log, stderr=subprocess.PIPE, env=env, cwd=out)

def wait_for(pred, what, limit=240):
    # Bounded only so that a hang fails the test; nothing is asserted on the time taken.
    for _ in range(limit * 10):
        if pred():
            return True
        time.sleep(0.1)
    fail("gave up waiting for " + what)
    return False

def counts_files(out):
    return sorted(glob.glob(os.path.join(out, "Signals.*.counts.json")))

def leftovers(out):
    return [f for f in os.listdir(out) if f.endswith(".tmp")]

def live_files(out):
    return sorted(glob.glob(os.path.join(out, "Signals.*.counts.live")))

def reported(label, target):
    """Work::Step's and Program::Main's counts as `report --json TARGET` gives them."""
    r = subprocess.run([tool, "report", "--json", target], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{label}: report {target} failed: {r.stderr.strip()}")
        return None, None
    assemblies = json.loads(r.stdout)["assemblies"]
    if len(assemblies) != 1 or assemblies[0]["files"] != 1:
        fail(f"{label}: report {target} merged {[a['files'] for a in assemblies]} files, not one")
        return None, None
    counts = {m["name"]: m["count"] for m in assemblies[0]["methods"]}
    return counts.get("Work::Step"), counts.get("Program::Main")

def step_count(label, out):
    """Step's count from the one complete counts file, after `report` accepted it."""
    files = counts_files(out)
    if len(files) != 1:
        fail(f"{label}: {len(files)} counts files: {os.listdir(out)}")
        return None
    r = subprocess.run([tool, "report", "--json", files[0]], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{label}: report refused the counts file: {r.stderr.strip()}")
        return None
    counts = {m["name"]: m["count"] for m in json.load(open(files[0]))["methods"]}
    if counts.get("Program::Main") != 1:
        fail(f"{label}: Main counted {counts.get('Program::Main')} times")
    return counts.get("Work::Step")

def died_by(label, p, sig):
    if p.returncode != -sig:
        fail(f"{label}: exit status {p.returncode}, not death by signal {sig}; stderr: {p.stderr.read().decode()[:300]}")

signals = [signal.SIGTERM, signal.SIGINT, signal.SIGQUIT]

# The app stops itself by a signal: exact counts.
for sig in signals:
    label = f"self {sig.name}"
    out = fresh_dir(label.replace(" ", "-"))
    calls = rng.randrange(1, 5000)
    p = start(out, "self", str(int(sig)), str(calls))
    p.wait(timeout=240)
    died_by(label, p, sig)
    n = step_count(label, out)
    if n is not None and n != calls:
        fail(f"{label}: Work::Step counted {n}, the app made {calls} calls")
    if leftovers(out) or live_files(out):
        fail(f"{label}: temporary or live files left: {leftovers(out) + live_files(out)}")
    print(f"ok   {label}: {calls} calls counted, died by the signal")

# Killed from outside at random points of a busy loop: a complete file.
for round in range(2):
    for sig in signals:
        label = f"kill {sig.name} #{round + 1}"
        out = fresh_dir(label.replace(" ", "-").replace("#", ""))
        p = start(out, "loop")
        if wait_for(lambda: "ready" in open(os.path.join(out, "stdout")).read() or p.poll() is not None, label + ": ready"):
            time.sleep(rng.uniform(0, 0.5))
            p.send_signal(sig)
        p.wait(timeout=240)
        died_by(label, p, sig)
        n = step_count(label, out)
        if n is not None and n < 1000:
            fail(f"{label}: Work::Step counted {n}, fewer than the 1000 before \"ready\"")
        if leftovers(out) or live_files(out):
            fail(f"{label}: temporary or live files left: {leftovers(out) + live_files(out)}")
        print(f"ok   {label}: complete counts file, Work::Step {n}")

# SIGKILL: nothing can be written, but the counters were in the live file all along. The app
# kills itself after a known number of calls (exact counts), or is killed from outside.
for calls in (rng.randrange(1, 5000), 0):
    label = f"self SIGKILL after {calls} calls"
    out = fresh_dir(f"self-sigkill-{calls}")
    p = start(out, "self", str(int(signal.SIGKILL)), str(calls))
    p.wait(timeout=240)
    died_by(label, p, signal.SIGKILL)
    if counts_files(out) or len(live_files(out)) != 1:
        fail(f"{label}: expected one live file and no counts file: {os.listdir(out)}")
    else:
        step, main = reported(label, out)
        if (step, main) != (calls, 1):
            fail(f"{label}: report gave Work::Step {step} and Main {main}, not {calls} and 1")
        else:
            print(f"ok   {label}: no counts file; report of the folder reads the live file: {calls} calls")
label = "SIGKILL from outside"
out = fresh_dir("sigkill")
p = start(out, "loop")
wait_for(lambda: "ready" in open(os.path.join(out, "stdout")).read() or p.poll() is not None, label + ": ready")
time.sleep(rng.uniform(0, 0.5))
p.kill()
p.wait(timeout=240)
died_by(label, p, signal.SIGKILL)
if counts_files(out) or len(live_files(out)) != 1:
    fail(f"{label}: expected one live file and no counts file: {os.listdir(out)}")
else:
    step, main = reported(label, live_files(out)[0])
    if step is None or step < 1000 or main != 1:
        fail(f"{label}: report gave Work::Step {step} and Main {main}")
    else:
        print(f"ok   {label}: the live file has Work::Step {step}")

# SIGKILL with a flush every second: the last complete file stays. Kill after the second
# flush at a random point, so that some kills land during a write.
label = "SIGKILL with CIL_INSTRUMENT_FLUSH_SECONDS=1"
out = fresh_dir("sigkill-flush")
p = start(out, "loop", flush="1")
first = None
def flushed_twice():
    global first
    files = counts_files(out)
    if not files:
        return p.poll() is not None
    stamp = os.stat(files[0]).st_mtime_ns
    if first is None:
        first = stamp
    return stamp != first or p.poll() is not None
wait_for(flushed_twice, label + ": two flushes")
time.sleep(rng.uniform(0, 1))
p.kill()
p.wait(timeout=240)
died_by(label, p, signal.SIGKILL)
n = step_count(label, out)
if n is not None and n < 1000:
    fail(f"{label}: Work::Step counted {n}")
# The folder holds the flushed file and the live file; report takes the live one, which has at
# least the flushed calls.
step, main = reported(label, out)
if n is not None and (step is None or step < n or main != 1):
    fail(f"{label}: report of the folder gave Work::Step {step} and Main {main}; the flushed file has {n}")
print(f"ok   {label}: the last flushed file is complete (Work::Step {n}); report of the folder: {step}")

# A normal exit with the timer running: the process ends, the counts are exact.
label = "exit with CIL_INSTRUMENT_FLUSH_SECONDS=1"
out = fresh_dir("exit-flush")
p = start(out, "exit", "777", flush="1")
try:
    p.wait(timeout=240)
except subprocess.TimeoutExpired:
    p.kill()
    fail(f"{label}: the process did not end (the flush timer kept it alive?)")
if p.returncode != 0:
    fail(f"{label}: exit status {p.returncode}")
n = step_count(label, out)
if n is not None and n != 777:
    fail(f"{label}: Work::Step counted {n}, not 777")
if live_files(out):
    fail(f"{label}: the live file is left: {live_files(out)}")
print(f"ok   {label}: exit 0, 777 calls counted")
sys.exit(1 if failures else 0)
PY
finish
