#!/usr/bin/env bash
# Stack traces under `cil-instrument run --mode count` name the original source lines (issue
# 12.3): the profiler gives the runtime each probed method's offset map
# (ICorProfilerInfo::SetILInstrumentedCodeMap), and the runtime maps the JIT's IL offsets of the
# probed body back to the original's before it reads the portable PDB.
#
# testdata/src/ThrowLines, compiled here into ThrowLines.{Debug,Release}.dll (portable PDBs,
# /optimize- and /optimize+; not kept under testdata/bin, whose every file the offline golden and
# identity tests cover, and whose PDB-reading dumps would change with each PDB feature) throw from known lines in 14 shapes (first line, mid-method, nested calls, divide by zero, null
# dereference, async, iterator, lambda, generic over a value and a reference type, constructor,
# throw in a finally, through a finally, filter and rethrow) and print every trace; with an
# argument, one more exception is left unhandled (the runtime prints its trace on stderr, exit
# 134). For each build, with the framework selected (--include-framework: no precompiled code), with
# --include 'Fixtures.*', and with the probes put in through ReJIT (--window 0:10m --include
# 'Fixtures.*': the body and offset map handed over by GetReJITParameters, as attach does), stdout,
# stderr and exit status equal the plain run's, and:
#  - the plain run's traces are worth comparing: every frame of the fixture names
#    ThrowLines.cs:line N (at least 50 such frames, 14 scenarios);
#  - the frames' methods were really probed: the counts file gives each a non-zero count (through
#    ReJIT, at least half of them: a method called before the window's request reached its
#    module runs without its probe, the window's documented edge; CI saw a lambda of Main missed).
# Without the map (before the fix) the first diff already showed "line 48" become "line 50".
#
#   tests/scripts/profiler_lines_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export LC_ALL=C LANG=C
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
[ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
DIR=$work/bin
# Paths in the PDB as testdata/build.sh maps them, so traces read /_/testdata/src/...
for build in Debug:- Release:+; do
  "$ROOT/scripts/csc.sh" "$DIR/ThrowLines.${build%%:*}.dll" /pathmap:"$ROOT/testdata"=/_/testdata /nowarn:CS0649 \
    "/optimize${build##*:}" /debug:portable "$ROOT"/testdata/src/ThrowLines/*.cs > "$work/csc.log" 2>&1 ||
    { cat "$work/csc.log" >&2; exit 1; }
done

# capture OUT COMMAND...: runs from the fixture directory, saving OUT.stdout/.stderr/.status.
capture() {
  local out=$1
  shift
  set +e
  (cd "$DIR" && timeout 120 "$@" > "$out.stdout" 2> "$out.stderr"; echo $? > "$out.status") 2> /dev/null
  set -e
}

for build in Debug Release; do
  dll=ThrowLines.$build.dll
  capture "$work/$build.plain" dotnet "$dll" unhandled
  [ "$(cat "$work/$build.plain.status")" = 134 ] || fail "$build: plain run exited $(cat "$work/$build.plain.status"), expected 134"
  python3 - "$build" "$work/$build.plain" <<'PY' || fail "$build: the plain run's traces"
import re, sys
label, base = sys.argv[1:3]
text = open(base + ".stdout").read() + open(base + ".stderr").read()
frames = [l for l in text.splitlines() if l.startswith("   at Fixtures.")]
bad = [l for l in frames if not re.search(r" in /_/testdata/src/ThrowLines/ThrowLines\.cs:line \d+$", l)]
scenarios = text.count("\n== ") + text.startswith("== ")
if bad or len(frames) < 50 or scenarios != 14 or "Unhandled exception." not in text:
    sys.exit(f"FAIL: {label}: {len(frames)} fixture frames, {scenarios} scenarios, without a line: {bad[:3]}")
PY
  for filter in all fixtures rejit; do
    label="$build/$filter"
    out=$work/$build.$filter
    mkdir -p "$out.files"
    args=(run -q --mode count -o "$out.files")
    [ "$filter" = all ] && args+=(--include-framework)
    [ "$filter" = fixtures ] && args+=(--include 'Fixtures.*')
    [ "$filter" = rejit ] && args+=(--window 0:10m --include 'Fixtures.*')
    capture "$out" "$TOOL" "${args[@]}" -- dotnet "$dll" unhandled
    for part in status stdout stderr; do
      if ! cmp -s "$work/$build.plain.$part" "$out.$part"; then
        fail "$label: $part differs from the plain run"
        diff "$work/$build.plain.$part" "$out.$part" | head -n 12 >&2 || true
      fi
    done
    python3 - "$label" "$work/$build.plain" "$out.files" <<'PY' || fail "$label: counts"
import glob, json, re, sys
label, base, files = sys.argv[1:4]
paths = glob.glob(files + "/ThrowLines.*.counts.json")
if len(paths) != 1:
    sys.exit(f"FAIL: {label}: {len(paths)} counts files for ThrowLines")
counts = {m["name"]: m["count"] for m in json.load(open(paths[0]))["methods"]}
text = open(base + ".stdout").read() + open(base + ".stderr").read()
# "at Fixtures.T.M(...)", "at Fixtures.T.<>c.<Main>b__15_0()", "at Fixtures.T.Iterate(Int32 n)+MoveNext()"
missing = []
keys = 0
for frame in sorted({l.split(" in ")[0].strip()[3:] for l in text.splitlines() if l.startswith("   at Fixtures.")}):
    head = re.sub(r"\(.*?\)", "", frame.split("+")[0]).replace("..ctor", ".\x00ctor")
    if head.startswith("Fixtures.Boxes`1["):
        head = "Fixtures.Boxes`1" + head[head.index("]") + 1:]
    parts = head.split(".")
    if "<>c" in parts:
        i = parts.index("<>c")
        key = ".".join(parts[:i]) + "/<>c::" + ".".join(parts[i + 1:])
    else:
        key = ".".join(parts[:-1]) + "::" + parts[-1]
    key = key.replace("\x00", ".")
    # An async or iterator method's frame runs in its state machine's MoveNext (an iterator's
    # frame says so with "+MoveNext()", an async one does not): that body must be probed too.
    machine = [n for n in counts if re.search(rf"/<{re.escape(parts[-1])}>d__\d+::MoveNext$", n)]
    if "+MoveNext" in frame:
        key = machine[0] if machine else key + "+MoveNext"
    for k in [key] + machine:
        keys += 1
        if counts.get(k, 0) <= 0:
            missing.append(f"{frame} ({k})")
if label.endswith("/rejit"):
    if len(missing) * 2 > keys:
        sys.exit(f"FAIL: {label}: {len(missing)} of {keys} frames' methods without a count: {missing[:5]}")
elif missing:
    sys.exit(f"FAIL: {label}: frames of methods without a count: {missing[:5]}")
PY
  done
done

[ "$FAILURES" -eq 0 ] || exit 1
echo "profiler_lines: OK (2 builds x 3 filters, every frame's file:line as without the profiler)"
