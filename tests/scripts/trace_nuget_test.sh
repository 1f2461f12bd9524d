#!/usr/bin/env bash
# A second real library, from NuGet (issue 13): YamlDotNet (restored from the mirror by a
# throwaway project) under tests/data/trace/YamlDriver.cs, which serializes and reads back an
# object graph, walks a YAML stream, and prints six exceptions of malformed input with their
# messages and the library's stack frames. Traced with the logging hooks
# (testdata/bin/trace/TraceHooks.dll) and wrapped, the library gives the original's output,
# stderr and exit status, and the hooks see every call leave (as many leaves as enters).
# Skipped (77) when the mirror cannot restore the package.
#   tests/scripts/trace_nuget_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "trace_nuget: skipped under the sanitizers (trace covers the tool's code)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
version=18.1.0
mkdir -p "$work/restore"
cat > "$work/restore/Restore.csproj" <<PROJ
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageReference Include="YamlDotNet" Version="$version" /></ItemGroup>
</Project>
PROJ
if ! (cd "$work/restore" && timeout 300 dotnet restore > "$work/restore.log" 2>&1); then
  if grep -q "NU1101\|NU1102\|NU1301\|Unable to load the service index\|Unable to find package" "$work/restore.log"; then
    echo "YamlDotNet cannot be restored here: skipped" >&2
    exit 77
  fi
  tail -5 "$work/restore.log" >&2
  fail "dotnet restore failed"
  finish
fi
package="${NUGET_PACKAGES:-$HOME/.nuget/packages}/yamldotnet/$version/lib"
lib=""
for framework in net8.0 net6.0 netstandard2.1 netstandard2.0; do
  [ -f "$package/$framework/YamlDotNet.dll" ] && { lib="$package/$framework/YamlDotNet.dll"; break; }
done
[ -n "$lib" ] || { fail "no YamlDotNet.dll under $package: $(ls "$package" 2>&1)"; finish; }
echo "YamlDotNet $version: ${lib#"$package"/}"

mkdir -p "$work/plain"
cp "$lib" "$work/plain/"
"$ROOT/scripts/csc.sh" "$work/plain/YamlDriver.dll" /optimize+ /debug- "/reference:$lib" "$ROOT/tests/data/trace/YamlDriver.cs" > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the driver does not compile"; finish; }
# run DIR PREFIX [LOG]: stdout, stderr and exit status of the driver in DIR.
run() {
  (cd "$1" && CIL_TRACE_LOG="${3:-}" timeout 300 dotnet YamlDriver.dll > "$2.stdout" 2> "$2.stderr"; echo $? > "$2.status") || true
}
run "$work/plain" "$work/original"
[ "$(cat "$work/original.status")" = 0 ] || { fail "the original exits $(cat "$work/original.status"): $(tail -3 "$work/original.stderr")"; finish; }
exceptions=$(grep -c ': YamlDotNet\.' "$work/original.stdout" || true)
[ "$exceptions" -ge 4 ] || fail "the original printed only $exceptions YamlDotNet exceptions"
grep -q "same: True" "$work/original.stdout" || fail "the original did not read its YAML back"

for mode in trace wrap; do
  dir="$work/$mode"
  mkdir -p "$dir"
  cp "$work/plain/YamlDriver.dll" "$work/plain/YamlDriver.runtimeconfig.json" "$dir/"
  args=(--mode "$mode")
  [ "$mode" = trace ] && { args+=(--hooks "$ROOT/testdata/bin/trace/TraceHooks.dll"); cp "$ROOT/testdata/bin/trace/TraceHooks.dll" "$dir/"; }
  "$TOOL" "$lib" -o "$dir/YamlDotNet.dll" "${args[@]}" > "$work/$mode.log" 2>&1 || { fail "$mode: $(tail -1 "$work/$mode.log")"; continue; }
  log=""
  [ "$mode" = trace ] && log="$work/hooks.log"
  run "$dir" "$work/$mode" "$log"
  for part in stdout stderr status; do
    cmp -s "$work/original.$part" "$work/$mode.$part" ||
      { fail "$mode: $part differs"; diff "$work/original.$part" "$work/$mode.$part" | head -5 >&2 || true; }
  done
  if [ "$mode" = trace ]; then
    enters=$(grep -c 'enter ' "$work/hooks.log" || true)
    leaves=$(grep -c 'leave ' "$work/hooks.log" || true)
    seen=$(grep -c 'exception in ' "$work/hooks.log" || true)
    [ "$enters" -gt 1000 ] || fail "trace: only $enters hook calls"
    [ "$enters" = "$leaves" ] || fail "trace: $enters enters, $leaves leaves"
    [ "$seen" -gt 0 ] || fail "trace: OnException saw nothing"
    echo "ok   trace: $(grep -o "instrumented [0-9]* methods" "$work/$mode.log"); the original's output; $enters calls, $seen exceptions seen"
  else
    echo "ok   wrap: $(grep -o "instrumented [0-9]* methods" "$work/$mode.log"); the original's output"
  fi
done
finish
