#!/usr/bin/env bash
# Trace mode end to end: the fixture that exercises every kind of method runs with the hooks of
# testdata/src/TraceHooks and produces the golden hook log; every other fixture, traced, runs
# exactly as before (dotnet, and mono with a Mono build of the hooks), and MonoVarargs's hook log
# on mono is golden too; every broken hook contract gets one clear error and no output; a real
# library (Newtonsoft.Json, from the .NET SDK) traced under a driver program gives the same output
# as untraced; and System.Reflection.Metadata reads every traced output.
#   tests/scripts/trace_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bin="$ROOT/testdata/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run DIR RUNTIME FILE PREFIX LOG [ARGS...]: stdout, stderr and exit status of one run.
run() {
  bash -c 'cd "$1" && CIL_TRACE_LOG="$5" timeout 120 "$2" "$3" "${@:6}" > "$4.stdout" 2> "$4.stderr"; echo $? > "$4.status"' _ "$@" 2>/dev/null || true
}

same_run() {  # same_run LABEL A B
  local label=$1 a=$2 b=$3 ok=1
  cmp -s "$a.stdout" "$b.stdout" || { fail "$label: stdout differs"; diff "$a.stdout" "$b.stdout" | head -5 >&2 || true; ok=0; }
  cmp -s "$a.status" "$b.status" || { fail "$label: exit status $(cat "$a.status") became $(cat "$b.status")"; ok=0; }
  sed -E 's|/[^ ]*/||g' "$a.stderr" > "$a.stderr.n"
  sed -E 's|/[^ ]*/||g' "$b.stderr" > "$b.stderr.n"
  cmp -s "$a.stderr.n" "$b.stderr.n" || { fail "$label: stderr differs"; diff "$a.stderr.n" "$b.stderr.n" | head -5 >&2 || true; ok=0; }
  return $((1 - ok))
}

# trace RUNTIME APP HOOKS: instruments APP (a path under testdata/bin) into $work and runs both.
trace() {
  local runtime=$1 app=$2 hooks=$3
  local dir name out
  dir=$(dirname "$app")
  name=$(basename "$app")
  out="$work/$runtime/${app#"$bin"/}"
  mkdir -p "$(dirname "$out")"
  cp "$dir"/*.runtimeconfig.json "$(dirname "$out")/" 2>/dev/null || true
  cp "$hooks" "$(dirname "$out")/"
  if ! "$TOOL" "$app" -o "$out" --mode trace --hooks "$hooks" > "$work/log" 2>&1; then
    fail "trace $app: $(cat "$work/log")"
    return 1
  fi
  rm -f "$work/hooks.log"
  # IlTail recurses a million times by default; 20 deep keeps its hook log small.
  local args=()
  [ "$name" = IlTail.exe ] && args=(20)
  run "$dir" "$runtime" "$name" "$work/a" "$work/unused.log" "${args[@]}"
  run "$(dirname "$out")" "$runtime" "$name" "$work/b" "$work/hooks.log" "${args[@]}"
  same_run "$runtime ${app#"$bin"/}" "$work/a" "$work/b" || return 1
  [ -s "$work/hooks.log" ] || { fail "$runtime ${app#"$bin"/}: the hooks logged nothing"; return 1; }
  echo "ok   $runtime ${app#"$bin"/} ($(grep -c 'enter ' "$work/hooks.log") hook calls logged)"
}

echo "== the trace fixture and its golden hook log"
if trace dotnet "$bin/trace/TraceApp.dll" "$bin/trace/TraceHooks.dll"; then
  check_golden trace/TraceApp.log "$work/hooks.log"
fi

echo "== every other fixture, traced"
for app in "$bin"/*.dll "$bin"/debug/*.dll; do
  [ -f "${app%.dll}.runtimeconfig.json" ] || continue
  trace dotnet "$app" "$bin/trace/TraceHooks.dll" || true
done
for app in "$bin"/mono/*.exe "$bin"/il/*.exe; do
  trace dotnet "$app" "$bin/trace/TraceHooks.dll" || true
  if command -v mono > /dev/null && trace mono "$app" "$bin/trace/mono/TraceHooks.dll"; then
    # varargs run only on mono: the hooks see the fixed parameters of Sum(int, __arglist)
    [ "$(basename "$app")" = MonoVarargs.exe ] && check_golden trace/MonoVarargs.mono.log "$work/hooks.log"
  fi
done

echo "== broken hook contracts"
errors="$work/errors.txt"
: > "$errors"
for type in UnknownParameter WrongType WrongTokenType WrongInstanceType WrongArgsType WrongStateType \
    WrongResultType WrongExceptionType SubclassException EnterReturnsInt GenericHook ByRefParameter \
    NotStatic NotPublicHook StateInOnEnter BadReturn Overloaded NoHooks Hidden Missing ""; do
  args=(--mode trace --hooks testdata/bin/trace/BadHooks.dll)
  [ -n "$type" ] && args+=(--hook-type "BadHooks.$type")
  rm -f "$work/bad.dll"
  set +e
  (cd "$ROOT" && "$TOOL" testdata/bin/trace/TraceApp.dll -o "$work/bad.dll" "${args[@]}") > "$work/out" 2> "$work/err"
  rc=$?
  set -e
  [ "$rc" -ne 0 ] || fail "hook type '$type': accepted"
  [ "$(wc -l < "$work/err")" -eq 1 ] || fail "hook type '$type': expected one error line"
  [ -e "$work/bad.dll" ] && fail "hook type '$type': an output file was written"
  echo "${type:-<none>} (exit $rc): $(cat "$work/err")" >> "$errors"
done
check_golden trace/hook_errors.txt "$errors"

echo "== a real library: Newtonsoft.Json under a driver program"
sdk=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
json="$sdk/Newtonsoft.Json.dll"
if [ -f "$json" ]; then
  mkdir -p "$work/json/plain" "$work/json/traced"
  cp "$json" "$work/json/plain/"
  "$ROOT/scripts/csc.sh" "$work/json/plain/JsonDriver.dll" /optimize+ /debug- "/reference:$json" "$ROOT/tests/data/trace/JsonDriver.cs" > /dev/null
  cp "$work/json/plain/JsonDriver.dll" "$work/json/plain/JsonDriver.runtimeconfig.json" "$bin/trace/TraceHooks.dll" "$work/json/traced/"
  "$TOOL" "$json" -o "$work/json/traced/Newtonsoft.Json.dll" --mode trace --hooks "$bin/trace/TraceHooks.dll" > "$work/json/instrument.log" 2>&1 ||
    fail "trace Newtonsoft.Json: $(cat "$work/json/instrument.log")"
  echo "  $(head -1 "$work/json/instrument.log")"
  run "$work/json/plain" dotnet JsonDriver.dll "$work/json/a" "$work/json/unused.log"
  run "$work/json/traced" dotnet JsonDriver.dll "$work/json/b" "$work/json/hooks.log"
  if same_run "Newtonsoft.Json" "$work/json/a" "$work/json/b"; then
    calls=$(grep -c 'enter ' "$work/json/hooks.log" || true)
    leaves=$(grep -c 'leave ' "$work/json/hooks.log" || true)
    echo "ok   Newtonsoft.Json traced: $calls calls, $(grep -c 'exception in ' "$work/json/hooks.log" || true) exceptions seen"
    [ "$calls" -gt 1000 ] || fail "Newtonsoft.Json: only $calls hook calls"
    [ "$calls" -eq "$leaves" ] || fail "Newtonsoft.Json: $calls enters but $leaves leaves"
  fi
else
  echo "no Newtonsoft.Json.dll in the SDK: skipped"
fi

echo "== System.Reflection.Metadata reads every traced output and agrees with our dump of it"
find "$work/dotnet" "$work/mono" "$work/json/traced" -name '*.dll' -o -name '*.exe' 2> /dev/null |
  grep -v -e TraceHooks.dll -e 'json/traced/JsonDriver.dll' | sort > "$work/oracle.list"
srm_compare "the SRM oracle disagrees on a traced output (or cannot read one)" --list "$work/oracle.list"
finish
