#!/usr/bin/env bash
# APM at JIT time (issue 38): testdata/src/ActivityHooks turns traced calls into
# System.Diagnostics.Activity spans; testdata/src/ApmApp serves a local HttpListener (127.0.0.1, a
# free port), calls it and a closed port through HttpClient, and parses two strings (one throws),
# with an ActivityListener that prints each span as it ends. Under
#   run --mode trace --hooks ActivityHooks.dll --include-framework
#     --include 'System.Net.Http.HttpClient::SendAsync' --include 'App::*'
# its output is tests/golden/trace/apm.txt: the framework's SendAsync and the app's methods as
# spans with parent, status and exception type (the failed call and the throwing parse), every
# span ended before its caller goes on (the order is fixed by the hooks, not by timing), and the
# spans of two methods that return a ValueTask<int> and a ValueTask after an await: each ends after
# its child (the Parse after the await) and the failing one as Error, so the hooks' replaced
# ValueTask was unboxed into the method's result. The same app instrumented offline (--include
# 'App::*') prints the golden without the framework's spans; stdout
# without the span lines and the exit status are the plain run's, and no file appears beside the
# app. A pattern that reaches System.Private.CoreLib traces nothing there and says so once in the
# profiler's warnings. The framework's own System.Net.Http.dll given as the hooks is refused in
# one line (exit 2) and the program does not start.
# MODE selfcontained: TraceApp published self-contained for linux-x64 (`dotnet publish
# --self-contained`, the runtime pack from the NuGet cache or feed; exit 77 when it cannot be
# restored) and run through its apphost under `run --mode trace --hooks TraceHooks.dll`: the
# offline golden hook log, the plain run's stdout and exit status.
#   tests/scripts/jit_trace_apm_test.sh [TOOL] [apm|selfcontained]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mode=${2:-apm}
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$mode" = selfcontained ]; then
  mkdir -p "$work/proj"
  cp "$ROOT/testdata/src/TraceApp/TraceApp.cs" "$work/proj/"
  cat > "$work/proj/TraceApp.csproj" <<'XML'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <RuntimeIdentifier>linux-x64</RuntimeIdentifier>
    <SelfContained>true</SelfContained>
    <AllowUnsafeBlocks>true</AllowUnsafeBlocks>
    <Optimize>true</Optimize>
    <DebugType>none</DebugType>
  </PropertyGroup>
</Project>
XML
  if ! (cd "$work/proj" && timeout 600 dotnet publish -nologo -v q -o "$work/out" > "$work/publish.log" 2>&1); then
    if grep -q "NU1101\|NU1102\|NU1301\|Unable to load the service index\|NETSDK1094\|NETSDK1112" "$work/publish.log"; then
      echo "the linux-x64 runtime pack cannot be restored here: skipped ($(grep -m1 -o 'NU1[0-9]*\|NETSDK1[0-9]*' "$work/publish.log"))" >&2
      exit 77
    fi
    cat "$work/publish.log" >&2
    fail "the self-contained publish failed"
    finish
  fi
  [ -x "$work/out/TraceApp" ] && [ -f "$work/out/libcoreclr.so" ] || { fail "the publish is not self-contained: $(ls "$work/out" | head -5)"; finish; }
  before=$(cd "$work/out" && find . -type f | sort | xargs sha256sum)
  (cd "$work/out" && timeout 300 ./TraceApp > "$work/plain.stdout" 2> /dev/null; echo $? > "$work/plain.status") || true
  (cd "$work/out" && CIL_TRACE_LOG="$work/sc.log" timeout 300 "$TOOL" run -q --mode trace --hooks "$ROOT/testdata/bin/trace/TraceHooks.dll" \
    -o "$work/prof" -- ./TraceApp > "$work/jit.stdout" 2> "$work/jit.stderr"; echo $? > "$work/jit.status") || true
  cmp -s "$work/plain.stdout" "$work/jit.stdout" || { fail "self-contained: stdout differs"; diff "$work/plain.stdout" "$work/jit.stdout" | head -5 >&2; }
  cmp -s "$work/plain.status" "$work/jit.status" || fail "self-contained: exit status $(cat "$work/plain.status") became $(cat "$work/jit.status")"
  [ -s "$work/sc.log" ] || fail "self-contained: the hooks logged nothing: $(head -3 "$work/jit.stderr")"
  check_golden trace/TraceApp.log "$work/sc.log"
  [ "$(cd "$work/out" && find . -type f | sort | xargs sha256sum)" = "$before" ] || fail "self-contained: the published folder changed"
  cmp -s "$ROOT/tests/golden/trace/TraceApp.log" "$work/sc.log" &&
    echo "ok   self-contained TraceApp (apphost, runtime in its folder): $(grep -c 'enter ' "$work/sc.log") hook calls, the offline golden log"
  finish
  exit 0
fi

mkdir -p "$work/app" "$work/hooks"
"$ROOT/scripts/csc.sh" "$work/app/ApmApp.dll" /optimize+ /debug- "$ROOT"/testdata/src/ApmApp/*.cs > "$work/csc.log" 2>&1 &&
  "$ROOT/scripts/csc.sh" "$work/hooks/ActivityHooks.dll" /optimize+ /debug- /target:library "$ROOT"/testdata/src/ActivityHooks/*.cs >> "$work/csc.log" 2>&1 ||
  { fail "csc: $(tail -3 "$work/csc.log")"; finish; }
listing=$(ls "$work/app")

(cd "$work/app" && timeout 300 dotnet ApmApp.dll > "$work/plain.stdout" 2> "$work/plain.stderr"; echo $? > "$work/plain.status") || true
# The README's command, and a pattern for a core library method (Int32::Parse) on top.
(cd "$work/app" && timeout 300 "$TOOL" run -q --mode trace --hooks "$work/hooks/ActivityHooks.dll" --include-framework \
  --include 'System.Net.Http.HttpClient::SendAsync' --include 'App::*' --include 'System.Int32::Parse' -o "$work/prof" \
  -- dotnet ApmApp.dll > "$work/jit.stdout" 2> "$work/jit.stderr"; echo $? > "$work/jit.status") || true

grep -q '^GET / -> 200 pong$' "$work/plain.stdout" || fail "the plain run did not get its answer: $(head -3 "$work/plain.stdout") $(head -3 "$work/plain.stderr")"
grep -q '^span ' "$work/plain.stdout" && fail "the plain run printed spans: $(grep -m1 '^span ' "$work/plain.stdout")"
grep -v '^span ' "$work/jit.stdout" | cmp -s "$work/plain.stdout" - || { fail "stdout without the spans differs from the plain run's"; grep -v '^span ' "$work/jit.stdout" | diff "$work/plain.stdout" - | head -5 >&2; }
cmp -s "$work/plain.status" "$work/jit.status" || fail "exit status $(cat "$work/plain.status") became $(cat "$work/jit.status"): $(head -3 "$work/jit.stderr")"
check_golden trace/apm.txt "$work/jit.stdout"
cmp -s "$ROOT/tests/golden/trace/apm.txt" "$work/jit.stdout" &&
  echo "ok   ApmApp: $(grep -c '^span System.Net.Http' "$work/jit.stdout") HttpClient.SendAsync spans and $(grep -c '^span App::' "$work/jit.stdout") of the app's, $(grep -c 'status=Error' "$work/jit.stdout") failed with their exception type"
[ "$(ls "$work/app")" = "$listing" ] || fail "files appeared beside the app: $(ls "$work/app")"
# Offline: the same hooks on an instrumented copy give the same spans of the app's own methods.
mkdir -p "$work/offline"
cp "$work/hooks/ActivityHooks.dll" "$work/app/ApmApp.runtimeconfig.json" "$work/offline/"
"$TOOL" "$work/app/ApmApp.dll" -o "$work/offline/ApmApp.dll" --mode trace --hooks "$work/hooks/ActivityHooks.dll" \
  --include 'App::*' > "$work/offline.log" 2>&1 || fail "offline instrument: $(tail -3 "$work/offline.log")"
(cd "$work/offline" && timeout 300 dotnet ApmApp.dll > "$work/offline.stdout" 2> "$work/offline.stderr") || true
if grep -v '^span System.Net.Http' "$ROOT/tests/golden/trace/apm.txt" | cmp -s - "$work/offline.stdout"; then
  echo "ok   offline trace of App::*: the golden's spans of the app's own methods, ValueTask ones included"
else
  fail "offline trace: stdout is not the golden without the framework's spans: $(head -3 "$work/offline.stderr")"
  grep -v '^span System.Net.Http' "$ROOT/tests/golden/trace/apm.txt" | diff - "$work/offline.stdout" | head -8 >&2
fi
warned=$(cat "$work"/prof/cil-instrument.*.log 2> /dev/null | grep -c 'System.Private.CoreLib is never traced' || true)
[ "$warned" = 1 ] || fail "the core library pattern was said $warned times in the warnings, not once: $(cat "$work"/prof/*.log 2> /dev/null | head -3)"
[ "$warned" = 1 ] && echo "ok   System.Int32::Parse selected: never traced, one warning: $(grep -h -o 'warning: System.Int32::Parse[^:]*' "$work"/prof/cil-instrument.*.log)"
# --hooks naming the framework's own System.Net.Http.dll (the file the example traces): refused
# before the program starts, with one line, exit 2.
framework=$(dotnet --list-runtimes | awk '$1 == "Microsoft.NETCore.App" {v = $2; d = $3} END {gsub(/[][]/, "", d); print d "/" v}')
(cd "$work/app" && timeout 300 "$TOOL" run --mode trace --hooks "$framework/System.Net.Http.dll" --include-framework \
  -- dotnet ApmApp.dll > "$work/fw.stdout" 2> "$work/fw.stderr"; echo $? > "$work/fw.status") || true
[ "$(cat "$work/fw.status")" = 2 ] || fail "the framework's System.Net.Http.dll as hooks: exit status $(cat "$work/fw.status"), not 2"
[ ! -s "$work/fw.stdout" ] || fail "the framework's System.Net.Http.dll as hooks: the program ran"
[ "$(wc -l < "$work/fw.stderr")" = 1 ] && grep -q 'hooks assembly is named System.Net.Http' "$work/fw.stderr" &&
  echo "ok   the framework's own System.Net.Http.dll as hooks: exit 2, $(cat "$work/fw.stderr")" ||
  fail "the framework's System.Net.Http.dll as hooks: not the one line: $(cat "$work/fw.stderr")"
finish
