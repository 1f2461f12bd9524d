#!/usr/bin/env bash
# The runtime profiler (libcilprofiler.so) under `cil-instrument run`, on the installed dotnet:
#
#  1. count: for every .NET fixture, the count file of `run --mode count` lists the same methods
#     with the same counts as the count file of the offline-instrumented copy (same filter, same
#     input; for async state machines, which run as the thread pool schedules them, the counts of
#     testdata/expected/<Name>.counts); the mvids differ by design (the offline output gets a new
#     one). CpuBound runs long enough for tiered compilation to recompile its hot methods.
#  2. the program's stdout, stderr and exit status are the same with and without the profiler,
#     in every mode (and with framework methods selected, which turns precompiled code off).
#  3. events: the log of testdata/bin/profiler/Profiled.dll holds, in order, the load of its
#     module, its class loads, the exception thrown two frames down and caught (search, filter
#     of frames, catcher found, unwind with the finally, catcher enter/leave) and the GC that
#     GC.Collect() forces; method events obey the filters.
#  4. args: the args log of Profiled.dll, durations masked, equals
#     tests/golden/profiler/Profiled.args.txt (arguments: ints, doubles, floats, bools, chars,
#     strings, null, objects, arrays, structs, enums, ref, generics, `this`; return values of
#     every primitive, string, enum, struct, nullable, array, span, by-ref and boxed value; the
#     exception that unwound two frames); every call leaves once with a duration; CIL_REGEN=1
#     rewrites it.
#  5. a bad configuration (unknown mode, output that is not a directory) gives one line on
#     stderr, and the program runs as it would without the profiler.
#  6. modules without a file (loaded from bytes, Reflection.Emit) are profiled under the names
#     the runtime's metadata gives them, in every mode.
#  7. run lists the files of the processes the command started (a shell running two programs;
#     MSBuild's worker node), report reads them, and run names in one line the processes still
#     running when the command ends.
#
#   tests/scripts/profiler_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export LC_ALL=C LANG=C
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
LIB=$(dirname "$TOOL")/libcilprofiler.so
[ -f "$LIB" ] || { echo "skip: no $LIB"; exit 77; }
BIN=$ROOT/testdata/bin
PROFILED=$BIN/profiler/Profiled.dll
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# plain OUT COMMAND...: runs the command from testdata/bin, saving OUT.stdout/.stderr/.status.
plain() {
  local out=$1
  shift
  set +e
  (cd "$BIN" && timeout 120 "$@" > "$out.stdout" 2> "$out.stderr"; echo $? > "$out.status") 2> /dev/null
  set -e
}

# same_output LABEL A B: the same stdout, stderr and exit status.
same_output() {
  local label=$1 a=$2 b=$3 ok=1
  cmp -s "$a.status" "$b.status" || { fail "$label: exit status $(cat "$a.status") became $(cat "$b.status")"; ok=0; }
  cmp -s "$a.stdout" "$b.stdout" || { fail "$label: stdout differs"; diff "$a.stdout" "$b.stdout" | head -n 10 >&2 || true; ok=0; }
  cmp -s "$a.stderr" "$b.stderr" || { fail "$label: stderr differs"; diff "$a.stderr" "$b.stderr" | head -n 10 >&2 || true; ok=0; }
  return $((1 - ok))
}

# -----------------------------------------------------------------------------------------------
# 1. count mode at run time = offline count mode
# -----------------------------------------------------------------------------------------------
compare_counts() {  # compare_counts LABEL OFFLINE_REPORT RUNTIME_REPORT [EXPECTED_COUNTS]
  python3 - "$@" <<'PY'
import json, sys
label, offline_path, runtime_path = sys.argv[1:4]
expected = sys.argv[4] if len(sys.argv) > 4 else ""
def methods(path):
    data = json.load(open(path))
    if len(data["assemblies"]) != 1:
        sys.exit(f"FAIL: {label}: {path}: {len(data['assemblies'])} assemblies, expected 1")
    return data["assemblies"][0]["methods"]
a, b = methods(offline_path), methods(runtime_path)
errors = []
names_a = {(m["token"], m["name"]) for m in a}
names_b = {(m["token"], m["name"]) for m in b}
if names_a != names_b:
    errors.append(f"method lists differ: only offline {sorted(names_a - names_b)[:5]}, only at run time {sorted(names_b - names_a)[:5]}")
# Counts: all of them, or (for a fixture whose async methods depend on scheduling) those of
# testdata/expected/<Name>.counts, which lists only the deterministic ones.
only = None
if expected:
    only = {line.split(" ", 1)[1].strip() for line in open(expected) if line.strip()}
count_a = {(m["token"], m["name"]): m["count"] for m in a}
for m in b:
    key = (m["token"], m["name"])
    if key in count_a and count_a[key] != m["count"] and (only is None or m["name"] in only):
        errors.append(f"{m['name']} ({m['token']}): offline {count_a[key]}, at run time {m['count']}")
for e in errors[:10]:
    print(f"FAIL: {label}: {e}", file=sys.stderr)
if not errors:
    called = sum(1 for m in b if m["count"])
    print(f"ok   {label}: {len(b)} methods, {called} called, {sum(m['count'] for m in b)} calls, same as offline")
sys.exit(1 if errors else 0)
PY
}

count_fixture() {  # count_fixture PATH [scheduling]
  local path=$1 scheduling=${2:-} name dir label
  name=$(basename "$path" .dll)
  dir=$work/count/${path//\//_}
  label="count $path"
  mkdir -p "$dir/offline" "$dir/offline.counts" "$dir/runtime"
  cp "$BIN/${path%.dll}.runtimeconfig.json" "$dir/offline/"
  if ! "$TOOL" "$BIN/$path" -o "$dir/offline/$name.dll" --include 'Fixtures.*' > "$dir/instrument.log" 2>&1; then
    fail "$label: offline instrumenting failed: $(cat "$dir/instrument.log")"
    return
  fi
  (cd "$BIN/$(dirname "$path")" && CIL_INSTRUMENT_OUTPUT="$dir/offline.counts" timeout 120 dotnet "$dir/offline/$name.dll" \
    "${program_args[@]}" > /dev/null 2>&1) 2> /dev/null || true
  (cd "$BIN/$(dirname "$path")" && timeout 120 "$TOOL" run -q -o "$dir/runtime" --include 'Fixtures.*' -- dotnet "$BIN/$path" \
    "${program_args[@]}" > /dev/null 2>&1) 2> /dev/null || true
  local a=("$dir"/offline.counts/*.counts.json) b=("$dir"/runtime/*.counts.json)
  [ -e "${a[0]}" ] || { fail "$label: the offline-instrumented program wrote no count file"; return; }
  [ -e "${b[0]}" ] || { fail "$label: run --mode count wrote no count file ($(ls "$dir/runtime"))"; return; }
  [ ${#b[@]} = 1 ] || fail "$label: ${#b[@]} count files at run time"
  case "$(basename "${b[0]}")" in
    "$name".[0-9]*.counts.json) ;;
    *) fail "$label: the count file is named $(basename "${b[0]}")" ;;
  esac
  "$TOOL" report --json "${a[@]}" > "$dir/offline.json" || { fail "$label: report rejects the offline count file"; return; }
  "$TOOL" report --json "${b[@]}" > "$dir/runtime.json" || { fail "$label: report rejects the run-time count file"; return; }
  local expected=""
  [ -n "$scheduling" ] && expected=$ROOT/testdata/expected/$name.counts
  compare_counts "$label" "$dir/offline.json" "$dir/runtime.json" $expected || FAILURES=$((FAILURES + 1))
}

program_args=()
for f in profiler/Profiled.dll Basics.dll Control.dll Exceptions.dll Generics.dll Unsafe.dll Interop.dll Threads.dll \
  ExitCode.dll Unhandled.dll DebugInfo.Portable.dll debug/Control.dll debug/Exceptions.dll; do
  count_fixture "$f"
done
# Async state machines run as the thread pool schedules them: exact counts for the rest.
count_fixture AsyncIter.dll scheduling
count_fixture debug/AsyncIter.dll scheduling
# Long enough for tiered compilation to compile the hot methods again (and OSR to replace Main's
# loop) from the IL the profiler set: each method is instrumented once.
program_args=(2000000)
count_fixture profiler/CpuBound.dll
program_args=()

# -----------------------------------------------------------------------------------------------
# 2. the program's own output, with and without the profiler
# -----------------------------------------------------------------------------------------------
mkdir -p "$work/same"
for f in profiler/Profiled.dll Basics.dll Exceptions.dll Generics.dll Interop.dll Threads.dll ExitCode.dll Unhandled.dll; do
  base=$work/same/${f//\//_}
  plain "$base.plain" dotnet "$f"
  for mode in count events args; do
    filter=(--include 'Fixtures.*')
    [ "$mode" = events ] && filter=()
    plain "$base.$mode" "$TOOL" run -q --mode "$mode" -o "$work/same/out" "${filter[@]}" -- dotnet "$f"
    same_output "same output: $mode $f" "$base.plain" "$base.$mode" && echo "ok   same output: $mode $f"
  done
done
# Framework methods selected: precompiled code and inlining off, CoreLib rewritten as it runs.
base=$work/same/profiler_Profiled.dll
plain "$base.all" "$TOOL" run -q --include-framework -o "$work/same/all" -- dotnet profiler/Profiled.dll
same_output "same output: count, every method of every module" "$base.plain" "$base.all" &&
  echo "ok   same output: count, every method of every module ($(ls "$work/same/all" | grep -c counts.json) count files)"
ls "$work/same/all"/System.Private.CoreLib.*.counts.json > /dev/null 2>&1 || fail "count, every method: no count file for System.Private.CoreLib"
# Without --include-framework, patterns that name framework methods select nothing there: the
# framework keeps its precompiled code, and no file lists its methods.
plain "$base.nofw" "$TOOL" run -q -o "$work/same/nofw" --include 'System.*' --include 'Fixtures.*' -- dotnet profiler/Profiled.dll
same_output "same output: count without --include-framework" "$base.plain" "$base.nofw"
ls "$work/same/nofw"/System.*.counts.json > /dev/null 2>&1 && fail "without --include-framework, the framework was counted: $(ls "$work/same/nofw")"
ls "$work/same/nofw"/Profiled.*.counts.json > /dev/null 2>&1 || fail "without --include-framework, the app was not counted: $(ls "$work/same/nofw")"
echo "ok   the framework only with --include-framework: $(ls "$work/same/nofw" | tr '\n' ' ')"
plain "$base.fwargs" "$TOOL" run -q --mode args -o "$work/same/fwargs" --include-framework --include 'System.Console::WriteLine' -- dotnet profiler/Profiled.dll
same_output "same output: args on System.Console::WriteLine" "$base.plain" "$base.fwargs" &&
  echo "ok   same output: args on System.Console::WriteLine"
lines=$(grep -c '^\[T1\] enter System.Console::WriteLine(value="' "$work"/same/fwargs/cil-instrument.*.args.log || true)
[ "$lines" = "$(wc -l < "$base.plain.stdout")" ] ||
  fail "args on System.Console::WriteLine: $lines calls logged, the program printed $(wc -l < "$base.plain.stdout") lines"

# -----------------------------------------------------------------------------------------------
# 3. events
# -----------------------------------------------------------------------------------------------
mkdir -p "$work/events"
"$TOOL" run -q --mode events -o "$work/events/all" -- dotnet "$PROFILED" > /dev/null
"$TOOL" run -q --mode events -o "$work/events/app" --include 'Fixtures.*' -- dotnet "$PROFILED" > /dev/null
for variant in all app; do
  logs=("$work/events/$variant"/cil-instrument.*.events.log)
  [ -e "${logs[0]}" ] || { fail "events ($variant): no log"; continue; }
  # The expected lines in order, as Python regular expressions on the main thread's lines
  # without the thread tag and the indentation; other lines may come between them.
  python3 - "${logs[0]}" "$variant" <<'PY' || FAILURES=$((FAILURES + 1))
import re, sys
path, variant = sys.argv[1], sys.argv[2]
expected = r"""
Initialize: CoreCLR \d+\.\d+\.\d+, pid \d+, mode events
ThreadCreated T1
AppDomainCreationFinished DefaultDomain
ModuleLoadFinished /.*/testdata/bin/profiler/Profiled\.dll
ModuleAttachedToAssembly /.*/Profiled\.dll -> Profiled
AssemblyLoadFinished Profiled
ClassLoadFinished Fixtures\.Program
JITCompilationStarted Fixtures\.Program::Main
ClassLoadStarted Fixtures\.Shape
ClassLoadFinished Fixtures\.Shape
ClassLoadFinished Fixtures\.Pair
ClassLoadFinished Fixtures\.Calls
ClassLoadFinished Fixtures\.Square
JITCompilationFinished Fixtures\.Program::Main
JITCompilationStarted Fixtures\.Calls::Add
JITCompilationStarted Fixtures\.Program::Guarded
JITCompilationStarted Fixtures\.Program::Middle
JITCompilationStarted Fixtures\.Program::Fail
ExceptionThrown System\.InvalidOperationException
ExceptionSearchFunctionEnter Fixtures\.Program::Fail
ExceptionSearchFunctionLeave
ExceptionSearchFunctionEnter Fixtures\.Program::Middle
ExceptionSearchFunctionLeave
ExceptionSearchFunctionEnter Fixtures\.Program::Guarded
ExceptionSearchCatcherFound Fixtures\.Program::Guarded
ExceptionSearchFunctionLeave
ExceptionUnwindFunctionEnter Fixtures\.Program::Fail
ExceptionUnwindFunctionLeave
ExceptionUnwindFunctionEnter Fixtures\.Program::Middle
ExceptionUnwindFinallyEnter Fixtures\.Program::Middle
ExceptionUnwindFinallyLeave
ExceptionUnwindFunctionLeave
ExceptionUnwindFunctionEnter Fixtures\.Program::Guarded
ExceptionCatcherEnter Fixtures\.Program::Guarded System\.InvalidOperationException
ExceptionCatcherLeave
GarbageCollectionStarted gen0 gen1 gen2( loh)?( poh)? \(induced\)
GarbageCollectionFinished
Shutdown
""".strip().splitlines()
lines = open(path, encoding="utf-8").read().splitlines()
errors = []
main = []
for line in lines:
    m = re.match(r"\[(T\d+|--)\] ( *)(.*)$", line)
    if not m:
        errors.append(f"malformed line: {line!r}")
        continue
    if m.group(1) in ("T1", "--") or m.group(3) == "Shutdown":
        main.append((len(m.group(2)) // 2, m.group(3)))
i = 0
depth = {}
for n, (indent, text) in enumerate(main):
    if i < len(expected) and re.fullmatch(expected[i], text):
        depth[expected[i]] = indent
        i += 1
if i < len(expected):
    errors.append(f"expected line {i + 1} not found in order: {expected[i]}")
# Nesting: the finally inside the unwind of its frame, the catcher inside the unwind of the catching frame.
if depth.get(r"ExceptionUnwindFinallyEnter Fixtures\.Program::Middle", 0) != depth.get(r"ExceptionUnwindFunctionEnter Fixtures\.Program::Middle", -9) + 1:
    errors.append("ExceptionUnwindFinallyEnter is not nested in ExceptionUnwindFunctionEnter")
if depth.get(r"ExceptionSearchCatcherFound Fixtures\.Program::Guarded", 0) != depth.get(r"ExceptionSearchFunctionEnter Fixtures\.Program::Guarded", -9) + 1:
    errors.append("ExceptionSearchCatcherFound is not nested in its ExceptionSearchFunctionEnter")
if main and main[-1] != (0, "Shutdown"):
    errors.append(f"the log does not end with an unindented Shutdown: {main[-1]}")
jit_other = [t for _, t in main if t.startswith("JITCompilationStarted ") and not t.startswith("JITCompilationStarted Fixtures.")]
if variant == "app" and jit_other:
    errors.append(f"--include 'Fixtures.*' still logs other methods' JIT: {jit_other[:3]}")
if variant == "all" and not jit_other:
    errors.append("without filters, no framework method's JIT is logged")
if variant == "all" and not any(t.startswith("ManagedToUnmanagedTransition ") for _, t in main):
    errors.append("no managed/unmanaged transition logged")
for e in errors:
    print(f"FAIL: events ({variant}): {e}", file=sys.stderr)
if not errors:
    print(f"ok   events ({variant}): {len(expected)} expected lines in order among {len(lines)}")
sys.exit(1 if errors else 0)
PY
done

# -----------------------------------------------------------------------------------------------
# 4. args
# -----------------------------------------------------------------------------------------------
mkdir -p "$work/args"
"$TOOL" run -q --mode args -o "$work/args" --include 'Fixtures.*' -- dotnet "$PROFILED" > /dev/null
logs=("$work"/args/cil-instrument.*.args.log)
if [ -e "${logs[0]}" ]; then
  # Every call left once: by a return (with its value), or unwound by an exception; each leave
  # line ends with the time since its entry, which the golden file cannot hold.
  enters=$(grep -c '^\[T1\] enter ' "${logs[0]}" || true)
  leaves=$(grep -c '^\[T1\] leave ' "${logs[0]}" || true)
  [ "$enters" = "$leaves" ] || fail "args: $enters calls entered, $leaves left"
  grep '^\[T1\] leave ' "${logs[0]}" | grep -vE ' \([0-9]+\.[0-9] us\)$' | awk 'NR <= 3' | grep . && fail "args: a leave line without a duration"
  sed -E 's/ \([0-9]+\.[0-9] us\)$/ (T us)/' "${logs[0]}" > "$work/args.normalized"
  check_golden profiler/Profiled.args.txt "$work/args.normalized"
  echo "ok   args: $enters calls logged, each left with its value or exception and a duration"
else
  fail "args: no log"
fi
"$TOOL" run -q --mode args -o "$work/args2" --include 'Fixtures.Calls::*' --exclude '*::Echo' -- dotnet "$PROFILED" > /dev/null
logs=("$work"/args2/cil-instrument.*.args.log)
if [ -e "${logs[0]}" ]; then
  grep -vE '(enter|leave) Fixtures.Calls::' "${logs[0]}" | awk 'NR <= 3' | grep . && fail "args: --include 'Fixtures.Calls::*' logs other methods"
  grep -q '::Echo' "${logs[0]}" && fail "args: --exclude '*::Echo' still logs Echo"
  grep -q 'enter Fixtures.Calls::Add(a=2, b=-3)' "${logs[0]}" || fail "args: filtered log lacks Calls::Add"
else
  fail "args: no log with --include/--exclude"
fi

# -----------------------------------------------------------------------------------------------
# 6. modules without a file: Profiled.dll loaded from bytes, a Reflection.Emit assembly, a
#    DynamicMethod (testdata/bin/profiler/InMemory.dll). Named through the runtime's metadata.
# -----------------------------------------------------------------------------------------------
mkdir -p "$work/memory"
plain "$work/memory/plain" dotnet profiler/InMemory.dll
for mode in count events args; do
  plain "$work/memory/$mode" "$TOOL" run -q --mode "$mode" -o "$work/memory/$mode.out" --include 'Fixtures.*' \
    --include 'Emitted.*' -- dotnet profiler/InMemory.dll
  same_output "same output: $mode profiler/InMemory.dll" "$work/memory/plain" "$work/memory/$mode" &&
    echo "ok   same output: $mode profiler/InMemory.dll"
done
python3 - "$work/memory/count.out" <<'PY' || FAILURES=$((FAILURES + 1))
import glob, json, sys
files = {json.load(open(f))["assembly"]: json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*.counts.json")}
want = {
    # The module loaded from bytes has no file to list every method from: the instrumented ones.
    "Profiled": [("0x06000008", "Fixtures.Calls::Add", 1), ("0x0600000B", "Fixtures.Calls::Length", 1)],
    "Emitted": [("0x06000001", "Emitted.Doubler::Twice", 1)],
}
errors = []
for assembly, methods in want.items():
    got = [(m["token"], m["name"], m["count"]) for m in files.get(assembly, {}).get("methods", [])]
    if got != methods:
        errors.append(f"{assembly}: {got}, expected {methods}")
if "InMemory" not in files:
    errors.append(f"no count file for InMemory (have {sorted(files)})")
for e in errors:
    print(f"FAIL: count, modules without a file: {e}", file=sys.stderr)
if not errors:
    print("ok   count, modules without a file: Profiled from bytes and the emitted module counted by their runtime names")
sys.exit(1 if errors else 0)
PY
for line in 'ModuleLoadFinished Profiled.dll (in memory)' 'ModuleLoadFinished RefEmit_InMemoryManifestModule (in memory, dynamic)' \
  'JITCompilationStarted Emitted.Doubler::Twice'; do
  grep -qF "$line" "$work"/memory/events.out/cil-instrument.*.events.log || fail "events, modules without a file: no '$line'"
done
for line in '[T1] enter Fixtures.Calls::Add(a=20, b=22)' '[T1] enter Fixtures.Calls::Length(s="in memory")' \
  '[T1] enter Emitted.Doubler::Twice(arg1=21)'; do
  grep -qxF "$line" "$work"/memory/args.out/cil-instrument.*.args.log || fail "args, modules without a file: no '$line'"
done
ls "$work"/memory/*.out/cil-instrument.*[0-9].log > /dev/null 2>&1 && fail "modules without a file: warnings: $(cat "$work"/memory/*.out/cil-instrument.*[0-9].log | head -n 3)"

# -----------------------------------------------------------------------------------------------
# 5. a bad configuration: one line, and the program runs unprofiled
# -----------------------------------------------------------------------------------------------
mkdir -p "$work/decline"
touch "$work/decline/not-a-directory"
plain "$work/decline/plain" dotnet ExitCode.dll
declined() {  # declined LABEL EXPECTED_LINE VAR=VALUE...
  local label=$1 line=$2 out=$work/decline/$1
  shift 2
  plain "$out" env CORECLR_ENABLE_PROFILING=1 "CORECLR_PROFILER={BBADE716-B1FC-41BB-ADF4-126D6D6D6410}" \
    "CORECLR_PROFILER_PATH=$LIB" "$@" dotnet ExitCode.dll
  [ "$(grep -cxF "$line" "$out.stderr")" = 1 ] || { fail "decline ($label): stderr lacks the line '$line':"; cat "$out.stderr" >&2; }
  grep -vxF "$line" "$out.stderr" > "$out.rest" || true
  mv "$out.rest" "$out.stderr"
  same_output "decline ($label)" "$work/decline/plain" "$out" &&
    echo "ok   decline ($label): one line, exit status $(cat "$out.status") as without the profiler"
}
mkdir -p "$work/decline/empty"
declined mode "cil-instrument: profiler not loaded: CIL_INSTRUMENT_MODE: unknown mode 'fast' (count, events, args, coverage or trace)" \
  CIL_INSTRUMENT_MODE=fast "CIL_INSTRUMENT_OUTPUT=$work/decline/empty"
[ -z "$(ls "$work/decline/empty")" ] || fail "decline (mode): files were written: $(ls "$work/decline/empty")"
declined output "cil-instrument: profiler not loaded: CIL_INSTRUMENT_OUTPUT: '$work/decline/not-a-directory' is not a directory" \
  CIL_INSTRUMENT_MODE=events "CIL_INSTRUMENT_OUTPUT=$work/decline/not-a-directory"
# A directory this user may not write to (root may write anywhere: not testable as root).
if [ "$(id -u)" != 0 ]; then
  mkdir -p "$work/decline/read-only"
  chmod 555 "$work/decline/read-only"
  declined read-only "cil-instrument: profiler not loaded: CIL_INSTRUMENT_OUTPUT: '$work/decline/read-only' is not writable" \
    CIL_INSTRUMENT_MODE=count "CIL_INSTRUMENT_OUTPUT=$work/decline/read-only"
  chmod 755 "$work/decline/read-only"
fi

# run's own errors: a mode it does not know, a command that does not exist.
set +e
"$TOOL" run --mode trace -- dotnet ExitCode.dll > /dev/null 2> "$work/run.err"
rc=$?
[ $rc = 2 ] || fail "run --mode trace: exit status $rc instead of 2"
"$TOOL" run -q -- "$work/no-such-command" > /dev/null 2> "$work/run.err"
rc=$?
[ $rc = 127 ] || fail "run with a missing command: exit status $rc instead of 127"
set -e
grep -q "cannot run '$work/no-such-command': No such file or directory" "$work/run.err" || fail "run with a missing command: $(cat "$work/run.err")"

# -----------------------------------------------------------------------------------------------
# 7. processes started from the command: their files are listed with the command's, and those
#    still running when it ends are named in one line (a shell leaves a background job behind,
#    started first: a process in the middle of its exec has no environment to read).
# -----------------------------------------------------------------------------------------------
mkdir -p "$work/children"
# The background job outlives the command however slow the machine (it is ended below).
"$TOOL" run --include 'Fixtures.*' -o "$work/children" -- bash -c "sleep 600 & dotnet '$ROOT/testdata/bin/Basics.dll' > /dev/null; dotnet '$ROOT/testdata/bin/Generics.dll' > /dev/null" \
  > /dev/null 2> "$work/children.err" || fail "children: run failed: $(cat "$work/children.err")"
for name in Basics Generics; do
  grep -q "^cil-instrument: run: wrote $work/children/$name\.[0-9]*\.counts\.json$" "$work/children.err" ||
    fail "children: $name's counts file is not listed: $(cat "$work/children.err")"
done
grep -qE "^cil-instrument: run: 1 process started from the command still runs \([0-9]+\): its files will appear in $work/children when it ends$" \
  "$work/children.err" || fail "children: the background job is not named: $(cat "$work/children.err")"
echo "ok   children: $(grep -c ' wrote ' "$work/children.err") files of processes started from the command, one still running named"
background=$(sed -nE 's/.*still runs \(([0-9]+)\).*/\1/p' "$work/children.err")
[ -z "$background" ] || kill "$background" 2> /dev/null || true
# MSBuild building out of its own process (MSBUILDNOINPROCNODE=1): the worker node's files are
# listed beside the entry process's, and report reads them all.
mkdir -p "$work/msbuild/app" "$work/msbuild/out"
printf '%s\n' '<Project Sdk="Microsoft.NET.Sdk">' '  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>' \
  '</Project>' > "$work/msbuild/app/app.csproj"
echo 'System.Console.WriteLine("built");' > "$work/msbuild/app/Program.cs"
if (cd "$work/msbuild/app" && MSBUILDNOINPROCNODE=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 timeout 300 \
      "$TOOL" run --mode count --include 'Microsoft.Build.*' -o "$work/msbuild/out" -- dotnet build -nodeReuse:false -v:q \
      > "$work/msbuild/stdout" 2> "$work/msbuild/stderr"); then
  pids=$(sed -nE 's|^cil-instrument: run: wrote .*\.([0-9]+)\.counts\.json$|\1|p' "$work/msbuild/stderr" | sort -u | wc -l)
  [ "$pids" -ge 2 ] || fail "msbuild: the files of $pids process(es) listed, expected the entry process's and a node's: $(head -3 "$work/msbuild/stderr")"
  "$TOOL" report "$work"/msbuild/out/*.counts.json > "$work/msbuild/report.txt" 2>&1 || fail "msbuild: report refused the files: $(tail -2 "$work/msbuild/report.txt")"
  echo "ok   msbuild out of process: files of $pids processes listed, report reads all $(ls "$work/msbuild/out" | wc -l)"
else
  fail "msbuild under run failed: $(tail -3 "$work/msbuild/stderr")"
fi

finish
