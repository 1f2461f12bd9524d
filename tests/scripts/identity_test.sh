#!/usr/bin/env bash
# Refactors of the engine must not change a byte of its outputs. For every input (the .NET shared
# framework, Mono's libraries when installed, every fixture and the peer corpus) and every mode
# (count, noop, wrap, trace), the SHA-256 of the output, or the exit status when the tool refuses
# the input, must equal what tests/golden/identity.txt recorded, keyed by the input's SHA-256 (so
# a machine with another .NET patch release checks only the inputs it shares with the recording;
# the fixtures are always checked). CIL_REGEN=1 rewrites the record from the current tool; do that
# only in a commit that means to change outputs, and say so in it.
#   tests/scripts/identity_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# About 2,300 runs: the plain build's pass checks them; under the sanitizers it would take several
# times as long and find nothing the other ASan tests on the same code paths do not.
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "identity: skipped under the sanitizers"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
record="$ROOT/tests/golden/identity.txt"
hooks="$ROOT/testdata/bin/trace/TraceHooks.dll"

{
  find "$ROOT/testdata/bin" -type f \( -name '*.dll' -o -name '*.exe' \) | sort
  find "$(framework_dir)" -maxdepth 1 -name '*.dll' | sort
  [ -d /usr/lib/mono/4.5 ] && find /usr/lib/mono/4.5 -maxdepth 1 \( -name '*.dll' -o -name '*.exe' \) | sort
  [ -d "$CORPUS" ] && find "$CORPUS" -type f \( -name '*.dll' -o -name '*.exe' \) | sort
} > "$work/inputs"

# For each input: "<input sha256> <mode> <output sha256 | exit N>" for each mode. One Python
# process with two workers runs the tool about 2,300 times and hashes in process: a shell loop
# spent more time starting sha256sum, cut and rm than the tool spent instrumenting.
python3 - "$TOOL" "$hooks" "$work" "$work/inputs" > "$work/actual.all" <<'PY'
import concurrent.futures, hashlib, os, subprocess, sys, tempfile
tool, hooks, work, listed = sys.argv[1:5]
def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
def one(path):
    lines, digest = [], sha(path)
    with tempfile.TemporaryDirectory(dir=work) as d:
        out = os.path.join(d, "out")
        for mode in ("count", "noop", "wrap", "trace"):
            args = [tool, path, "-o", out, "--mode", mode] + (["--hooks", hooks] if mode == "trace" else [])
            rc = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            lines.append(f"{digest} {mode} {sha(out)}" if rc == 0 else f"{digest} {mode} exit {128 - rc if rc < 0 else rc}")
            for leftover in (out, out + ".pdb"):  # a standalone PDB is written beside the output
                if os.path.exists(leftover):
                    os.remove(leftover)
    return lines
with open(listed) as f:
    inputs = [line.rstrip("\n") for line in f if line.strip()]
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    for lines in pool.map(one, inputs):
        print("\n".join(lines))
PY
# The same input may appear twice (a fixture copied into two folders): one line each is enough.
sort -u "$work/actual.all" > "$work/actual"
count=$(wc -l < "$work/actual")
[ "$count" -gt 0 ] || { fail "no output was recorded"; finish; }

if [ "${CIL_REGEN:-0}" = 1 ]; then
  cp "$work/actual" "$record"
  echo "identity: recorded $count outputs"
  exit 0
fi
[ -f "$record" ] || { fail "no $record (run with CIL_REGEN=1)"; finish; }
# Only the inputs the record knows; every fixture must be among them.
join -j1 <(cut -d' ' -f1 "$record" | sort -u) <(cut -d' ' -f1 "$work/actual" | sort -u) > "$work/shared"
awk 'NR==FNR { shared[$1]=1; next } ($1 in shared)' "$work/shared" "$work/actual" | sort > "$work/actual.shared"
awk 'NR==FNR { shared[$1]=1; next } ($1 in shared)' "$work/shared" "$record" | sort > "$work/record.shared"
checked=$(wc -l < "$work/actual.shared")
if ! diff "$work/record.shared" "$work/actual.shared" > "$work/diff"; then
  fail "outputs differ from the record (input sha256, mode, output sha256 or exit status):"
  head -40 "$work/diff" >&2
fi
while IFS= read -r fixture; do
  h=$(sha256sum < "$fixture" | cut -c1-64)
  grep -q "^$h " "$record" || fail "fixture $fixture is not in the record (run with CIL_REGEN=1 after rebuilding it)"
done < <(grep "^$ROOT/testdata/bin/" "$work/inputs")
echo "identity: $checked of $count outputs checked against the record"
finish
