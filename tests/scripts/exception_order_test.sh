#!/usr/bin/env bash
# Wrap and trace mode never change what a program does (issues 13 and 19):
#  - exception order: testdata/mono/ExceptionOrder (filters, finallys, catches across 1, 2 and 3
#    frames, `throw;` in a catch, a framework frame in between, hooks that throw) prints the
#    same event log, exception identity and stack frames as the original, on dotnet and mono, in
#    wrap and trace mode; traced, the hooks' log with the program's events in it is golden and
#    the same on both runtimes (OnException from the first pass, before any filter up the stack
#    and any finally; OnLeave in the second pass);
#  - tail calls (issue 19.1): testdata/il/IlTail (deep mutual recursion, tail. in a method with EH
#    clauses, among several returns, tail. callvirt, tail. calli, a generic method, a value
#    type's method, a generic class's method) runs in every mode with every method instrumented
#    and its tail calls kept: 1,000,000 deep on dotnet, 200,000 on mono, where the same program
#    with its prefixes taken out overflows the stack (the control); traced 2 deep, the hooks' log
#    (OnLeave with a null result before the tail call, then the callee's OnEnter) is golden and
#    the same on both runtimes; F#'s isEven/isOdd (tests/data/fsharp/Mutual.fs, compiled with
#    the SDK's fsc) runs instrumented on dotnet;
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

# run DIR RUNTIME FILE PREFIX [LOG [ARGS...]]: stdout and exit status of one run.
run() {
  local dir=$1 runtime=$2 file=$3 prefix=$4 log=${5:-}
  shift 5 2> /dev/null || shift $#
  (cd "$dir" && CIL_TRACE_LOG="$log" timeout 300 "$runtime" "$file" "$@" > "$prefix.stdout" 2> "$prefix.stderr"; echo $? > "$prefix.status") || true
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
# The control: IlTail with its tail. prefixes taken out overflows the stack on mono at the depth
# used there (dotnet's JIT makes tail calls of such calls on its own, so only mono shows it).
if command -v mono > /dev/null && command -v ilasm > /dev/null; then
  mkdir -p "$work/notail"
  sed -E 's/^[[:space:]]*tail\.$//' "$ROOT/testdata/il/IlTail.il" > "$work/notail/NoTail.il"
  ilasm /exe /output:"$work/notail/NoTail.exe" "$work/notail/NoTail.il" > "$work/notail/ilasm.log" 2>&1 ||
    fail "ilasm NoTail: $(tail -2 "$work/notail/ilasm.log")"
  run "$work/notail" mono NoTail.exe "$work/notail/run" "" 200000
  [ "$(cat "$work/notail/run.status")" != 0 ] || fail "mono: IlTail without its tail. prefixes did not overflow the stack 200,000 deep"
  grep -q StackOverflow "$work/notail/run.stderr" || fail "mono: NoTail did not die of a stack overflow: $(head -2 "$work/notail/run.stderr")"
  echo "ok   control: mono NoTail.exe 200000 overflows the stack (exit $(cat "$work/notail/run.status"))"
fi
for runtime in "${runtimes[@]}"; do
  depth=1000000
  [ "$runtime" = mono ] && depth=200000
  run "$bin/il" "$runtime" IlTail.exe "$work/tail-$runtime" "" "$depth"
  [ "$(cat "$work/tail-$runtime.status")" = 0 ] || fail "$runtime: IlTail exits $(cat "$work/tail-$runtime.status")"
  grep -q "^isEven $depth = True\$" "$work/tail-$runtime.stdout" || fail "$runtime: IlTail printed $(head -1 "$work/tail-$runtime.stdout")"
  [ "$(wc -l < "$work/tail-$runtime.stdout")" = 8 ] || fail "$runtime: IlTail printed $(wc -l < "$work/tail-$runtime.stdout") lines, not 8"
  for mode in noop count wrap trace; do
    dir=$(instrument "$app" "$mode" "$runtime")
    run "$dir" "$runtime" IlTail.exe "$dir/run" "" "$depth"
    same "$runtime $mode IlTail" "$work/tail-$runtime" "$dir/run"
    grep -q "instrumented 12 methods" "$dir/instrument.log" || fail "$runtime $mode IlTail: $(head -1 "$dir/instrument.log")"
    grep -q "^skipped 0 methods" "$dir/instrument.log" || fail "$runtime $mode IlTail: methods left as is: $(grep -A3 '^skipped' "$dir/instrument.log")"
    echo "ok   $runtime $mode IlTail $depth deep: $(tail -1 "$dir/run.stdout")"
    if [ "$mode" = trace ]; then
      rm -f "$dir/hooks.log"
      run "$dir" "$runtime" IlTail.exe "$dir/shallow" "$dir/hooks.log" 2
      check_golden trace/IlTail.hooks.log "$dir/hooks.log"
    fi
  done
done
dir=$(instrument "$app" wrap dotnet)
sed -E -e "s|$work/[^ ]*/||" -e "s/ in [0-9]+ ms\$//" "$dir/instrument.log" > "$work/tail-skips.txt"
check_golden trace/IlTail.wrap.txt "$work/tail-skips.txt"
"$TOOL" dump "$dir/IlTail.exe" --method 'IlFixtures.Tail::IsEven' > "$work/IsEven.dump"
grep -q 'tail\.' "$work/IsEven.dump" || fail "wrap: IsEven has no tail. prefix left"

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
  [ "$(cat "$work/fs.stdout")" = "isEven 1000000 = true" ] || fail "F#: the original printed $(cat "$work/fs.stdout")"
  "$TOOL" dump "$fs/Mutual.dll" --method 'Mutual::isEven' | has 'tail\.' || fail "F#: fsc emitted no tail. prefix"
  for mode in noop count wrap trace; do
    dir=$(instrument "$fs/Mutual.dll" "$mode" dotnet)
    cp "$fs/FSharp.Core.dll" "$dir/"
    run "$dir" dotnet Mutual.dll "$dir/run"
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
