#!/usr/bin/env bash
# Wrap and trace mode never change what a program does (issues 13 and 19):
#  - exception order: testdata/mono/ExceptionOrder (filters, finallys, catches across 1, 2 and 3
#    frames, `throw;` in a catch, a framework frame in between, hooks that throw) prints the
#    same event log, exception identity and stack frames as the original, on dotnet and mono, in
#    wrap and trace mode; traced, the hooks' log with the program's events in it is golden and
#    the same on both runtimes (OnException from the first pass, before any filter up the stack
#    and any finally; OnLeave in the second pass);
#  - tail calls: testdata/il/IlTail (10,000,000-deep mutual recursion, tail. in a method with EH
#    clauses, among several returns, tail. callvirt and tail. calli) runs in every mode, and wrap
#    and trace name each method they leave as is; so does F#'s isEven/isOdd
#    (tests/data/fsharp/Mutual.fs, compiled with the SDK's fsc) on dotnet;
#  - byref arguments: testdata/src/ByRefArgs, traced with hooks that take `args`, passes null,
#    valid and unmapped references through `ref`, `in`, `out` and `ref readonly` parameters
#    with the original's output and exit status; the hooks see null for them.
#   tests/scripts/exception_order_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bin="$ROOT/testdata/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runtimes=(dotnet)
command -v mono > /dev/null && runtimes+=(mono)

# run DIR RUNTIME FILE PREFIX [LOG]: stdout and exit status of one run.
run() {
  (cd "$1" && CIL_TRACE_LOG="${5:-}" timeout 300 "$2" "$3" > "$4.stdout" 2> "$4.stderr"; echo $? > "$4.status") || true
}

# instrument APP MODE RUNTIME: the output in its own folder, with the hooks built for RUNTIME.
instrument() {
  local app=$1 mode=$2 runtime=$3 dir="$work/$2-$3-$(basename "${1%.*}")"
  mkdir -p "$dir"
  cp "${app%.*}.runtimeconfig.json" "$dir/"
  local args=(--mode "$mode")
  if [ "$mode" = trace ]; then
    local hooks="$bin/trace/TraceHooks.dll"
    [ "$runtime" = mono ] && hooks="$bin/trace/mono/TraceHooks.dll"
    cp "$hooks" "$dir/"
    args+=(--hooks "$hooks")
  fi
  "$TOOL" "$app" -o "$dir/$(basename "$app")" "${args[@]}" > "$dir/instrument.log" 2>&1 || fail "$mode $app: $(tail -1 "$dir/instrument.log")"
  echo "$dir"
}

same() {  # same LABEL A B
  cmp -s "$2.stdout" "$3.stdout" || { fail "$1: stdout differs"; diff "$2.stdout" "$3.stdout" | head -5 >&2 || true; }
  cmp -s "$2.status" "$3.status" || fail "$1: exit status $(cat "$2.status") became $(cat "$3.status")"
}

echo "== exception order: ExceptionOrder.exe"
app="$bin/mono/ExceptionOrder.exe"
for runtime in "${runtimes[@]}"; do
  run "$bin/mono" "$runtime" ExceptionOrder.exe "$work/orig-$runtime"
  [ "$(cat "$work/orig-$runtime.status")" = 3 ] || fail "$runtime: the original exits $(cat "$work/orig-$runtime.status")"
  check_golden trace/ExceptionOrder.program.log "$work/orig-$runtime.stdout"
  for mode in wrap trace; do
    dir=$(instrument "$app" "$mode" "$runtime")
    rm -f "$dir/hooks.log"
    run "$dir" "$runtime" ExceptionOrder.exe "$dir/run" "$dir/hooks.log"
    same "$runtime $mode ExceptionOrder" "$work/orig-$runtime" "$dir/run"
    if [ "$mode" = trace ]; then
      check_golden trace/ExceptionOrder.hooks.log "$dir/hooks.log"
      # The program's own events, in the hooks' log, are the original's log.
      sed -n 's/^# //p' "$dir/hooks.log" | cmp -s - "$work/orig-$runtime.stdout" ||
        fail "$runtime trace ExceptionOrder: the program's events in the hooks' log differ from the original's"
    fi
    echo "ok   $runtime $mode ExceptionOrder ($(grep -c '^== ' "$dir/run.stdout") scenarios)"
  done
done

echo "== tail calls: IlTail.exe"
app="$bin/il/IlTail.exe"
for runtime in "${runtimes[@]}"; do
  run "$bin/il" "$runtime" IlTail.exe "$work/tail-$runtime"
  [ "$(cat "$work/tail-$runtime.status")" = 0 ] || fail "$runtime: IlTail exits $(cat "$work/tail-$runtime.status")"
  grep -q '^isEven 10000000 = True$' "$work/tail-$runtime.stdout" || fail "$runtime: IlTail printed $(head -1 "$work/tail-$runtime.stdout")"
  for mode in noop count wrap trace; do
    dir=$(instrument "$app" "$mode" "$runtime")
    run "$dir" "$runtime" IlTail.exe "$dir/run"
    same "$runtime $mode IlTail" "$work/tail-$runtime" "$dir/run"
    if [ "$mode" = wrap ] || [ "$mode" = trace ]; then
      n=$(grep -c 'the body makes tail. calls' "$dir/instrument.log" || true)
      [ "$n" = 6 ] || fail "$runtime $mode IlTail: $n methods reported as left for their tail calls, expected 6"
    fi
    echo "ok   $runtime $mode IlTail: $(tail -1 "$dir/run.stdout")"
  done
done
dir=$(instrument "$app" wrap dotnet)
sed -E -e "s|$work/[^ ]*/||" -e "s/ in [0-9]+ ms\$//" "$dir/instrument.log" > "$work/tail-skips.txt"
check_golden trace/IlTail.wrap.txt "$work/tail-skips.txt"

echo "== F#: mutual tail recursion compiled by the SDK's fsc"
sdk=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
refdir=$(ls -d "$(dirname "$(dirname "$sdk")")"/packs/Microsoft.NETCore.App.Ref/*/ref/net* 2> /dev/null | sort -V | tail -1)
if [ -f "$sdk/FSharp/fsc.dll" ] && [ -n "$refdir" ]; then
  fs="$work/fsharp"
  mkdir -p "$fs"
  refs=()
  for f in "$refdir"/*.dll; do refs+=("-r:$f"); done
  dotnet "$sdk/FSharp/fsc.dll" --nologo --noframework --optimize+ --target:exe --out:"$fs/Mutual.dll" \
    "-r:$sdk/FSharp/FSharp.Core.dll" "${refs[@]}" "$ROOT/tests/data/fsharp/Mutual.fs" > "$fs/fsc.log" 2>&1 ||
    fail "fsc: $(tail -3 "$fs/fsc.log")"
  cp "$sdk/FSharp/FSharp.Core.dll" "$fs/"
  cp "$bin/ExitCode.runtimeconfig.json" "$fs/Mutual.runtimeconfig.json"
  run "$fs" dotnet Mutual.dll "$work/fs"
  [ "$(cat "$work/fs.stdout")" = "isEven 10000000 = true" ] || fail "F#: the original printed $(cat "$work/fs.stdout")"
  "$TOOL" dump "$fs/Mutual.dll" --method 'Mutual::isEven' | grep -q 'tail\.' || fail "F#: fsc emitted no tail. prefix"
  for mode in noop count wrap trace; do
    dir=$(instrument "$fs/Mutual.dll" "$mode" dotnet)
    cp "$fs/FSharp.Core.dll" "$dir/"
    run "$dir" dotnet Mutual.dll "$dir/run" "$dir/hooks.log"
    same "dotnet $mode F# Mutual" "$work/fs" "$dir/run"
    echo "ok   dotnet $mode F#: $(cat "$dir/run.stdout"), exit $(cat "$dir/run.status")"
  done
else
  echo "no fsc.dll in the SDK: F# skipped (IlTail has the same shape)"
fi

echo "== byref arguments: ByRefArgs.dll"
app="$bin/ByRefArgs.dll"
run "$bin" dotnet ByRefArgs.dll "$work/byref"
[ "$(cat "$work/byref.status")" = 7 ] || fail "ByRefArgs exits $(cat "$work/byref.status")"
for mode in wrap trace; do
  dir=$(instrument "$app" "$mode" dotnet)
  run "$dir" dotnet ByRefArgs.dll "$dir/run" "$dir/hooks.log"
  same "dotnet $mode ByRefArgs" "$work/byref" "$dir/run"
  echo "ok   dotnet $mode ByRefArgs: $(wc -l < "$dir/run.stdout") lines, exit $(cat "$dir/run.status")"
done
grep -q 'enter ByRefFixtures.Program::Keep 0x06000001(null, 3)' "$dir/hooks.log" || fail "ByRefArgs: Keep's reference did not reach args as null"
finish
