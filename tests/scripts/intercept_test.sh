#!/usr/bin/env bash
# Interception in trace mode (issue 13), opted into by the hooks' signatures, on dotnet:
# tests/data/intercept/App.cs traced with tests/data/intercept/Hooks.cs, whose OnEnter returns
# bool with `out object result`, OnLeave takes `ref object result` and `elapsed`, and OnException
# returns an Exception:
#  - a memoizing OnEnter skips Fib's body: 26 runs of it instead of the original's 242,785, the
#    same result;
#  - a validating OnEnter rejects Checked(140) with its own ArgumentOutOfRangeException;
#  - OnLeave rewrites Greet's string and Shift's struct; a string put in place of Half's double
#    is an InvalidCastException from Half (documented), not memory corruption;
#  - OnEnter supplies a generic method's result (int and string instantiations);
#  - OnException replaces Divide's DivideByZeroException with an ArgumentException;
#  - OnLeave's elapsed covers a 30 ms sleep (Stopwatch ticks; a lower bound, not a timing);
# and with tests/data/intercept/SuppressHooks.cs (OnException returns bool) the void Risky's
# exception is suppressed while RiskyValue, which has a result, still throws. Every other call
# prints what the original prints. Both outputs are golden (tests/golden/trace/intercept.*.txt),
# and the JIT compiles every method of both (JitCheck: none refused). Wrong interception
# signatures (tests/data/intercept/BadHooks.cs, one type each) are refused with one line each
# and exit status 2, nothing written (tests/golden/trace/intercept_errors.txt). The same app and
# hooks built by mcs run on mono with golden outputs too (Stopwatch then comes from System).
#   tests/scripts/intercept_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src="$ROOT/tests/data/intercept"
csc() { "$ROOT/scripts/csc.sh" "$@" > "$work/csc.log" 2>&1 || { cat "$work/csc.log" >&2; fail "csc $1"; finish; }; }
csc "$work/app/InterceptApp.dll" "$src/App.cs"
csc "$work/lib/InterceptHooks.dll" /target:library "/r:$work/app/InterceptApp.dll" "$src/Hooks.cs"
csc "$work/lib/SuppressHooks.dll" /target:library "$src/SuppressHooks.cs"
csc "$work/lib/BadIntercept.dll" /target:library "$src/BadHooks.cs"
csc "$work/JitCheck.dll" /nullable+ /optimize+ /langversion:latest "$ROOT/tests/jitcheck/JitCheck.cs"

(cd "$work/app" && timeout 120 dotnet InterceptApp.dll > "$work/original.txt" 2>&1) || fail "the original failed: $(tail -2 "$work/original.txt")"
grep -q "^Fib's body ran 242785 times$" "$work/original.txt" || fail "the original: $(grep Fib "$work/original.txt")"

# traced NAME HOOKS: the app traced with HOOKS into $work/NAME, run there; its output in NAME.txt.
traced() {
  local name=$1 hooks=$2 dir="$work/$1"
  mkdir -p "$dir"
  cp "$work/app/InterceptApp.runtimeconfig.json" "$hooks" "$dir/"
  "$TOOL" "$work/app/InterceptApp.dll" -o "$dir/InterceptApp.dll" --mode trace --hooks "$hooks" --include 'InterceptApp.Work::*' \
    > "$work/$name.log" 2>&1 || { fail "$name: $(tail -1 "$work/$name.log")"; return 1; }
  grep -q "instrumented 10 methods" "$work/$name.log" || fail "$name: $(head -1 "$work/$name.log")"
  (cd "$dir" && timeout 120 dotnet InterceptApp.dll > "$work/$name.txt" 2>&1) || fail "$name: the traced app failed: $(tail -2 "$work/$name.txt")"
  local verdict
  verdict=$(cd "$dir" && timeout 300 dotnet "$work/JitCheck.dll" InterceptApp.dll 2>&1 | grep '^compiled' || true)
  [[ $verdict == *"refused 0"* ]] || fail "$name: JitCheck: ${verdict:-no verdict}"
  check_golden "trace/intercept.$name.txt" "$work/$name.txt"
  echo "ok   $name: $verdict"
}

echo "== intercepting hooks"
if traced main "$work/lib/InterceptHooks.dll"; then
  expect() { grep -qxF -- "$1" "$work/main.txt" || fail "main: no line '$1'"; }
  expect "Fib(25) = 75025"
  expect "Fib's body ran 26 times"
  expect "Checked(40) = 80"
  expect "Checked(140) threw ArgumentOutOfRangeException: a percentage over 100 (Parameter 'percent')"
  expect "Greet(world) = HELLO WORLD"
  expect "Shift((1, 2)) = (100, 200)"
  expect "Half(3) threw InvalidCastException: Unable to cast object of type 'System.String' to type 'System.Double'."
  expect "Same(7) = 42"
  expect "Same(text) = supplied"
  expect "Divide(6, 3) = 2"
  expect "Divide(6, 0) threw ArgumentException: b must not be 0 (Attempted to divide by zero.)"
  expect "Risky() threw InvalidOperationException: risky"
  expect "Nap took at least 30 ms: True"
  grep -q NEGATIVE "$work/main.txt" && fail "main: a negative elapsed time"
fi

echo "== OnException returning bool: suppression in void methods"
if traced suppress "$work/lib/SuppressHooks.dll"; then
  grep -qxF "Risky() = returned" "$work/suppress.txt" || fail "suppress: Risky's exception was not suppressed"
  grep -qxF "RiskyValue() threw InvalidOperationException: risky value" "$work/suppress.txt" || fail "suppress: RiskyValue did not throw"
  # Everything else as the original.
  diff <(grep -v '^Risky()' "$work/original.txt") <(grep -v '^Risky()' "$work/suppress.txt") > /dev/null ||
    fail "suppress: other calls changed: $(diff <(grep -v '^Risky()' "$work/original.txt") <(grep -v '^Risky()' "$work/suppress.txt") | head -3)"
fi

echo "== on mono: the same hooks in a .NET Framework-style app (mcs; Stopwatch from System)"
if command -v mono > /dev/null && command -v mcs > /dev/null; then
  mkdir -p "$work/mono"
  mcs -nologo -out:"$work/mono/InterceptApp.exe" "$src/App.cs" > "$work/mcs.log" 2>&1 &&
    mcs -nologo -target:library "-r:$work/mono/InterceptApp.exe" -out:"$work/mono/InterceptHooks.dll" "$src/Hooks.cs" >> "$work/mcs.log" 2>&1 &&
    mcs -nologo -target:library -out:"$work/mono/SuppressHooks.dll" "$src/SuppressHooks.cs" >> "$work/mcs.log" 2>&1 ||
    { cat "$work/mcs.log" >&2; fail "mcs"; }
  (cd "$work/mono" && timeout 120 mono InterceptApp.exe > "$work/mono.original.txt" 2>&1) || fail "mono: the original failed"
  for name in main suppress; do
    hooks=InterceptHooks.dll
    [ "$name" = suppress ] && hooks=SuppressHooks.dll
    dir="$work/mono/$name"
    mkdir -p "$dir"
    cp "$work/mono/$hooks" "$dir/"
    "$TOOL" "$work/mono/InterceptApp.exe" -o "$dir/InterceptApp.exe" --mode trace --hooks "$work/mono/$hooks" \
      --include 'InterceptApp.Work::*' > "$work/mono.$name.log" 2>&1 || { fail "mono $name: $(tail -1 "$work/mono.$name.log")"; continue; }
    (cd "$dir" && timeout 120 mono InterceptApp.exe > "$work/mono.$name.txt" 2>&1) || fail "mono $name: the traced app failed: $(tail -2 "$work/mono.$name.txt")"
    check_golden "trace/intercept.$name.mono.txt" "$work/mono.$name.txt"
    echo "ok   mono $name: $(grep -c . "$work/mono.$name.txt") lines as golden"
  done
  grep -qxF "Fib's body ran 26 times" "$work/mono.main.txt" || fail "mono: Fib was not memoized"
  grep -qxF "Nap took at least 30 ms: True" "$work/mono.main.txt" || fail "mono: elapsed (Stopwatch from System) is wrong"
else
  echo "no mono: skipped"
fi

echo "== wrong interception signatures"
: > "$work/errors.txt"
for type in EnterResultNotOut EnterResultWithoutBool EnterReturnsInt LeaveResultRefString ElapsedInt ElapsedInOnEnter \
            ExceptionReturnsInt ExceptionReturnsObject; do
  set +e
  "$TOOL" "$work/app/InterceptApp.dll" -o "$work/bad.dll" --mode trace --hooks "$work/lib/BadIntercept.dll" \
    --hook-type "BadIntercept.$type" > "$work/out" 2> "$work/err"
  rc=$?
  set -e
  [ "$(wc -l < "$work/err")" = 1 ] || fail "$type: not one error line"
  [ -e "$work/bad.dll" ] && { fail "$type: an output was written"; rm -f "$work/bad.dll"; }
  echo "$type (exit $rc): $(sed "s|$work/||" "$work/err")" >> "$work/errors.txt"
done
check_golden trace/intercept_errors.txt "$work/errors.txt"
echo "ok   $(wc -l < "$work/errors.txt") signatures refused"
finish
