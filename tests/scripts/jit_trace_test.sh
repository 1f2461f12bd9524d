#!/usr/bin/env bash
# Trace mode at JIT time (issue 38): `cil-instrument run --mode trace --hooks HOOKS.dll -- dotnet
# APP.dll` changes no file, and the hooks' log is the offline trace's golden log line for line:
#  - TraceApp (every kind of method) with TraceHooks, the app run from a folder without the hooks
#    and with no deps.json, then again with a deps.json that does not list them;
#  - SlimHooks' types one at a time (--hook-type), each with its golden log;
#  - ExceptionOrder: the program's own log (exception order, identity, stack frames) and exit
#    status are the original's, and the hooks' log is the offline golden one;
#  - tests/data/intercept with its two hooks assemblies: the offline golden outputs;
#  - ThrowLines (Debug and Release, portable PDB): every stack trace names the plain run's
#    file:line (the offset map goes to the runtime with each traced body);
#  - stdout and exit status are the original's every time;
# and bad input is one line before the program starts: a missing hooks file (exit 3), a broken
# contract, a generic hook method or type, a hook type not found, a framework assembly's name
# (exit 2); hooks that pass every check but cannot be loaded at run time (their hook type's base
# class is in an assembly that is missing) leave the program to run untraced, with its own output
# and exit status, after one line saying why, before the program's first output.
#   tests/scripts/jit_trace_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
bin="$ROOT/testdata/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run PREFIX LOG DIR COMMAND...: in DIR, stdout, stderr and exit status of COMMAND; the hooks log to LOG.
run() {
  local prefix=$1 log=$2 dir=$3
  shift 3
  # (In a child shell whose own stderr is dropped: a program that aborts on purpose is no news.)
  bash -c 'cd "$3" && CIL_TRACE_LOG="$2" timeout 300 "${@:4}" > "$1.stdout" 2> "$1.stderr"; echo $? > "$1.status"' _ \
    "$prefix" "$log" "$dir" "$@" 2> /dev/null || true
}

same() {  # same LABEL A B: stdout and exit status
  local ok=0
  cmp -s "$2.stdout" "$3.stdout" || { fail "$1: stdout differs"; diff "$2.stdout" "$3.stdout" | head -5 >&2 || true; ok=1; }
  cmp -s "$2.status" "$3.status" || { fail "$1: exit status $(cat "$2.status") became $(cat "$3.status")"; ok=1; }
  return $ok
}

# A folder with the app alone: no hooks beside it, no deps.json.
mkdir -p "$work/app"
cp "$bin/trace/TraceApp.dll" "$bin/trace/TraceApp.runtimeconfig.json" "$work/app/"
hooks="$bin/trace/TraceHooks.dll"

echo "== TraceApp with TraceHooks, no deps.json"
run "$work/plain" "$work/unused.log" "$work/app" dotnet TraceApp.dll
run "$work/jit" "$work/jit.log" "$work/app" "$TOOL" run -q --mode trace --hooks "$hooks" -- dotnet TraceApp.dll
if same "TraceApp" "$work/plain" "$work/jit"; then
  [ -s "$work/jit.log" ] || fail "TraceApp: the hooks logged nothing: $(head -3 "$work/jit.stderr")"
  check_golden trace/TraceApp.log "$work/jit.log"
  cmp -s "$ROOT/tests/golden/trace/TraceApp.log" "$work/jit.log" && echo "ok   TraceApp: $(grep -c 'enter ' "$work/jit.log") hook calls logged, as offline"
fi
[ "$(ls "$work/app")" = "$(printf 'TraceApp.dll\nTraceApp.runtimeconfig.json')" ] || fail "TraceApp: files appeared beside the app: $(ls "$work/app")"

echo "== TraceApp with a deps.json that does not list the hooks"
cat > "$work/app/TraceApp.deps.json" <<'JSON'
{
  "runtimeTarget": { "name": ".NETCoreApp,Version=v10.0" },
  "targets": { ".NETCoreApp,Version=v10.0": { "TraceApp/1.0.0": { "runtime": { "TraceApp.dll": {} } } } },
  "libraries": { "TraceApp/1.0.0": { "type": "project", "serviceable": false, "sha512": "" } }
}
JSON
run "$work/plain-deps" "$work/unused.log" "$work/app" dotnet TraceApp.dll
run "$work/jit-deps" "$work/jit-deps.log" "$work/app" "$TOOL" run -q --mode trace --hooks "$hooks" -- dotnet TraceApp.dll
if same "TraceApp (deps.json)" "$work/plain-deps" "$work/jit-deps"; then
  check_golden trace/TraceApp.log "$work/jit-deps.log"
  cmp -s "$ROOT/tests/golden/trace/TraceApp.log" "$work/jit-deps.log" && echo "ok   TraceApp with a deps.json: the golden log"
fi
rm "$work/app/TraceApp.deps.json"

echo "== SlimHooks, one hook type at a time"
for type in EnterOnly LeaveOnly ExceptionOnly; do
  run "$work/slim-$type" "$work/slim-$type.log" "$work/app" "$TOOL" run -q --mode trace --hooks "$bin/trace/SlimHooks.dll" \
    --hook-type "SlimHooks.$type" -- dotnet TraceApp.dll
  same "SlimHooks.$type" "$work/plain" "$work/slim-$type" && check_golden "trace/slim-$type.log" "$work/slim-$type.log"
  cmp -s "$ROOT/tests/golden/trace/slim-$type.log" "$work/slim-$type.log" && echo "ok   SlimHooks.$type: the golden log"
done

echo "== ExceptionOrder: exception order and stack frames"
mkdir -p "$work/order"
cp "$bin/mono/ExceptionOrder.exe" "$bin/mono/ExceptionOrder.runtimeconfig.json" "$work/order/"
run "$work/order-plain" "$work/unused.log" "$work/order" dotnet ExceptionOrder.exe
run "$work/order-jit" "$work/order.log" "$work/order" "$TOOL" run -q --mode trace --hooks "$hooks" -- dotnet ExceptionOrder.exe
if same "ExceptionOrder" "$work/order-plain" "$work/order-jit"; then
  check_golden trace/ExceptionOrder.hooks.log "$work/order.log"
  cmp -s "$ROOT/tests/golden/trace/ExceptionOrder.hooks.log" "$work/order.log" && echo "ok   ExceptionOrder: the original's events, frames and exit status $(cat "$work/order-jit.status"); the golden hooks' log"
fi

echo "== interception (tests/data/intercept): the offline goldens"
# The memoizing/validating OnEnter, OnLeave's ref result, the replacing OnException, and the
# suppressing hooks; InterceptHooks references the app itself, which the default context has.
src="$ROOT/tests/data/intercept"
mkdir -p "$work/ic/app" "$work/ic/lib"
"$ROOT/scripts/csc.sh" "$work/ic/app/InterceptApp.dll" "$src/App.cs" > "$work/ic/csc.log" 2>&1 &&
  "$ROOT/scripts/csc.sh" "$work/ic/lib/InterceptHooks.dll" /target:library "/r:$work/ic/app/InterceptApp.dll" "$src/Hooks.cs" >> "$work/ic/csc.log" 2>&1 &&
  "$ROOT/scripts/csc.sh" "$work/ic/lib/SuppressHooks.dll" /target:library "$src/SuppressHooks.cs" >> "$work/ic/csc.log" 2>&1 ||
  fail "csc intercept: $(tail -2 "$work/ic/csc.log")"
for name in main:InterceptHooks suppress:SuppressHooks; do
  (cd "$work/ic/app" && timeout 300 "$TOOL" run -q --mode trace --hooks "$work/ic/lib/${name#*:}.dll" --include 'InterceptApp.Work::*' \
    -- dotnet InterceptApp.dll > "$work/ic/${name%%:*}.txt" 2>&1) || fail "intercept ${name%%:*}: exit status $?"
  check_golden "trace/intercept.${name%%:*}.txt" "$work/ic/${name%%:*}.txt"
  cmp -s "$ROOT/tests/golden/trace/intercept.${name%%:*}.txt" "$work/ic/${name%%:*}.txt" && echo "ok   intercept ${name%%:*}: the golden output"
done

echo "== stack traces keep file:line (ThrowLines, Debug and Release)"
# testdata/src/ThrowLines throws from known lines in 14 shapes and prints every trace; with an
# argument one more exception is left unhandled (exit 134). Traced at JIT time with TraceHooks,
# stdout, stderr and exit status are the plain run's: every frame names the same line.
mkdir -p "$work/lines"
for build in Debug:- Release:+; do
  "$ROOT/scripts/csc.sh" "$work/lines/ThrowLines.${build%%:*}.dll" /pathmap:"$ROOT/testdata"=/_/testdata /nowarn:CS0649 \
    "/optimize${build##*:}" /debug:portable "$ROOT"/testdata/src/ThrowLines/*.cs > "$work/lines/csc.log" 2>&1 ||
    fail "csc ThrowLines: $(tail -2 "$work/lines/csc.log")"
done
for build in Debug Release; do
  run "$work/lines-$build.plain" "$work/unused.log" "$work/lines" dotnet "ThrowLines.$build.dll" unhandled
  run "$work/lines-$build.jit" "$work/lines-$build.log" "$work/lines" "$TOOL" run -q --mode trace --hooks "$hooks" \
    --include 'Fixtures.*' -- dotnet "ThrowLines.$build.dll" unhandled
  frames=$(grep -c ' in /_/testdata/src/ThrowLines/ThrowLines.cs:line ' "$work/lines-$build.plain.stdout" "$work/lines-$build.plain.stderr" |
    awk -F: '{n += $2} END {print n}')
  [ "$frames" -ge 50 ] || fail "ThrowLines $build: the plain run shows only $frames frames with a line"
  ok=1
  for part in stdout stderr status; do
    cmp -s "$work/lines-$build.plain.$part" "$work/lines-$build.jit.$part" ||
      { fail "ThrowLines $build: $part differs"; diff "$work/lines-$build.plain.$part" "$work/lines-$build.jit.$part" | head -8 >&2; ok=0; }
  done
  calls=$(grep -c 'enter Fixtures\.' "$work/lines-$build.log" 2> /dev/null || true)
  [ "${calls:-0}" -ge 14 ] || { fail "ThrowLines $build: the hooks saw ${calls:-0} calls of Fixtures methods"; ok=0; }
  [ $ok = 1 ] && echo "ok   ThrowLines $build: $frames frames with the plain run's lines; $calls traced calls"
done

echo "== bad hooks: one line, the program never starts"
# bad LABEL STATUS ARGS...: `run` refuses with exit STATUS and one line, and runs nothing.
bad() {
  local label=$1 status=$2
  shift 2
  run "$work/bad" "$work/bad.log" "$work/app" "$TOOL" run --mode trace "$@" -- dotnet TraceApp.dll
  [ "$(cat "$work/bad.status")" = "$status" ] || fail "$label: exit status $(cat "$work/bad.status"), not $status"
  [ ! -s "$work/bad.stdout" ] || fail "$label: the program ran: $(head -1 "$work/bad.stdout")"
  # One line; a command-line error adds the usual pointer to --help.
  grep -v "^Try 'cil-instrument --help'.\$" "$work/bad.stderr" > "$work/bad.lines" || true
  [ "$(wc -l < "$work/bad.lines")" = 1 ] || fail "$label: $(wc -l < "$work/bad.lines") lines: $(cat "$work/bad.stderr")"
  echo "ok   $label: $(cat "$work/bad.lines")"
}
bad "missing hooks file" 3 --hooks "$work/NoSuchHooks.dll"
bad "broken contract" 2 --hooks "$bin/trace/BadHooks.dll" --hook-type BadHooks.WrongType
bad "generic hook method" 2 --hooks "$bin/trace/BadHooks.dll" --hook-type BadHooks.GenericHook
bad "no hook type" 2 --hooks "$bin/trace/BadHooks.dll" --hook-type BadHooks.Missing
bad "--hooks without trace" 2 --hooks "$hooks" --mode count
# A hooks assembly named like a framework assembly: the runtime would bind the framework's.
mkdir -p "$work/fw"
cat > "$work/fw/Hooks.cs" <<'CS'
namespace FrameworkNamed { public static class Hooks { public static void OnEnter(string method) { } } }
CS
"$ROOT/scripts/csc.sh" "$work/fw/System.Text.Json.dll" /target:library "$work/fw/Hooks.cs" > "$work/fw/csc.log" 2>&1 ||
  fail "csc System.Text.Json: $(tail -2 "$work/fw/csc.log")"
bad "framework assembly name" 2 --hooks "$work/fw/System.Text.Json.dll"
# A generic hook type: the traced code would call it without type arguments.
cat > "$work/fw/Gen.cs" <<'CS'
namespace GenHooks { public static class Gen<T> { public static void OnEnter(string method) { } } }
CS
"$ROOT/scripts/csc.sh" "$work/fw/GenHooks.dll" /target:library "$work/fw/Gen.cs" > "$work/fw/csc.log" 2>&1 ||
  fail "csc GenHooks: $(tail -2 "$work/fw/csc.log")"
bad "generic hook type" 2 --hooks "$work/fw/GenHooks.dll" --hook-type 'GenHooks.Gen`1'

echo "== hooks that cannot be loaded at run time: the program runs untraced"
mkdir -p "$work/late"
cat > "$work/late/Base.cs" <<'CS'
namespace LateBase { public class HookBase { } }
CS
cat > "$work/late/Hooks.cs" <<'CS'
namespace LateHooks {
  public class Hooks : LateBase.HookBase {
    public static void OnEnter(string method) { System.IO.File.AppendAllText(System.Environment.GetEnvironmentVariable("CIL_TRACE_LOG"), "enter " + method + "\n"); }
  }
}
CS
"$ROOT/scripts/csc.sh" "$work/late/LateBase.dll" /target:library "$work/late/Base.cs" > "$work/late/csc.log" 2>&1 || fail "csc LateBase: $(tail -2 "$work/late/csc.log")"
"$ROOT/scripts/csc.sh" "$work/late/LateHooks.dll" /target:library "/r:$work/late/LateBase.dll" "$work/late/Hooks.cs" > "$work/late/csc.log" 2>&1 ||
  fail "csc LateHooks: $(tail -2 "$work/late/csc.log")"
rm -f "$work/late/LateBase.dll"
run "$work/late-run" "$work/late.log" "$work/app" "$TOOL" run -q --mode trace --hooks "$work/late/LateHooks.dll" -- dotnet TraceApp.dll
if same "late failure" "$work/plain" "$work/late-run"; then
  [ ! -s "$work/late.log" ] || fail "late failure: the hooks logged $(wc -l < "$work/late.log") lines"
  grep -v '^cil-instrument: profiler not loaded: hooks LateHooks.dll: cannot be loaded at run time' "$work/late-run.stderr" > "$work/late-rest" || true
  [ "$(grep -c 'LateHooks.dll' "$work/late-run.stderr")" = 1 ] || fail "late failure: not one line: $(cat "$work/late-run.stderr")"
  [ ! -s "$work/late-rest" ] || fail "late failure: more on stderr: $(head -3 "$work/late-rest")"
  # The line comes before the program's first output (the loader runs before Main).
  (cd "$work/app" && CIL_TRACE_LOG="$work/late.log" timeout 300 "$TOOL" run -q --mode trace --hooks "$work/late/LateHooks.dll" \
    -- dotnet TraceApp.dll > "$work/late-merged" 2>&1) || true
  head -1 "$work/late-merged" | grep -q '^cil-instrument: profiler not loaded: hooks LateHooks.dll' ||
    fail "late failure: the first line is $(head -1 "$work/late-merged")"
  echo "ok   late failure: $(cat "$work/late-run.stderr")"
fi
finish
