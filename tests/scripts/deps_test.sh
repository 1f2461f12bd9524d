#!/usr/bin/env bash
# Trace mode in an app built by `dotnet build` (tests/apps/deps_app, with its deps.json, which the
# .NET host trusts instead of the app's folder): the hooks assembly is added to the deps.json
# beside the output and copied there, so the traced app runs with the original's output and exit
# status and calls its hooks. A second run changes nothing more. Controls: --deps none leaves the
# app unable to load its hooks (FileNotFoundException), which is why the step exists. --deps FILE
# names the deps.json; a malformed one is refused with one line naming it, its line and column,
# exit 3, and no output written; --deps without trace mode and with exec are usage errors.
#   tests/scripts/deps_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "deps: skipped under the sanitizers (it judges dotnet runs)"; exit 77; }
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
hooks="$ROOT/testdata/bin/trace/TraceHooks.dll"
cp -r "$ROOT/tests/apps/deps_app" "$work/src"
timeout 300 dotnet build "$work/src/DepsApp.csproj" -o "$work/app" -nodeReuse:false > "$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log" >&2; fail "dotnet build of the sample app failed"; finish; }
[ -f "$work/app/DepsApp.deps.json" ] || { fail "dotnet build wrote no deps.json"; finish; }

run() {  # run DIR: the app's stdout, then its exit status
  local status=0
  (cd "$1" && CIL_TRACE_LOG="$work/trace.log" timeout 60 dotnet DepsApp.dll > "$work/run.out" 2> "$work/run.err") || status=$?
  echo "$status" >> "$work/run.out"
}
run "$work/app"
cp "$work/run.out" "$work/expected"

echo "== trace mode: the deps.json beside the output gets the hooks"
cp -r "$work/app" "$work/traced"
"$TOOL" "$work/app/DepsApp.dll" -o "$work/traced/DepsApp.dll" --mode trace --hooks "$hooks" > "$work/summary" 2>&1 ||
  fail "instrumenting failed: $(cat "$work/summary")"
grep -q "^deps: the hooks assembly added to $work/traced/DepsApp.deps.json$" "$work/summary" || fail "no deps line: $(cat "$work/summary")"
grep -q "^hooks: copied to $work/traced/TraceHooks.dll$" "$work/summary" || fail "no hooks line: $(cat "$work/summary")"
cmp -s "$hooks" "$work/traced/TraceHooks.dll" || fail "the hooks assembly was not copied beside the output"
python3 - "$work/app/DepsApp.deps.json" "$work/traced/DepsApp.deps.json" <<'PY' || fail "the deps.json is not the original plus the hooks library"
import json, sys
before, after = (json.load(open(p)) for p in sys.argv[1:])
target = before["runtimeTarget"]["name"]
added_target = {k: v for k, v in after["targets"][target].items() if k not in before["targets"][target]}
added_library = {k: v for k, v in after["libraries"].items() if k not in before["libraries"]}
assert added_target == {"TraceHooks/0.0.0.0": {"runtime": {"TraceHooks.dll": {"assemblyVersion": "0.0.0.0"}}}}, added_target
assert added_library == {"TraceHooks/0.0.0.0": {"type": "project", "serviceable": False, "sha512": ""}}, added_library
for k in before["targets"][target]: assert after["targets"][target][k] == before["targets"][target][k]
for k in before["libraries"]: assert after["libraries"][k] == before["libraries"][k]
assert {k: v for k, v in after.items() if k not in ("targets", "libraries")} == {k: v for k, v in before.items() if k not in ("targets", "libraries")}
PY
rm -f "$work/trace.log"
run "$work/traced"
cmp -s "$work/expected" "$work/run.out" || { fail "the traced app's output or exit status differs:"; diff "$work/expected" "$work/run.out" | head -8 >&2 || true; head -3 "$work/run.err" >&2; }
grep -q "enter Program::Main" "$work/trace.log" 2> /dev/null || fail "the hooks were not called"
grep -q "leave Program::Twice -> 42" "$work/trace.log" 2> /dev/null || fail "OnLeave did not see Twice's result"
echo "ok   traced app: same output and exit status, hooks called"

sum=$(sha256sum < "$work/traced/DepsApp.deps.json")
"$TOOL" "$work/app/DepsApp.dll" -o "$work/traced/DepsApp.dll" --mode trace --hooks "$hooks" > "$work/summary2" 2>&1 || fail "a second run failed"
[ "$(sha256sum < "$work/traced/DepsApp.deps.json")" = "$sum" ] || fail "a second run changed the deps.json again"
grep -q "^deps:" "$work/summary2" && fail "a second run says it added the hooks again"

echo "== control: --deps none (the app cannot find its hooks)"
cp -r "$work/app" "$work/none"
"$TOOL" "$work/app/DepsApp.dll" -o "$work/none/DepsApp.dll" --mode trace --hooks "$hooks" --deps none > /dev/null 2>&1 || fail "--deps none failed"
cp "$hooks" "$work/none/"
cmp -s "$work/app/DepsApp.deps.json" "$work/none/DepsApp.deps.json" || fail "--deps none changed the deps.json"
run "$work/none" 2> /dev/null  # bash reports the abort
grep -q "FileNotFoundException.*TraceHooks" "$work/run.err" || fail "control: without the deps.json entry the app still ran: $(head -2 "$work/run.err")"

echo "== --deps FILE, and a malformed one"
mkdir -p "$work/named"
cp "$work/app/DepsApp.deps.json" "$work/named/Other.deps.json"
"$TOOL" "$work/app/DepsApp.dll" -o "$work/named/DepsApp.dll" --mode trace --hooks "$hooks" --deps "$work/named/Other.deps.json" > /dev/null 2>&1 ||
  fail "--deps FILE failed"
grep -q '"TraceHooks/0.0.0.0"' "$work/named/Other.deps.json" || fail "--deps FILE: the named deps.json was not given the hooks"
mkdir -p "$work/bad"
cp "$work/app/DepsApp.runtimeconfig.json" "$work/bad/"
printf '{\n  "targets": {\n    "x": [\n' > "$work/bad/DepsApp.deps.json"
set +e
"$TOOL" "$work/app/DepsApp.dll" -o "$work/bad/DepsApp.dll" --mode trace --hooks "$hooks" --deps "$work/bad/DepsApp.deps.json" > "$work/bad.out" 2> "$work/bad.err"
rc=$?
set -e
[ $rc = 3 ] || fail "a malformed deps.json: exit $rc, not 3"
[ "$(wc -l < "$work/bad.err")" = 1 ] || fail "a malformed deps.json: not one error line: $(cat "$work/bad.err")"
grep -q "^cil-instrument: error: $work/bad/DepsApp.deps.json: JSON: line 4, column 1: " "$work/bad.err" ||
  fail "the error does not name the deps.json, line and column: $(cat "$work/bad.err")"
[ ! -e "$work/bad/DepsApp.dll" ] || fail "a malformed deps.json: the output was written"
[ -z "$(ls "$work/bad" | grep -v -e '^DepsApp.deps.json$' -e '^DepsApp.runtimeconfig.json$')" ] || fail "a malformed deps.json left files: $(ls "$work/bad")"

echo "== all or nothing: a deps.json or hooks copy that cannot be written leaves no output"
# Each case: one error line naming the file, exit status 4, no output, the deps.json and the
# folder as they were (no hooks copy, no temporary file), the inputs untouched.
inputs_sum=$(cat "$work/app/DepsApp.dll" "$hooks" | sha256sum)
refused() {  # refused LABEL DIR FILE_NAMED [MESSAGE]: instrument into DIR must be refused
  local label=$1 dir=$2 named=$3 message=${4:-} rc=0 before failures=$FAILURES
  before=$(cd "$dir" && find . -printf '%p %y %l %s\n' | sort; cat DepsApp.deps.json 2> /dev/null | sha256sum)
  "$TOOL" "$work/app/DepsApp.dll" -o "$dir/DepsApp.dll" --mode trace --hooks "$hooks" > "$work/aon.out" 2> "$work/aon.err" || rc=$?
  [ $rc = 4 ] || fail "$label: exit $rc, not 4: $(cat "$work/aon.err")"
  [ "$(wc -l < "$work/aon.err")" = 1 ] || fail "$label: not one error line: $(cat "$work/aon.err")"
  grep -q "^cil-instrument: error: $named: trace mode: .*${message}.*; nothing was written$" "$work/aon.err" ||
    fail "$label: the error does not name $named: $(cat "$work/aon.err")"
  [ ! -e "$dir/DepsApp.dll" ] || fail "$label: the output was written"
  [ "$(cd "$dir" && find . -printf '%p %y %l %s\n' | sort; cat DepsApp.deps.json 2> /dev/null | sha256sum)" = "$before" ] ||
    fail "$label: the folder changed: $(ls -la "$dir")"
  [ "$(cat "$work/app/DepsApp.dll" "$hooks" | sha256sum)" = "$inputs_sum" ] || fail "$label: an input changed"
  [ "$FAILURES" != "$failures" ] || echo "ok   $label: refused, nothing written ($(cat "$work/aon.err"))"
}
fresh() {  # fresh DIR: the app's files without its assembly
  rm -rf "$1"
  mkdir -p "$1"
  cp "$work/app/DepsApp.deps.json" "$work/app/DepsApp.runtimeconfig.json" "$1/"
}
fresh "$work/aon_link"
mv "$work/aon_link/DepsApp.deps.json" "$work/aon_link/real.deps.json.txt"
ln -s real.deps.json.txt "$work/aon_link/DepsApp.deps.json"
refused "a symbolic link as the deps.json" "$work/aon_link" "$work/aon_link/DepsApp.deps.json" "symbolic link"
fresh "$work/aon_dir"
mkdir "$work/aon_dir/TraceHooks.dll"
refused "a directory in place of the hooks copy" "$work/aon_dir" "$work/aon_dir/TraceHooks.dll" "not a regular file"
fresh "$work/aon_fifo"
mkfifo "$work/aon_fifo/TraceHooks.dll"
refused "a FIFO in place of the hooks copy" "$work/aon_fifo" "$work/aon_fifo/TraceHooks.dll" "not a regular file"
fresh "$work/aon_hlink"
ln -s /nonexistent/TraceHooks.dll "$work/aon_hlink/TraceHooks.dll"
refused "a dangling symbolic link in place of the hooks copy" "$work/aon_hlink" "$work/aon_hlink/TraceHooks.dll" "symbolic link"
fresh "$work/aon_immutable"
if chattr +i "$work/aon_immutable/DepsApp.deps.json" 2> /dev/null; then
  refused "an immutable deps.json" "$work/aon_immutable" "$work/aon_immutable/DepsApp.deps.json" "immutable"
  chattr -i "$work/aon_immutable/DepsApp.deps.json"
else
  echo "skip an immutable deps.json: chattr +i is not supported here"
fi
# The hooks copy would land on the input: the app's assembly named like the hooks, beside them.
fresh "$work/aon_input"
cp "$work/app/DepsApp.dll" "$work/aon_input/TraceHooks.dll"
sed -i 's/"DepsApp.dll"/"Out.dll"/' "$work/aon_input/DepsApp.deps.json"
in_sum=$(sha256sum < "$work/aon_input/TraceHooks.dll")
rc=0
"$TOOL" "$work/aon_input/TraceHooks.dll" -o "$work/aon_input/Out.dll" --mode trace --hooks "$hooks" > /dev/null 2> "$work/aon.err" || rc=$?
[ $rc = 4 ] && grep -q "would replace the input; nothing was written$" "$work/aon.err" ||
  fail "hooks copy over the input: exit $rc: $(cat "$work/aon.err")"
[ "$(sha256sum < "$work/aon_input/TraceHooks.dll")" = "$in_sum" ] || fail "hooks copy over the input: the input changed"
[ ! -e "$work/aon_input/Out.dll" ] || fail "hooks copy over the input: the output was written"
# --deps naming a symbolic link: the user named it, so the file it points to is updated.
fresh "$work/aon_named"
mv "$work/aon_named/DepsApp.deps.json" "$work/aon_named/target.json"
ln -s target.json "$work/aon_named/DepsApp.deps.json"
"$TOOL" "$work/app/DepsApp.dll" -o "$work/aon_named/DepsApp.dll" --mode trace --hooks "$hooks" --deps "$work/aon_named/DepsApp.deps.json" \
  > /dev/null 2> "$work/aon.err" || fail "--deps naming a symbolic link: $(cat "$work/aon.err")"
[ -L "$work/aon_named/DepsApp.deps.json" ] || fail "--deps naming a symbolic link: the link was replaced"
grep -q '"TraceHooks/0.0.0.0"' "$work/aon_named/target.json" || fail "--deps naming a symbolic link: its target was not updated"
[ -z "$(find "$work"/aon_* -name '.cil-instrument-*')" ] || fail "temporary files left: $(find "$work"/aon_* -name '.cil-instrument-*')"

echo "== usage errors"
"$TOOL" "$work/app/DepsApp.dll" -o "$work/x.dll" --deps none > /dev/null 2> "$work/u1" && fail "--deps without trace mode was accepted"
grep -q "deps goes with --mode trace" "$work/u1" || fail "--deps without trace mode: $(cat "$work/u1")"
"$TOOL" exec --mode trace --hooks "$hooks" --deps none "$work/app" -- true > /dev/null 2> "$work/u2" && fail "exec --deps was accepted"
grep -q "exec: --deps is for instrument" "$work/u2" || fail "exec --deps: $(cat "$work/u2")"
finish
