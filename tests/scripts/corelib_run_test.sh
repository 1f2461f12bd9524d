#!/usr/bin/env bash
# .NET's own System.Private.CoreLib, instrumented in count mode with no option, runs as the
# CoreLib of a copy of the shared framework (issue 18's benchmark found it overflowing the stack
# as the runtime started: the probe's static field and Interlocked.Increment reached probed
# runtime helpers). testdata's Basics.dll prints the same on the copy as on the installed
# runtime, and the counts file of CoreLib is written and read by report. The summary names the
# helpers left alone.
#   tests/scripts/corelib_run_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
unset CIL_INSTRUMENT_OUTPUT
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "corelib_run: the tool's C++ is covered by corpus and instrument_verify there"; exit 77; }
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
fx=$(framework_dir)
version=$(basename "$fx")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/dotnet
mkdir -p "$root/shared/Microsoft.NETCore.App" "$root/host"
cp "$dotnet_root/dotnet" "$root/"
cp -r "$dotnet_root/host/fxr" "$root/host/"
cp -r "$fx" "$root/shared/Microsoft.NETCore.App/"
corelib=$root/shared/Microsoft.NETCore.App/$version/System.Private.CoreLib.dll
"$TOOL" "$fx/System.Private.CoreLib.dll" -o "$corelib" > "$work/summary.txt" 2> /dev/null || fail "instrumenting CoreLib: status $?"
has -F "System.Threading.Interlocked::Increment: runtime helper the probe itself runs (CoreLib)" < "$work/summary.txt" ||
  fail "the summary does not name the helpers left alone: $(head -5 "$work/summary.txt")"
app=$ROOT/testdata/bin/Basics.dll
dotnet "$app" > "$work/expected.txt" 2>&1 || true
mkdir -p "$work/counts"
status=0
CIL_INSTRUMENT_OUTPUT=$work/counts timeout 300 "$root/dotnet" "$app" > "$work/actual.txt" 2>&1 || status=$?
[ "$status" = 0 ] || fail "Basics on the instrumented CoreLib: status $status: $(head -c 400 "$work/actual.txt")"
cmp -s "$work/expected.txt" "$work/actual.txt" || fail "Basics prints otherwise on the instrumented CoreLib"
ls "$work"/counts/System.Private.CoreLib.*.counts.json > /dev/null 2>&1 || fail "no counts file for CoreLib"
"$TOOL" report "$work"/counts/System.Private.CoreLib.*.counts.json > "$work/report.txt" 2>&1 || fail "report: $(cat "$work/report.txt")"
has "^System.Private.CoreLib (mvid " < "$work/report.txt" || fail "report: $(head -3 "$work/report.txt")"
finish
