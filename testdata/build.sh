#!/usr/bin/env bash
# Rebuilds every binary under testdata/bin/ from the sources in testdata/src (C#, via
# scripts/csc.sh), testdata/mono (mcs) and testdata/il (Mono ilasm). Runnable from any directory.
#
#   testdata/build.sh
#
# Rebuilding gives byte-identical files: the C# outputs are deterministic (/deterministic+ from
# csc.sh, /pathmap for source and PDB paths), mcs 6.8 output is deterministic for a given output
# file name, and Mono ilasm output (random MVID, current time in the PE header) is normalized by
# tools/NormalizePe.cs (timestamp 0, MVID = hash of the content). See README.md.
set -euo pipefail

TD=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$TD")
CSC="$ROOT/scripts/csc.sh"
BIN="$TD/bin"

for tool in dotnet mcs ilasm; do
  command -v "$tool" >/dev/null || { echo "build.sh: '$tool' not found" >&2; exit 1; }
done

# Same runtimeconfig.json that scripts/csc.sh writes for executables, so that the mcs/ilasm
# outputs (mscorlib-based .exe files) also run with `dotnet X.exe`.
fx_version=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2} END{print v}')
write_runtimeconfig() {
  cat > "${1%.*}.runtimeconfig.json" <<JSON
{
  "runtimeOptions": {
    "tfm": "net${fx_version%%.*}.0",
    "framework": { "name": "Microsoft.NETCore.App", "version": "${fx_version%.*}.0" }
  }
}
JSON
}

# cs OUT.dll [csc options...]  -- sources are the *.cs of the fixture named by OUT's base name
# (up to the first dot), e.g. bin/DebugInfo.Embedded.dll is built from src/DebugInfo/*.cs.
cs() {
  local out=$1; shift
  local name; name=$(basename "$out"); name=${name%%.*}
  echo "csc    ${out#"$TD"/}"
  "$CSC" "$out" /pathmap:"$TD"=/_/testdata /warn:4 "$@" "$TD/src/$name"/*.cs
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -rf "$BIN"
mkdir -p "$BIN/debug" "$BIN/mono" "$BIN/il"

# --- C# for .NET 10 (release codegen, no PDB) ---
cs "$BIN/Basics.dll"     /optimize+ /debug-
cs "$BIN/Generics.dll"   /optimize+ /debug- /unsafe+
cs "$BIN/Exceptions.dll" /optimize+ /debug-
cs "$BIN/Control.dll"    /optimize+ /debug-
cs "$BIN/AsyncIter.dll"  /optimize+ /debug-
cs "$BIN/Unsafe.dll"     /optimize+ /debug- /unsafe+
cs "$BIN/Interop.dll"    /optimize+ /debug- /unsafe+
cs "$BIN/Threads.dll"    /optimize+ /debug-
cs "$BIN/ExitCode.dll"   /optimize+ /debug-
cs "$BIN/Unhandled.dll"  /optimize+ /debug-
cs "$BIN/ByRefArgs.dll"  /optimize+ /debug- /unsafe+
cs "$BIN/Library.dll"    /optimize+ /debug- /target:library /nullable+
cs "$BIN/Selection.dll"  /optimize+ /debug- /target:library

# --- the same sources with debug codegen (/optimize-: nops, more locals, other branch shapes) ---
cs "$BIN/debug/Exceptions.dll" /optimize- /debug-
cs "$BIN/debug/Control.dll"    /optimize- /debug-
cs "$BIN/debug/AsyncIter.dll"  /optimize- /debug-

# --- trace mode: the hooks assembly and the fixture that exercises every case ---
mkdir -p "$BIN/trace"
cs "$BIN/trace/TraceHooks.dll" /optimize+ /debug- /target:library
cs "$BIN/trace/TraceApp.dll"   /optimize+ /debug- /unsafe+
cs "$BIN/trace/BadHooks.dll"   /optimize+ /debug- /target:library
# Hooks with one callback each, strong-named (key pair committed beside the source), version 1.2.3.4.
cs "$BIN/trace/SlimHooks.dll"  /optimize+ /debug- /target:library /keyfile:"$TD/src/SlimHooks/SlimHooks.snk"
# The same hooks for Mono (mscorlib), for the .NET Framework-style fixtures run under mono.
mkdir -p "$BIN/trace/mono"
echo "mcs    bin/trace/mono/TraceHooks.dll"
mcs -nologo -optimize+ -debug- -target:library -out:"$BIN/trace/mono/TraceHooks.dll" "$TD"/src/TraceHooks/*.cs
echo "mcs    bin/trace/mono/SlimHooks.dll"
mcs -nologo -optimize+ -debug- -target:library -keyfile:"$TD/src/SlimHooks/SlimHooks.snk" \
  -out:"$BIN/trace/mono/SlimHooks.dll" "$TD"/src/SlimHooks/*.cs

# --- runtime profiler (cil-instrument run): the program its tests run, a CPU-bound one for bench/ ---
mkdir -p "$BIN/profiler"
cs "$BIN/profiler/Profiled.dll" /optimize+ /debug-
cs "$BIN/profiler/CpuBound.dll" /optimize+ /debug-
cs "$BIN/profiler/InMemory.dll" /optimize+ /debug-
cs "$BIN/profiler/Ticker.dll"   /optimize+ /debug-

# --- debug directory entries: CodeView + PdbChecksum + EmbeddedPortablePdb / separate .pdb ---
cs "$BIN/DebugInfo.Embedded.dll" /optimize+ /debug:embedded
cs "$BIN/DebugInfo.Portable.dll" /optimize+ /debug:portable
# Debug builds that throw from known lines (sync, async, iterator, lambda, generic, constructor,
# finally, two documents): stack traces of instrumented copies must name the same lines.
cs "$BIN/debug/DebugLines.Portable.dll" /optimize- /debug:portable
cs "$BIN/debug/DebugLines.Embedded.dll" /optimize- /debug:embedded
# Coverage: constructs with line and branch hits known from the source (coverage_test.sh).
cs "$BIN/debug/Coverage.dll" /optimize- /debug:portable /nullable:enable

# --- strong-named (keys committed in keys/, made with sn -k): instrument --key re-signs them ---
mkdir -p "$BIN/signed/mono"
cs "$BIN/signed/Signed.dll"         /optimize+ /debug- /keyfile:"$TD/keys/Test.snk"
cs "$BIN/signed/Signed.Key2048.dll" /optimize+ /debug- /keyfile:"$TD/keys/Test2048.snk"
cs "$BIN/signed/Signed.Delay.dll"   /optimize+ /debug- /keyfile:"$TD/keys/Test.public.snk" /delaysign+
cs "$BIN/signed/Signed.Portable.dll" /optimize- /debug:portable /keyfile:"$TD/keys/Test.snk"
echo "mcs    bin/signed/mono/Signed.exe"
mcs -nologo -optimize+ -debug- -keyfile:"$TD/keys/Test.snk" -out:"$BIN/signed/mono/Signed.exe" "$TD"/src/Signed/*.cs
write_runtimeconfig "$BIN/signed/mono/Signed.exe"

# --- .NET Framework 4.x (mscorlib) executables from mcs: PE32, x86 entry stub ---
for src in "$TD"/mono/*.cs; do
  name=$(basename "$src" .cs)
  echo "mcs    bin/mono/$name.exe"
  mcs -nologo -optimize+ -debug- -out:"$BIN/mono/$name.exe" "$src"
  write_runtimeconfig "$BIN/mono/$name.exe"
done

# --- hand-written IL (Mono ilasm), then made reproducible with NormalizePe ---
"$CSC" "$tmp/NormalizePe.dll" /optimize+ /debug- "$TD/tools/NormalizePe.cs"
for src in "$TD"/il/*.il; do
  name=$(basename "$src" .il)
  echo "ilasm  bin/il/$name.exe"
  log=$(ilasm /exe /output:"$BIN/il/$name.exe" "$src" 2>&1) || { echo "$log" >&2; exit 1; }
  [ -f "$BIN/il/$name.exe" ] || { echo "$log" >&2; exit 1; }
  dotnet "$tmp/NormalizePe.dll" "$BIN/il/$name.exe"
  write_runtimeconfig "$BIN/il/$name.exe"
done

echo "done: $(find "$BIN" -type f | wc -l) files in ${BIN#"$ROOT"/}"
