#!/usr/bin/env bash
# Interrupted instrumentation leaves nothing half-done (issue 12, item 4): `instrument` on
# System.Private.CoreLib is killed at 20 random moments with each of SIGTERM, SIGINT and
# SIGKILL, writing through an unnamed temporary file (the default) and through a named one
# (CIL_INSTRUMENT_TEMPFILE=named), with OUT absent or already there. After each kill: OUT is
# absent, the old OUT, or the complete output (byte for byte the uninterrupted one), IN is
# unchanged, the process ended by the signal (or exited 0 first), and no temporary file is
# left; after SIGKILL, none once the next run in that directory has run, and none ever when
# the file had no name and OUT did not exist. The moments are random (the seed is printed;
# CIL_KILL_SEED repeats a run); which phase each kill hit is reported, not asserted.
#   tests/scripts/kill_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
corelib="$(framework_dir)/System.Private.CoreLib.dll"
[ -f "$corelib" ] || { echo "no System.Private.CoreLib.dll in the shared framework" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/out"
cp "$corelib" "$work/in/CoreLib.dll"
"$TOOL" "$work/in/CoreLib.dll" -o "$work/reference.dll" > /dev/null 2>&1 || { fail "the uninterrupted run failed"; finish; }

python3 - "$TOOL" "$work" "${CIL_KILL_SEED:-}" <<'PY' || fail "kill test"
import hashlib, os, random, signal, subprocess, sys, time

tool, work, seed = sys.argv[1], sys.argv[2], sys.argv[3]
seed = int(seed) if seed else random.randrange(1 << 30)
print(f"seed {seed} (CIL_KILL_SEED={seed} repeats these moments)")
rng = random.Random(seed)
src = os.path.join(work, "in", "CoreLib.dll")
out_dir = os.path.join(work, "out")
out = os.path.join(out_dir, "CoreLib.dll")
digest = lambda path: hashlib.sha256(open(path, "rb").read()).hexdigest()
in_hash, ref_hash = digest(src), digest(os.path.join(work, "reference.dll"))
old = b"the old output\n"
temporaries = lambda: sorted(n for n in os.listdir(out_dir) if n != "CoreLib.dll")  # anything else is left over
errors = []
names = lambda found: f"{found[:3]}{f' and {len(found) - 3} more' if len(found) > 3 else ''}"

def run(env_scheme, wait=True):
    env = dict(os.environ)
    env.pop("CIL_INSTRUMENT_TEMPFILE", None)
    if env_scheme == "named":
        env["CIL_INSTRUMENT_TEMPFILE"] = "named"
    return subprocess.Popen([tool, src, "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)

# How long an uninterrupted run takes here, to spread the moments over it (not asserted).
started = time.monotonic()
p = run("unnamed")
p.wait()
span = time.monotonic() - started
print(f"an uninterrupted run took {span * 1000:.0f} ms; kills spread over 0..{span * 1200:.0f} ms")

stats = {}
for scheme in ("unnamed", "named"):
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        s = stats.setdefault((scheme, sig.name), {"finished": 0, "killed": 0, "old kept": 0, "new": 0, "absent": 0,
                                                 "with a temporary file": 0, "left for the next run": 0})
        for moment in range(20):
            existed = rng.random() < 0.5
            if os.path.exists(out):
                os.unlink(out)
            if existed:
                with open(out, "wb") as f:
                    f.write(old)
            label = f"{scheme} {sig.name} #{moment + 1} (OUT {'existed' if existed else 'absent'})"
            p = run(scheme)
            time.sleep(rng.uniform(0, span * 1.2))
            if p.poll() is None:
                if temporaries():
                    s["with a temporary file"] += 1
                p.send_signal(sig)
            p.wait()
            stderr = p.stderr.read().decode(errors="replace")
            if p.returncode == 0:
                s["finished"] += 1
            elif p.returncode == -sig:
                s["killed"] += 1
            else:
                errors.append(f"{label}: exit status {p.returncode}: {stderr[:200]}")
            if "error:" in stderr:
                errors.append(f"{label}: {stderr[:200]!r}")
            if not os.path.exists(out):
                s["absent"] += 1
                if existed:
                    errors.append(f"{label}: the old OUT was removed")
            else:
                content = open(out, "rb").read()
                if content == old:
                    s["old kept"] += 1
                elif hashlib.sha256(content).hexdigest() == ref_hash:
                    s["new"] += 1
                else:
                    errors.append(f"{label}: OUT is neither absent, the old one, nor complete ({len(content)} bytes)")
            if digest(src) != in_hash:
                errors.append(f"{label}: IN changed")
            left = temporaries()
            if left and (sig != signal.SIGKILL or (scheme == "unnamed" and not existed)):
                errors.append(f"{label}: left {names(left)}")
            if left:
                # SIGKILL runs no handler: the next run in the directory removes the file.
                s["left for the next run"] += 1
                p = run(scheme)
                p.wait()
                if p.returncode != 0:
                    errors.append(f"{label}: the next run failed")
                if temporaries():
                    errors.append(f"{label}: the next run left {names(temporaries())}")
        print(f"{scheme:8} {sig.name:8} " + ", ".join(f"{k} {v}" for k, v in s.items()))

for e in errors:
    print("FAIL:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
finish
