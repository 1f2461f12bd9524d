#!/usr/bin/env python3
"""The profiler's files when the program is stopped by a signal (issue 12.1, the profiler's part).

    profiler_signals.py TOOL LIBRARY SIGNALS_DLL WORKDIR

SIGNALS_DLL is testdata/src/Signals compiled. The program runs under `TOOL run` and with the
profiler's environment set directly (as for a process `run` does not start). Checks:
  1. exact: the program calls Work N times and sends itself SIGTERM, SIGINT or SIGQUIT: the
     counts file says N, the exit status is the plain run's (the signal's: -SIG directly,
     128+SIG through `run`) and stdout equals the plain run's.
  2. the runtime's own handlers still work: a PosixSignalRegistration (and, for SIGINT,
     Console.CancelKeyPress) that cancels the signal lets the program go on (2N calls counted
     at Shutdown, exit 0); one that does not cancel runs, then the signal ends the process and
     the file says N. Output and status equal the plain run's.
  3. random points: killed at a random moment after its first call (SIGTERM, SIGINT, SIGQUIT;
     directly, through `run` to the child, and SIGTERM to `run` itself, which forwards it): ends
     by that signal, and a complete counts file counts at least the calls the program had
     reported before the kill; killed at a random moment from its start (maybe before the
     runtime or the profiler is up): ends by that signal, and the file is absent or complete.
  4. SIGKILL: no file (the documented nothing); with CIL_INSTRUMENT_FLUSH_SECONDS=1 the file
     appears while the program runs and is rewritten (two different counts seen), is complete
     and non-decreasing at every look, and stays after SIGKILL.
  5. events and args modes: SIGTERM ends the events log with "Signal SIGTERM"; the args log
     holds a complete line for every call made before the program sent itself SIGTERM.
The random moments come from CIL_SEED (printed; set it to replay a run).
"""
import glob
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

TOOL, LIBRARY, DLL, WORK = sys.argv[1:5]
CLSID = "{BBADE716-B1FC-41BB-ADF4-126D6D6D6410}"
SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGQUIT]
failures = []


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    failures.append(message)


def fresh_dir(label):
    path = os.path.join(WORK, label)
    os.makedirs(path)
    return path


def base_env():
    env = dict(os.environ)
    for key in list(env):
        if key.startswith("CIL_INSTRUMENT_") or key.startswith("CORECLR_"):
            del env[key]
    return env


def profiler_env(out, mode="count", include="Fixtures.*", flush=None):
    env = base_env()
    env.update({"CORECLR_ENABLE_PROFILING": "1", "CORECLR_PROFILER": CLSID, "CORECLR_PROFILER_PATH": LIBRARY,
                "CIL_INSTRUMENT_MODE": mode, "CIL_INSTRUMENT_INCLUDE": include, "CIL_INSTRUMENT_OUTPUT": out})
    if flush is not None:
        env["CIL_INSTRUMENT_FLUSH_SECONDS"] = str(flush)
    return env


def command(how, out, args, mode="count", include="Fixtures.*"):
    """(argv, env) for a plain run, a run under `TOOL run`, or with the profiler's environment."""
    if how == "plain":
        return ["dotnet", DLL] + args, base_env()
    if how == "run":
        return [TOOL, "run", "-q", "--mode", mode, "--include", include, "-o", out, "--", "dotnet", DLL] + args, base_env()
    return ["dotnet", DLL] + args, profiler_env(out, mode, include)


def run_to_end(argv, env, timeout=60):
    # restore_signals (the default) gives the child SIGINT and SIGQUIT at their defaults, as a
    # terminal's foreground job has them (a shell's background job would have them ignored).
    p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def expected_status(how, sig):
    return 128 + sig if how == "run" else -sig


def counts_files(out):
    return sorted(glob.glob(os.path.join(out, "Signals.*.counts.json")))


def read_counts(label, out, required=True):
    """Work's count from the one counts file in `out`; None when there is none (and none is required)."""
    files = counts_files(out)
    if not files:
        if required:
            fail(f"{label}: no counts file")
        return None
    if len(files) != 1:
        fail(f"{label}: {len(files)} counts files: {files}")
        return None
    text = open(files[0]).read()
    try:
        data = json.loads(text)
    except ValueError as e:
        fail(f"{label}: the counts file is not complete JSON ({e}): {text[-80:]!r}")
        return None
    if not text.endswith("]}\n"):
        fail(f"{label}: the counts file does not end as a complete one: {text[-40:]!r}")
    counts = {m["name"]: m["count"] for m in data["methods"]}
    if "Fixtures.Signals::Work" not in counts:
        fail(f"{label}: Work missing from {sorted(counts)}")
        return None
    return counts["Fixtures.Signals::Work"]


def no_temporaries(label, out):
    left = [f for f in os.listdir(out) if ".tmp" in f or f.startswith(".")]
    if left:
        fail(f"{label}: temporary files left: {left}")


# -----------------------------------------------------------------------------------------------
# 1 and 2: the program signals itself; exact counts; the runtime's handlers keep working
# -----------------------------------------------------------------------------------------------
N = 1000
for scenario in ["self", "handled", "observed"]:
    for sig in SIGNALS:
        args = [scenario, str(N), str(int(sig))]
        plain = run_to_end(*command("plain", None, args))
        ended_by_signal = scenario != "handled"
        want = -sig if ended_by_signal else 0
        if plain[0] != want:
            fail(f"{scenario} {sig.name}: the plain run exited {plain[0]}, expected {want}")
        for how in ["run", "env"]:
            label = f"{scenario} {sig.name} {how}"
            out = fresh_dir(label.replace(" ", "_"))
            status, stdout, stderr = run_to_end(*command(how, out, args))
            expected = expected_status(how, sig) if ended_by_signal else 0
            if status != expected:
                fail(f"{label}: exit status {status}, expected {expected}; stderr: {stderr[-300:]}")
            if stdout != plain[1]:
                fail(f"{label}: stdout {stdout!r} differs from the plain run's {plain[1]!r}")
            if how == "env" and stderr != plain[2]:
                fail(f"{label}: stderr {stderr!r} differs from the plain run's {plain[2]!r}")
            count = read_counts(label, out)
            calls = 2 * N if scenario == "handled" else N
            if count is not None and count != calls:
                fail(f"{label}: Work counted {count}, called {calls}")
            no_temporaries(label, out)

# -----------------------------------------------------------------------------------------------
# 3. random points
# -----------------------------------------------------------------------------------------------
seed = int(os.environ.get("CIL_SEED", str(int(time.time() * 1000) % 1000000)))
print(f"random moments from CIL_SEED={seed}")
rng = random.Random(seed)


class Running:
    """The loop scenario, its stdout read as it comes: the last "done N" seen."""

    def __init__(self, argv, env):
        self.p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.ready = threading.Event()
        self.done = 0
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            line = line.decode().strip()
            if line == "ready":
                self.ready.set()
            elif line.startswith("done "):
                with self.lock:
                    self.done = int(line[5:])

    def seen(self):
        with self.lock:
            return self.done

    def child(self):
        """The dotnet process under `run` (run's only child)."""
        for _ in range(200):
            try:
                kids = open(f"/proc/{self.p.pid}/task/{self.p.pid}/children").read().split()
                if kids:
                    return int(kids[0])
            except OSError:
                pass
            time.sleep(0.01)
        return None

    def finish(self, timeout=60):
        status = self.p.wait(timeout=timeout)
        self.reader.join(timeout=10)
        self.p.stderr.read()
        return status


rounds = []
for sig in SIGNALS:
    for how in ["env", "env", "run-child"]:
        rounds.append((sig, how))
rounds.append((signal.SIGTERM, "run"))
rounds.append((signal.SIGTERM, "run"))
for sig, how in rounds:
    label = f"random {sig.name} {how}"
    out = fresh_dir(label.replace(" ", "_") + f"_{len(os.listdir(WORK))}")
    argv, env = command("run" if how.startswith("run") else "env", out, ["loop"])
    r = Running(argv, env)
    if not r.ready.wait(60):
        fail(f"{label}: the program never said ready")
        r.p.kill()
        r.finish()
        continue
    time.sleep(rng.uniform(0, 0.8))
    target = r.child() if how == "run-child" else r.p.pid
    seen = r.seen()
    if target is None:
        fail(f"{label}: no child process under run")
        r.p.kill()
        r.finish()
        continue
    os.kill(target, sig)
    status = r.finish()
    expected = expected_status("run" if how.startswith("run") else "env", sig)
    if status != expected:
        fail(f"{label}: exit status {status}, expected {expected}")
    count = read_counts(label, out)
    if count is not None and count < max(seen, 1):
        fail(f"{label}: Work counted {count}, but the program had reported {seen} calls before the kill")
    no_temporaries(label, out)

# Any moment from the start: maybe before the runtime, the profiler or the first call.
for i in range(4):
    sig = SIGNALS[i % 3]
    label = f"early {sig.name}"
    out = fresh_dir(f"early_{i}")
    argv, env = command("env", out, ["loop"])
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0, 0.6))
    os.kill(p.pid, sig)
    status = p.wait(timeout=60)
    if status != -sig:
        fail(f"{label}: exit status {status}, expected {-sig}")
    read_counts(label, out, required=False)
    no_temporaries(label, out)

# -----------------------------------------------------------------------------------------------
# 4. SIGKILL: nothing, or the last periodic write
# -----------------------------------------------------------------------------------------------
out = fresh_dir("kill_plain")
r = Running(*command("env", out, ["loop"]))
if r.ready.wait(60):
    time.sleep(1.5)
else:
    fail("SIGKILL: the program never said ready")
r.p.kill()
status = r.finish()
if status != -signal.SIGKILL:
    fail(f"SIGKILL: exit status {status}")
if counts_files(out):
    fail(f"SIGKILL without CIL_INSTRUMENT_FLUSH_SECONDS left {counts_files(out)}: the man page says nothing")

out = fresh_dir("kill_flush")
argv, _ = command("env", out, ["loop"])
r = Running(argv, profiler_env(out, flush=1))
looks = []
if r.ready.wait(60):
    # Work done, not time: look until two different complete files were seen (a generous cap).
    deadline = time.time() + 120
    while time.time() < deadline and len({x for x in looks if x is not None}) < 2:
        time.sleep(0.2)
        if counts_files(out):
            looks.append(read_counts("flush while running", out))
else:
    fail("SIGKILL with flush: the program never said ready")
r.p.kill()
status = r.finish()
if status != -signal.SIGKILL:
    fail(f"SIGKILL with flush: exit status {status}")
final = read_counts("SIGKILL with CIL_INSTRUMENT_FLUSH_SECONDS=1", out)
if any(x is None for x in looks) or looks != sorted(looks):
    fail(f"flush: the counts seen while running are not complete and non-decreasing: {looks}")
elif final is not None and looks and final < looks[-1]:
    fail(f"flush: the file after SIGKILL ({final}) counts less than one seen before ({looks[-1]})")
if len(set(looks)) < 2:
    fail(f"flush: the file was not rewritten while the program ran: {looks}")
no_temporaries("SIGKILL with flush", out)

# -----------------------------------------------------------------------------------------------
# 5. events and args logs
# -----------------------------------------------------------------------------------------------
out = fresh_dir("events")
status, _, _ = run_to_end(*command("env", out, ["self", "100", str(int(signal.SIGTERM))], mode="events"))
logs = glob.glob(os.path.join(out, "cil-instrument.*.events.log"))
if status != -signal.SIGTERM or len(logs) != 1:
    fail(f"events: status {status}, logs {logs}")
else:
    last = open(logs[0]).read().splitlines()[-1]
    if last.strip() != "Signal SIGTERM" and not last.endswith("Signal SIGTERM"):
        fail(f"events: the log ends with {last!r}, not the signal's line")

out = fresh_dir("args")
status, _, _ = run_to_end(*command("env", out, ["self", "300", str(int(signal.SIGTERM))], mode="args",
                                   include="Fixtures.Signals::Work"))
logs = glob.glob(os.path.join(out, "cil-instrument.*.args.log"))
if status != -signal.SIGTERM or len(logs) != 1:
    fail(f"args: status {status}, logs {logs}")
else:
    text = open(logs[0]).read()
    lines = text.splitlines()
    enters = [l for l in lines if "enter Fixtures.Signals::Work(" in l]
    if len(enters) != 300 or not text.endswith("\n"):
        fail(f"args: {len(enters)} Work lines of 300 (last: {lines[-1:]!r})")

if failures:
    sys.exit(1)
print("profiler_signals: OK")
