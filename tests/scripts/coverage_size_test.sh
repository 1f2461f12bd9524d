#!/usr/bin/env bash
# The size of coverage mode's output (issue 39): a large hits-file skeleton is packed (deflated,
# instrument/skeleton_pack.h) and inflated by the helper at run time, and the report does not
# change. A generated Debug library (bench/debug_input/generate.py, 24 x 10 methods: every kind
# of method a compiler makes sequence points for) is compiled here with a driver that calls
# every method (not instrumented), then:
#   - the skeleton's static data in the output is at most an eighth of the hits file it writes
#     (deflated, it is about a fourteenth; unpacked, it was the whole text);
#   - with coverlet.msbuild restorable (NuGet mirror), the output is at most 1.5 times coverlet's
#     instrumented library (its InstrumentationTask on the same file and PDB), issue 39's target:
#     1.25 today, 1.9 while the input's metadata and replaced bodies stayed in the file as dead
#     bytes (pe/section_cuts.h), 4.5 with the skeleton unpacked as well;
#   - the instrumented library runs: the driver prints what it prints on the original, and the
#     hits file of a normal exit (the skeleton inflated at exit) and the live file a SIGKILL
#     leaves (inflated at start, when the live file is made) report the same lines and hits as
#     the profiler's JIT-time coverage of the original (its own writer: no packed skeleton).
#   tests/scripts/coverage_size_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

mkdir -p "$work/src"
python3 "$ROOT/bench/debug_input/generate.py" "$work/src/Big.cs" 24 10 > /dev/null
cat > "$work/src/Driver.cs" <<'CS'
// Calls every public static method of Big.dll with small arguments (iterators enumerated, tasks
// waited), prints a checksum, and with "kill" ends by SIGKILL, so that no exit handler runs.
using System;
using System.Collections;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
static class Driver {
  static int Main(string[] args) {
    long sum = 0;
    var types = typeof(BenchDebug.C0).Assembly.GetTypes().Where(t => t.IsPublic).OrderBy(t => t.FullName, StringComparer.Ordinal);
    foreach (var type in types)
      foreach (var m in type.GetMethods(BindingFlags.Public | BindingFlags.Static).OrderBy(m => m.Name, StringComparer.Ordinal)) {
        object[] a = m.GetParameters().Select(p => p.ParameterType == typeof(string) ? (object)"abc" : (object)3).ToArray();
        object r = m.Invoke(null, a);
        if (r is Task<int> ti) r = ti.Result;
        if (r is IEnumerable e && !(r is string)) foreach (object o in e) sum += o.GetHashCode() & 0xFF;
        else if (r != null) sum += r.ToString().Length;
      }
    Console.WriteLine(sum);
    if (args.Length > 0 && args[0] == "kill") System.Diagnostics.Process.GetCurrentProcess().Kill();
    return 0;
  }
}
CS
bash "$ROOT/scripts/csc.sh" "$work/in/Big.dll" /target:library /debug:portable /optimize- "$work/src/Big.cs" > "$work/csc.log" 2>&1 &&
  bash "$ROOT/scripts/csc.sh" "$work/in/Driver.dll" /reference:"$work/in/Big.dll" "$work/src/Driver.cs" >> "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the generated input did not compile"; finish; }

echo "== size"
mkdir -p "$work/out"
cp "$work/in/Driver.dll" "$work/in/Driver.runtimeconfig.json" "$work/out/"
"$TOOL" "$work/in/Big.dll" -o "$work/out/Big.dll" --mode coverage > /dev/null || { fail "instrumenting Big.dll failed"; finish; }
in_size=$(stat -c %s "$work/in/Big.dll")
out_size=$(stat -c %s "$work/out/Big.dll")

echo "== run: exit, and SIGKILL"
(cd "$work/in" && dotnet Driver.dll > "$work/plain.out") || { fail "the driver failed on the original"; finish; }
mkdir -p "$work/exit" "$work/kill" "$work/jit"
(cd "$work/out" && CIL_INSTRUMENT_OUTPUT="$work/exit" dotnet Driver.dll > "$work/exit.out") || fail "the instrumented library failed"
cmp -s "$work/plain.out" "$work/exit.out" || fail "the driver printed $(cat "$work/exit.out"), not $(cat "$work/plain.out")"
# The subshell waits for the killed process, so its "Killed" line goes to its own stderr.
(cd "$work/out" && CIL_INSTRUMENT_OUTPUT="$work/kill" dotnet Driver.dll kill > /dev/null 2>&1 || true) 2> /dev/null
hits=("$work"/exit/Big.*.hits.json)
live=("$work"/kill/Big.*.hits.live)
[ -f "${hits[0]}" ] || { fail "no hits file at exit: $(ls "$work/exit")"; finish; }
[ -f "${live[0]}" ] || { fail "no live file after SIGKILL: $(ls "$work/kill")"; finish; }
# The skeleton's bytes in the output: every static data array WriteFile makes (ldc.i4 N, newarr
# T, dup, ldtoken <CilInstrument>Packed/Methods/Lengths), packed or not.
embedded=$("$TOOL" dump "$work/out/Big.dll" --method '<CilInstrument>::WriteFile' | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
total = 0
for i, line in enumerate(lines):
    m = re.search(r"ldtoken field .*<CilInstrument>(Packed|Methods|Lengths)[0-9]+", line)
    if m:
        n = int(re.search(r"ldc\.i4(?:\.s)? (\d+)", lines[i - 3]).group(1))
        total += n * (4 if "Int32" in lines[i - 2] else 1)
print(total)')
probes=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["methods"]))' "${hits[0]}")
hits_size=$(stat -c %s "${hits[0]}")
echo "Big.dll $in_size bytes, instrumented $out_size bytes; $probes probes; the skeleton takes $embedded bytes of it, for a $hits_size-byte hits file"
[ "$embedded" -gt 0 ] || fail "no skeleton data found in WriteFile"
[ $((embedded * 8)) -le "$hits_size" ] || fail "the skeleton takes $embedded bytes, over an eighth of the hits file's $hits_size: is it packed?"

"$TOOL" report "${hits[0]}" --cobertura "$work/exit.xml" > /dev/null || fail "report of the hits file failed"
"$TOOL" report "${live[0]}" --cobertura "$work/kill.xml" > /dev/null || fail "report of the live file failed"
if [ -f "$(dirname "$TOOL")/libcilprofiler.so" ]; then
  (cd "$work/in" && "$TOOL" run --mode coverage --assemblies Big.dll -o "$work/jit" -q -- dotnet Driver.dll > "$work/jit.out") ||
    fail "run --mode coverage failed"
  jit=("$work"/jit/Big.*.hits.json)
  "$TOOL" report "${jit[0]}" --cobertura "$work/jit.xml" > /dev/null || fail "report of the JIT-time hits file failed"
else
  echo "no libcilprofiler.so: the offline files are compared with each other only"
  cp "$work/exit.xml" "$work/jit.xml"
fi
# Every line's hits and branches, by file and class (the timestamp and the paths aside).
lines() {
  python3 - "$1" <<'PY'
import os, sys, xml.etree.ElementTree as ET
for cls in ET.parse(sys.argv[1]).getroot().iter('class'):
    for line in cls.find('lines').iter('line'):
        print(os.path.basename(cls.get('filename')), cls.get('name'), line.get('number'), line.get('hits'), line.get('condition-coverage'))
PY
}
lines "$work/jit.xml" > "$work/jit.lines"
for side in exit kill; do
  lines "$work/$side.xml" > "$work/$side.lines"
  if [ ! -s "$work/$side.lines" ] || ! cmp -s "$work/jit.lines" "$work/$side.lines"; then
    diff "$work/jit.lines" "$work/$side.lines" | head -5 >&2
    fail "the $side run's report differs from the JIT-time report"
  else
    echo "ok   $side: $(wc -l < "$work/$side.lines") lines, hits and branches as at JIT time"
  fi
done

echo "== against coverlet.msbuild"
mkdir -p "$work/restore" "$work/c"
cat > "$work/restore/Restore.csproj" <<'XML'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageReference Include="coverlet.msbuild" Version="10.0.1" /></ItemGroup>
</Project>
XML
package="${NUGET_PACKAGES:-$HOME/.nuget/packages}/coverlet.msbuild/10.0.1"
tasks="$package/tasks/net10.0/coverlet.msbuild.tasks.dll"
if [ ! -f "$tasks" ] && ! (cd "$work/restore" && timeout 300 dotnet restore > "$work/restore.log" 2>&1); then
  echo "coverlet.msbuild cannot be restored here: the comparison is skipped"
elif [ ! -f "$tasks" ]; then
  fail "coverlet.msbuild 10.0.1 restored without $tasks"
else
  cat > "$work/coverlet.proj" <<'XML'
<Project>
  <UsingTask TaskName="Coverlet.MSbuild.Tasks.InstrumentationTask" AssemblyFile="$(CoverletTasks)" />
  <Target Name="Instrument">
    <Coverlet.MSbuild.Tasks.InstrumentationTask Path="$(Input)" IncludeTestAssembly="true" ExcludeAssembliesWithoutSources="None" />
    <!-- coverlet puts the original back when MSBuild exits: keep a copy. -->
    <Copy SourceFiles="$(Input)" DestinationFiles="$(Keep)" />
  </Target>
</Project>
XML
  cp "$work/in/Big.dll" "$work/in/Big.pdb" "$work/c/"
  (cd "$work" && timeout 300 dotnet msbuild coverlet.proj -nologo -m:1 -nodeReuse:false -t:Instrument "-p:CoverletTasks=$tasks" \
    "-p:Input=$work/c/Big.dll" "-p:Keep=$work/c/kept.dll" > "$work/coverlet.log" 2>&1) || { tail -5 "$work/coverlet.log" >&2; fail "coverlet's task failed"; }
  if [ -f "$work/c/kept.dll" ] && grep -aq "Coverlet.Core.Instrumentation.Tracker" "$work/c/kept.dll"; then
    theirs=$(stat -c %s "$work/c/kept.dll")
    ratio=$(awk -v o="$out_size" -v t="$theirs" 'BEGIN { printf "%.2f", o / t }')
    echo "ours $out_size bytes, coverlet's $theirs bytes: $ratio times"
    # Issue 39's target. What is left over coverlet's: the probes (the new bodies are about twice
    # the old), the packed skeleton and the metadata written anew.
    awk -v r="$ratio" 'BEGIN { exit !(r <= 1.5) }' || fail "our output is $ratio times coverlet's (at most 1.5)"
  else
    fail "coverlet left Big.dll uninstrumented"
  fi
fi
finish
