#!/usr/bin/env bash
# Trace mode with hooks assemblies that declare less than TraceHooks does (testdata/src/SlimHooks:
# a void OnEnter alone, an OnLeave alone, an OnException alone, in a strong-named assembly with
# version 1.2.3.4):
#   - the traced fixture runs as before, on dotnet and on mono, and the hook log is golden;
#   - code is generated only for the hooks declared, checked on every method's clause list: each
#     hook call inline has its own guard (a catch); beyond that, OnEnter alone adds nothing,
#     OnLeave alone one finally around the body, OnException alone one filter around the body
#     (its guard is in <CilInstrument>::OnException, which the filter calls);
#   - the output's AssemblyRef carries the hooks' name, version and public key token, as an
#     independent reader (monodis) shows it and Mono's sn computes the token;
#   - a hooks assembly is never instrumented with itself.
#   tests/scripts/trace_hooks_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bin="$ROOT/testdata/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run DIR RUNTIME FILE PREFIX: stdout and exit status of one run; the hooks log to PREFIX.log.
run() {
  (cd "$1" && CIL_TRACE_LOG="$4.log" timeout 120 "$2" "$3" > "$4.stdout" 2> "$4.stderr"; echo $? > "$4.status") || true
}

# clauses TOOL FILE: "token kind,kind,..." per method, from dump --json.
clauses() {
  "$TOOL" dump --json "$1" | python3 -c '
import json, sys
for m in json.load(sys.stdin)["methods"]:
    print(m["token"], ",".join(c["kind"] for c in m["ehClauses"]) or "-", len(m["instructions"]))'
}

# expect_clauses LABEL ORIGINAL TRACED ADDED: every method the tool changed has the original
# clauses followed by ADDED (kinds, comma-separated); methods it did not change keep theirs.
expect_clauses() {
  local label=$1 original=$2 traced=$3 added=$4
  clauses "$original" > "$work/before"
  clauses "$traced" > "$work/after"
  python3 - "$work/before" "$work/after" "$added" "$label" <<'EOF' || fail "$label: clause lists"
import sys
before = {l.split()[0]: l.split()[1:] for l in open(sys.argv[1])}
after = {l.split()[0]: l.split()[1:] for l in open(sys.argv[2])}
added, label = sys.argv[3], sys.argv[4]
changed = bad = 0
for token, (kinds, count) in before.items():
    new_kinds, new_count = after[token]
    if new_count == count:
        if new_kinds != kinds: bad += 1; print(f"{label}: {token}: clauses changed in an unchanged body", file=sys.stderr)
        continue
    changed += 1
    want = [k for k in kinds.split(",") if k != "-"] + added.split(",")
    got = [k for k in new_kinds.split(",") if k != "-"]
    if got != want: bad += 1; print(f"{label}: {token}: clauses {got}, expected {want}", file=sys.stderr)
print(f"ok   {label}: {changed} changed methods, each with its own clauses + {added}")
sys.exit(1 if bad or changed < 20 else 0)
EOF
}

echo "== TraceApp with one hook at a time (dotnet)"
app="$bin/trace/TraceApp.dll"
for type in EnterOnly LeaveOnly ExceptionOnly; do
  dir="$work/$type"
  mkdir -p "$dir"
  cp "$bin/trace/TraceApp.runtimeconfig.json" "$bin/trace/SlimHooks.dll" "$dir/"
  if ! "$TOOL" "$app" -o "$dir/TraceApp.dll" --mode trace --hooks "$bin/trace/SlimHooks.dll" \
      --hook-type "SlimHooks.$type" > "$dir/instrument.log" 2>&1; then
    fail "$type: $(cat "$dir/instrument.log")"
    continue
  fi
  run "$bin/trace" dotnet TraceApp.dll "$work/$type.plain"
  run "$dir" dotnet TraceApp.dll "$work/$type.traced"
  for part in stdout status; do
    cmp -s "$work/$type.plain.$part" "$work/$type.traced.$part" || fail "$type: $part differs"
  done
  check_golden "trace/slim-$type.log" "$work/$type.traced.log"
  case $type in
    # Each inline hook call is guarded by its own try/catch (a throwing hook never breaks the
    # app); OnLeave adds the finally around the body, OnException the filter that returns 0
    # (its hook call is guarded inside <CilInstrument>::OnException).
    EnterOnly) added=catch ;;
    LeaveOnly) added=catch,finally ;;
    ExceptionOnly) added=filter ;;
  esac
  expect_clauses "$type" "$app" "$dir/TraceApp.dll" "$added"
done

echo "== the hooks assembly reference: name, version 1.2.3.4, public key token"
if command -v monodis > /dev/null && command -v sn > /dev/null; then
  token=$(sn -T "$bin/trace/SlimHooks.dll" | sed -n 's/^Public Key Token: //p' | tr a-f A-F | sed 's/../& /g; s/ $//')
  [ -n "$token" ] || fail "sn -T printed no token"
  monodis --assemblyref "$work/EnterOnly/TraceApp.dll" > "$work/refs" 2>&1 || fail "monodis could not read the traced output"
  if grep -A4 'Name=SlimHooks$' "$work/refs" | has "0x00000000: $token"; then
    grep -B1 'Name=SlimHooks$' "$work/refs" | has 'Version=1.2.3.4' || fail "the SlimHooks reference lacks version 1.2.3.4"
    echo "ok   AssemblyRef SlimHooks, Version=1.2.3.4, token $token (monodis; sn -T)"
  else
    fail "no AssemblyRef SlimHooks with token $token:"
    cat "$work/refs" >&2
  fi
else
  echo "monodis or sn not installed: skipped"
fi

echo "== Mono: a .NET Framework fixture with the Mono build of the strong-named hooks"
if command -v mono > /dev/null; then
  for type in LeaveOnly ExceptionOnly; do
    dir="$work/mono-$type"
    mkdir -p "$dir"
    cp "$bin/trace/mono/SlimHooks.dll" "$dir/"
    "$TOOL" "$bin/mono/MonoExceptions.exe" -o "$dir/MonoExceptions.exe" --mode trace \
      --hooks "$bin/trace/mono/SlimHooks.dll" --hook-type "SlimHooks.$type" > "$dir/instrument.log" 2>&1 ||
      { fail "mono $type: $(cat "$dir/instrument.log")"; continue; }
    run "$bin/mono" mono MonoExceptions.exe "$work/mono-$type.plain"
    run "$dir" mono MonoExceptions.exe "$work/mono-$type.traced"
    for part in stdout status; do
      cmp -s "$work/mono-$type.plain.$part" "$work/mono-$type.traced.$part" || fail "mono $type: $part differs"
    done
    # The reference names the strong-named hooks by version and token; Mono binds it and runs them.
    [ -s "$work/mono-$type.traced.log" ] || fail "mono $type: the hooks logged nothing"
    echo "ok   mono MonoExceptions with SlimHooks.$type ($(wc -l < "$work/mono-$type.traced.log") hook lines)"
  done
else
  echo "mono not installed: skipped"
fi

echo "== a hooks assembly is never instrumented with itself"
rm -f "$work/self.dll"
set +e
(cd "$ROOT" && "$TOOL" testdata/bin/trace/SlimHooks.dll -o "$work/self.dll" --mode trace \
  --hooks testdata/bin/trace/SlimHooks.dll --hook-type SlimHooks.EnterOnly) > /dev/null 2> "$work/self.err"
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "the hooks assembly was instrumented with itself"
[ -e "$work/self.dll" ] && fail "an output file was written for the hooks assembly"
echo "exit $rc: $(cat "$work/self.err")" > "$work/self.txt"
check_golden trace/hooks_self.txt "$work/self.txt"
finish
