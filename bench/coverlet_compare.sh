#!/usr/bin/env bash
# Coverage instrumentation against coverlet (issue 15's benchmark), side by side in one run:
#  1. Instrumenting: `cil-instrument IN.dll -o OUT.dll --mode coverage` against coverlet.msbuild's
#     own InstrumentationTask (the task `dotnet test /p:CollectCoverage=true` runs) on the same
#     assembly with its portable PDB, whole process, with `dotnet msbuild` running an empty target
#     as coverlet's floor (MSBuild's start, which every coverlet run pays) and MSBuild's own timing
#     of the task (-clp:PerformanceSummary) beside it, and each output's size (issue 39).
#  2. Running: the CPU-bound fixture (testdata/src/CpuBound) as built, instrumented by each tool,
#     run on dotnet: the slowdown, and per hit (the hits our report counts) the cost of a probe.
#
#   bench/coverlet_compare.sh [--tool PATH] [--runs N] [--classes N] [--methods N] [--rounds N]
#
#   --tool     cil-instrument (default: build-bench/src/cil-instrument, then build/src/...)
#   --runs     runs per side (default 5; medians; RSS = highest)
#   --classes, --methods   the size of the generated input (bench/debug_input/generate.py;
#              default 400 x 40: about 16,000 methods)
#   --rounds   CpuBound's argument (default 20000)
#
# coverlet.msbuild (newest on the NuGet mirror, else whatever the local cache holds) is restored by
# a throwaway project. Inputs are compiled here with their sources on disk at the paths the PDB
# names: coverlet instruments only documents it can open. Every output is checked: coverlet's must
# contain its tracker type and differ from the input, ours must read back (`info`); the
# instrumented CpuBound of each must print what the original prints. A side that fails is
# reported as failed, not timed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
tool=""
runs=5
classes=400
methods=40
rounds=20000
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --classes) classes=$2; shift 2 ;;
    --methods) methods=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "coverlet_compare.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$tool" ]; then
  for t in "$repo/build-bench/src/cil-instrument" "$repo/build/src/cil-instrument"; do
    [ -x "$t" ] && { tool=$t; break; }
  done
fi
[ -n "$tool" ] && [ -x "$tool" ] || { echo "coverlet_compare.sh: no cil-instrument built (--tool)" >&2; exit 2; }
tool=$(readlink -f "$tool")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_CLI_DO_NOT_USE_MSBUILD_SERVER=1 MSBUILDDISABLENODEREUSE=1

# --- coverlet.msbuild, restored by a throwaway project --------------------------------------------
mkdir -p "$work/restore"
cat > "$work/restore/Restore.csproj" <<'EOF'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageReference Include="coverlet.msbuild" Version="$(CoverletVersion)" /></ItemGroup>
</Project>
EOF
coverlet_version=""
for v in 10.0.1 6.0.0; do
  if (cd "$work/restore" && dotnet restore -p:CoverletVersion=$v > "$work/restore.log" 2>&1); then
    coverlet_version=$v
    break
  fi
done
[ -n "$coverlet_version" ] || { tail -5 "$work/restore.log" >&2; echo "coverlet.msbuild cannot be restored here" >&2; exit 77; }
# 10.x keeps the task per framework under tasks/, 6.x under build/.
package="${NUGET_PACKAGES:-$HOME/.nuget/packages}/coverlet.msbuild/$coverlet_version"
tasks=""
for t in "$package"/tasks/net10.0/coverlet.msbuild.tasks.dll "$package"/build/coverlet.msbuild.tasks.dll; do
  [ -f "$t" ] && { tasks=$t; break; }
done
[ -n "$tasks" ] || { echo "no coverlet.msbuild.tasks.dll in $package" >&2; exit 77; }
cat > "$work/coverlet.proj" <<'EOF'
<Project>
  <UsingTask TaskName="Coverlet.MSbuild.Tasks.InstrumentationTask" AssemblyFile="$(CoverletTasks)" Condition="'$(CoverletTasks)' != ''" />
  <Target Name="Instrument">
    <Coverlet.MSbuild.Tasks.InstrumentationTask Path="$(Input)" IncludeTestAssembly="true" ExcludeAssembliesWithoutSources="None">
      <Output TaskParameter="InstrumenterState" PropertyName="InstrumenterState" />
    </Coverlet.MSbuild.Tasks.InstrumentationTask>
    <!-- coverlet puts the original back when MSBuild exits (its ProcessExit handler): keep a copy. -->
    <Copy SourceFiles="$(Input)" DestinationFiles="$(Keep)" Condition="'$(Keep)' != ''" />
  </Target>
  <Target Name="Nothing" />
</Project>
EOF

# --- inputs ----------------------------------------------------------------------------------------
mkdir -p "$work/src"
python3 "$here/debug_input/generate.py" "$work/src/BenchDebug.cs" "$classes" "$methods" > /dev/null
"$repo/scripts/csc.sh" "$work/in/BenchDebug.dll" /target:library /debug:portable /optimize- "$work/src/BenchDebug.cs" > /dev/null
mkdir -p "$work/src/CpuBound"
cp "$repo"/testdata/src/CpuBound/*.cs "$work/src/CpuBound/"
"$repo/scripts/csc.sh" "$work/in/CpuBound.dll" /debug:portable /optimize+ "$work"/src/CpuBound/*.cs > /dev/null

# ms START END: microseconds between two `date +%s%6N` readings, as milliseconds with one decimal.
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# timed LABEL DIR COMMAND...: one run in DIR; appends "wall_ms cpu_ms rss_kb" to $work/LABEL.
timed() {
  local label=$1 dir=$2; shift 2
  local t0 t1
  t0=$(date +%s%6N)
  (cd "$dir" && /usr/bin/time -f '%M %U %S' -o "$work/time.out" "$@" > "$work/$label.log" 2>&1) || { echo "FAILED"; return 1; }
  t1=$(date +%s%6N)
  read -r rss user sys < "$work/time.out"
  echo "$(ms "$t0" "$t1") $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", (u + s) * 1000 }') $rss" >> "$work/$label"
}
row() {  # row LABEL NAME: median wall, median CPU, highest RSS
  local f="$work/$1"
  [ -s "$f" ] || { printf '| %-34s | %10s | %10s | %10s |\n' "$2" failed failed failed; return; }
  printf '| %-34s | %10s | %10s | %10s |\n' "$2" "$(cut -d' ' -f1 "$f" | median) ms" "$(cut -d' ' -f2 "$f" | median) ms" \
    "$(( $(cut -d' ' -f3 "$f" | sort -n | tail -1) / 1024 )) MB"
}

echo "coverlet.msbuild $coverlet_version; $("$tool" --version); dotnet $(dotnet --version); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for input in BenchDebug CpuBound; do
  dll="$work/in/$input.dll"
  size=$(( ($(stat -c %s "$dll") + $(stat -c %s "${dll%.dll}.pdb")) / 1024 ))
  echo
  echo "== instrumenting $input.dll with its PDB ($size KB together)"
  rm -f "$work/ours.$input" "$work/coverlet.$input" "$work/floor.$input"
  task_ms=()
  for ((r = 1; r <= runs; r++)); do
    # Round robin: ours, coverlet, the floor; each from a fresh copy (coverlet rewrites in place).
    rm -rf "$work/o" "$work/c" && mkdir -p "$work/o" "$work/c"
    cp "$dll" "${dll%.dll}.pdb" "$work/c/"
    timed "ours.$input" "$work/in" "$tool" "$dll" -o "$work/o/$input.dll" --mode coverage ||
      { echo "ours failed: $(tail -2 "$work/ours.$input.log")"; rm -f "$work/ours.$input"; }
    timed "coverlet.$input" "$work" dotnet msbuild coverlet.proj -nologo -m:1 -nodeReuse:false -t:Instrument \
      "-p:CoverletTasks=$tasks" "-p:Input=$work/c/$input.dll" "-p:Keep=$work/c/kept.dll" -clp:PerformanceSummary ||
      { echo "coverlet failed: $(tail -3 "$work/coverlet.$input.log")"; rm -f "$work/coverlet.$input"; }
    task_ms+=("$(grep -E '^ +[0-9]+ ms +Coverlet.MSbuild.Tasks.InstrumentationTask' "$work/coverlet.$input.log" | awk '{ print $1 }' || true)")
    timed "floor.$input" "$work" dotnet msbuild coverlet.proj -nologo -m:1 -nodeReuse:false -t:Nothing || true
  done
  # The outputs: coverlet's carries its tracker and differs from the input; ours reads back.
  if [ -s "$work/coverlet.$input" ] && { cmp -s "$dll" "$work/c/kept.dll" || ! grep -aq "Coverlet.Core.Instrumentation.Tracker" "$work/c/kept.dll"; }; then
    echo "coverlet left $input.dll uninstrumented: $(grep -i 'coverlet\]' "$work/coverlet.$input.log" | head -2)"
    rm -f "$work/coverlet.$input"
  fi
  if [ -s "$work/ours.$input" ] && ! "$tool" info "$work/o/$input.dll" > /dev/null 2>&1; then
    echo "our output of $input.dll does not read back"
    rm -f "$work/ours.$input"
  fi
  printf '| %-34s | %10s | %10s | %10s |\n' "whole process, median of $runs" wall CPU "peak RSS"
  printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..36})" "------------" "------------" "------------"
  row "ours.$input" "cil-instrument --mode coverage"
  row "coverlet.$input" "coverlet (dotnet msbuild + task)"
  row "floor.$input" "dotnet msbuild, empty target"
  # Output sizes (issue 39's target: ours at most 1.5 times coverlet's), the last run's of each.
  if [ -s "$work/ours.$input" ] && [ -s "$work/coverlet.$input" ]; then
    in_b=$(stat -c %s "$dll"); ours_b=$(stat -c %s "$work/o/$input.dll"); cov_b=$(stat -c %s "$work/c/kept.dll")
    awk -v i="$in_b" -v o="$ours_b" -v c="$cov_b" -v n="$input" 'BEGIN {
      printf "output size: %s.dll %.0f KB; ours %.0f KB (%.2fx input), coverlet %.0f KB (%.2fx input); ours / coverlet %.2fx\n",
        n, i / 1024, o / 1024, o / i, c / 1024, c / i, o / c }'
  fi
  task=$(printf '%s\n' "${task_ms[@]}" | grep -E '^[0-9]+$' | median || true)
  [ -n "$task" ] && echo "coverlet's task alone (MSBuild's timing, median): $task ms"
  if [ -s "$work/ours.$input" ] && [ -s "$work/coverlet.$input" ]; then
    ours_cpu=$(cut -d' ' -f2 "$work/ours.$input" | median)
    cov_cpu=$(cut -d' ' -f2 "$work/coverlet.$input" | median)
    cov_wall=$(cut -d' ' -f1 "$work/coverlet.$input" | median)
    ours_wall=$(cut -d' ' -f1 "$work/ours.$input" | median)
    awk -v oc="$ours_cpu" -v cc="$cov_cpu" -v ow="$ours_wall" -v cw="$cov_wall" -v t="${task:-0}" \
      'BEGIN { if (oc >= 20) printf "coverlet / ours: %.0fx CPU, %.0fx wall", cc / oc, cw / ow;
               else printf "coverlet / ours: %.0fx wall (our CPU time is under GNU time'"'"'s 10 ms resolution)", cw / ow;
               if (t > 0) printf "; coverlet task alone / our whole process: %.0fx wall", t / ow; print "" }'
  fi
done

# --- running: CpuBound as built, and instrumented by each --------------------------------------------
echo
echo "== running CpuBound $rounds on dotnet (median of $runs)"
mkdir -p "$work/run/orig" "$work/run/ours" "$work/run/coverlet" "$work/run/c" "$work/hits"
for side in orig ours coverlet; do cp "$work/in/CpuBound.dll" "$work/in/CpuBound.pdb" "$work/in/CpuBound.runtimeconfig.json" "$work/run/$side/"; done
"$tool" "$work/in/CpuBound.dll" -o "$work/run/ours/CpuBound.dll" --mode coverage > /dev/null
cp "$work/in/CpuBound.dll" "$work/in/CpuBound.pdb" "$work/run/c/"
(cd "$work" && dotnet msbuild coverlet.proj -nologo -m:1 -nodeReuse:false -t:Instrument "-p:CoverletTasks=$tasks" \
  "-p:Input=$work/run/c/CpuBound.dll" "-p:Keep=$work/run/coverlet/CpuBound.dll" > "$work/coverlet.run.log" 2>&1) || echo "coverlet failed on CpuBound"
grep -aq "Coverlet.Core.Instrumentation.Tracker" "$work/run/coverlet/CpuBound.dll" || echo "coverlet left CpuBound.dll uninstrumented"
(cd "$work/run/orig" && dotnet CpuBound.dll "$rounds" > "$work/orig.stdout")
for side in orig ours coverlet; do
  rm -f "$work/run.$side"
  for ((r = 1; r <= runs; r++)); do
    [ "$side" = ours ] && rm -f "$work"/hits/*
    CIL_INSTRUMENT_OUTPUT="$work/hits" timed "run.$side" "$work/run/$side" dotnet CpuBound.dll "$rounds" || true
    cmp -s "$work/orig.stdout" "$work/run.$side.log" || { echo "$side: CpuBound's output differs"; rm -f "$work/run.$side"; break; }
  done
done
# Every probe's count, from the hits file of the last run (one per probe: method entry, line, branch).
hits=$(python3 -c 'import json, sys
print(sum(m["count"] for m in json.load(open(sys.argv[1]))["methods"]))' "$(ls "$work"/hits/CpuBound.*.hits.json | head -1)" 2> /dev/null || echo 0)
printf '| %-34s | %10s | %10s | %10s |\n' "CpuBound $rounds, whole process" wall CPU "peak RSS"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..36})" "------------" "------------" "------------"
row run.orig "as built"
row run.ours "cil-instrument --mode coverage"
row run.coverlet "coverlet"
if [ -s "$work/run.orig" ]; then
  base=$(cut -d' ' -f2 "$work/run.orig" | median)
  for side in ours coverlet; do
    [ -s "$work/run.$side" ] || continue
    cpu=$(cut -d' ' -f2 "$work/run.$side" | median)
    awk -v b="$base" -v c="$cpu" -v h="$hits" -v s="$side" 'BEGIN {
      printf "%s: %+.0f%% CPU", s, (c - b) * 100 / b
      if (h > 0) printf ", %.1f ns per probe hit (%d hits, our hits file)", (c - b) * 1e6 / h, h
      print "" }'
  done
fi
