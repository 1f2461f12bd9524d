#!/usr/bin/env bash
# Coverage of a real test suite against the peers (issue 39's benchmark), side by side in one
# run, round robin (rotated), each side the same `dotnet test` of the built test assembly:
#   plain                       no coverage
#   coverlet.collector          --collect "XPlat Code Coverage" (Cobertura)
#   Microsoft static            --collect "Code Coverage", runsettings: static managed instrumentation
#                               (it rewrites the files on disk, then restores them)
#   Microsoft dynamic           the same, dynamic instrumentation (a CLR profiler, no file changed)
#   ours offline (exec)         cil-instrument exec --mode coverage BIN -- dotnet test ...
#   ours JIT time (run)         cil-instrument run --mode coverage -- dotnet test ...
# CPU (user + system of the whole process tree) and wall, medians, as ratios to plain.
#
#   bench/coverage_peers.sh [CHECKOUT] [--tool PATH] [--runs N] [--tests REL.csproj] [--library NAME]
#
#   CHECKOUT   the library's source tree (not changed: it is copied); default the vendored
#              Stateless, testdata/thirdparty/stateless (its README names the repository and
#              commit; the default --tests and --library are its)
#   --tests    its test project, relative to CHECKOUT (default test/Stateless.Tests/Stateless.Tests.csproj)
#   --library  the assembly under test, the one every side covers (default Stateless)
#   --runs     runs per side (default 5)
#   --tool     cil-instrument (default: build-bench/src/cil-instrument, then build/src/...)
#
# The copy is built once, Debug, for net10.0 only, with packages from the NuGet mirror. The
# vendored tree is built as it is (its project files are already retargeted); an upstream
# checkout gets a targets file (passed as CustomAfterMicrosoftCommonTargets, so that the tree is
# not edited) that moves the versions the mirror lacks (xunit 2.4.0's xunit.assert) to the
# nearest it has, drops SourceLink (build metadata only) and adds coverlet.collector 10.0.1 to the
# test project. Microsoft.CodeCoverage is the one Microsoft.NET.Test.Sdk brings. Every run must
# pass the same number of tests as plain, and every coverage side must leave its report
# (Cobertura, or our hits files), else that run is reported and not timed (the table says how
# many runs each median has).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
checkout=""
tool=""
runs=5
tests=test/Stateless.Tests/Stateless.Tests.csproj
library=Stateless
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --library) library=$2; shift 2 ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    -*) echo "coverage_peers.sh: unknown option $1" >&2; exit 2 ;;
    *) checkout=$1; shift ;;
  esac
done
vendored="$repo/testdata/thirdparty/stateless"
[ -n "$checkout" ] || checkout=$vendored
[ -f "$checkout/$tests" ] || { echo "coverage_peers.sh: CHECKOUT with $tests needed (--help)" >&2; exit 2; }
if [ -z "$tool" ]; then
  for t in "$repo/build-bench/src/cil-instrument" "$repo/build/src/cil-instrument"; do
    [ -x "$t" ] && { tool=$t; break; }
  done
fi
[ -n "$tool" ] && [ -x "$tool" ] || { echo "coverage_peers.sh: no cil-instrument built (--tool)" >&2; exit 2; }
tool=$(readlink -f "$tool")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_CLI_DO_NOT_USE_MSBUILD_SERVER=1 MSBUILDDISABLENODEREUSE=1

# --- the build ---------------------------------------------------------------------------------------
cp -r "$checkout" "$work/src"
project="$work/src/$tests"
overrides=()
if [ "$(readlink -f "$checkout")" != "$(readlink -f "$vendored")" ]; then
  overrides=(-p:TargetFrameworks=net10.0 -p:CustomAfterMicrosoftCommonTargets="$work/overrides.targets" -p:PeerTestProject="$project")
fi
cat > "$work/overrides.targets" <<'XML'
<Project>
  <ItemGroup>
    <PackageReference Remove="Microsoft.SourceLink.GitHub" />
    <!-- xunit 2.4.0's xunit.assert is not on the mirror; the suite's pin, moved to the nearest. -->
    <PackageReference Update="xunit" Version="2.4.1" />
  </ItemGroup>
  <ItemGroup Condition="'$(MSBuildProjectFullPath)' == '$(PeerTestProject)'">
    <PackageReference Include="coverlet.collector" Version="10.0.1" />
  </ItemGroup>
</Project>
XML
echo "building $tests (net10.0, Debug)..."
(cd "$work/src" && timeout 900 dotnet build "$project" -nologo -v q -p:TreatWarningsAsErrors=false "${overrides[@]}" \
  > "$work/build.log" 2>&1) ||
  { tail -20 "$work/build.log" >&2; echo "the suite did not build" >&2; exit 1; }
bin="$(dirname "$project")/bin/Debug/net10.0"
dll="$bin/$(basename "${tests%.csproj}").dll"
[ -f "$dll" ] && [ -f "$bin/$library.dll" ] && [ -f "$bin/$library.pdb" ] || { echo "no $dll, or no $library.dll with its PDB beside it" >&2; exit 1; }
# `dotnet test X.dll` finds the collectors only where their packages keep them (a project's
# `dotnet test` gets the same folders from the packages' targets).
assets="$(dirname "$project")/obj/project.assets.json"
grep -q '"coverlet.collector/10.0.1"' "$assets" || { echo "coverlet.collector 10.0.1 is not in $assets" >&2; exit 1; }
coverlet="${NUGET_PACKAGES:-$HOME/.nuget/packages}/coverlet.collector/10.0.1/build/net10.0"
[ -f "$coverlet/coverlet.collector.dll" ] || { echo "no coverlet.collector.dll in $coverlet" >&2; exit 1; }
mscc_version=$(grep -o '"Microsoft.CodeCoverage/[0-9][^"]*"' "$assets" | head -1 | tr -d '"' | cut -d/ -f2)
mscc="${NUGET_PACKAGES:-$HOME/.nuget/packages}/microsoft.codecoverage/$mscc_version/build/netstandard2.0"
[ -n "$mscc_version" ] && [ -f "$mscc/Microsoft.VisualStudio.TraceDataCollector.dll" ] || { echo "no Microsoft.CodeCoverage collector ($mscc)" >&2; exit 1; }

settings() {  # settings FILE STATIC DYNAMIC: Microsoft.CodeCoverage's runsettings, the library only
  cat > "$1" <<XML
<?xml version="1.0" encoding="utf-8"?>
<RunSettings>
  <DataCollectionRunSettings>
    <DataCollectors>
      <DataCollector friendlyName="Code Coverage">
        <Configuration>
          <Format>Cobertura</Format>
          <CodeCoverage>
            <ModulePaths><Include><ModulePath>.*[/\\\\]$library\\.dll\$</ModulePath></Include></ModulePaths>
            <EnableStaticManagedInstrumentation>$2</EnableStaticManagedInstrumentation>
            <EnableDynamicManagedInstrumentation>$3</EnableDynamicManagedInstrumentation>
            <EnableStaticNativeInstrumentation>False</EnableStaticNativeInstrumentation>
            <EnableDynamicNativeInstrumentation>False</EnableDynamicNativeInstrumentation>
          </CodeCoverage>
        </Configuration>
      </DataCollector>
    </DataCollectors>
  </DataCollectionRunSettings>
</RunSettings>
XML
}
settings "$work/ms_static.runsettings" True False
settings "$work/ms_dynamic.runsettings" False True
cat > "$work/coverlet.runsettings" <<XML
<?xml version="1.0" encoding="utf-8"?>
<RunSettings><DataCollectionRunSettings><DataCollectors>
  <DataCollector friendlyName="XPlat code coverage"><Configuration>
    <Format>cobertura</Format><Include>[$library]*</Include>
  </Configuration></DataCollector>
</DataCollectors></DataCollectionRunSettings></RunSettings>
XML

# --- the runs ----------------------------------------------------------------------------------------
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) / 1000 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# side NAME: one run of that side in a fresh results folder; appends "wall_ms cpu_ms" to $work/NAME
# when the run passed the tests plain passed and left its coverage.
side() {
  local name=$1 out="$work/out.$1" t0 t1 status=0
  rm -rf "$out" && mkdir -p "$out"
  local cmd=(dotnet test "$dll" --results-directory "$out")
  case "$name" in
    plain) ;;
    coverlet) cmd+=(--collect "XPlat Code Coverage" --settings "$work/coverlet.runsettings" --test-adapter-path "$coverlet") ;;
    ms_static) cmd+=(--collect "Code Coverage" --settings "$work/ms_static.runsettings" --test-adapter-path "$mscc") ;;
    ms_dynamic) cmd+=(--collect "Code Coverage" --settings "$work/ms_dynamic.runsettings" --test-adapter-path "$mscc") ;;
    ours_exec) cmd=("$tool" exec --mode coverage --assemblies "$library.dll" -o "$out" "$bin" -- "${cmd[@]}") ;;
    ours_run) cmd=("$tool" run --mode coverage --assemblies "$library.dll" -o "$out" -q -- "${cmd[@]}") ;;
  esac
  t0=$(date +%s%6N)
  (cd "$work" && /usr/bin/time -f '%U %S' -o "$work/time.out" "${cmd[@]}" > "$work/$name.log" 2>&1) || status=$?
  t1=$(date +%s%6N)
  local passed
  passed=$(grep -oE 'Passed: +[0-9]+' "$work/$name.log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  if [ "$status" != 0 ] || [ "$passed" = 0 ] || { [ -n "${expected_passed:-}" ] && [ "$passed" != "$expected_passed" ]; }; then
    echo "$name: failed (exit $status, $passed passed): $(tail -2 "$work/$name.log" | tr '\n' ' ')" >&2
    return 0
  fi
  case "$name" in
    coverlet|ms_static|ms_dynamic) find "$out" -name '*.cobertura.xml' | grep -q . || { echo "$name: no Cobertura report" >&2; return 0; } ;;
    ours_exec|ours_run) ls "$out"/"$library".*.hits.json > /dev/null 2>&1 || { echo "$name: no $library hits file" >&2; return 0; } ;;
  esac
  [ "$name" = plain ] && expected_passed=$passed
  read -r user sys < "$work/time.out"
  echo "$(ms "$t0" "$t1") $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", (u + s) * 1000 }') $passed" >> "$work/$name"
}

sides="plain coverlet ms_static ms_dynamic ours_exec ours_run"
echo "$library: $(basename "$dll"); cil-instrument $("$tool" --version | awk '{ print $NF }'); dotnet $(dotnet --version); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
side plain  # warm-up (the first run of a fresh build pays the disk), and the expected test count
rm -f "$work/plain"
[ -n "${expected_passed:-}" ] || { echo "plain dotnet test failed: $(tail -5 "$work/plain.log")" >&2; exit 1; }
# Round robin, each round starting one side later: a side that runs first (after the previous
# round's last, whose processes may still be ending) or last is not always the same one.
read -r -a order <<< "$sides"
for ((r = 0; r < runs; r++)); do
  for ((k = 0; k < ${#order[@]}; k++)); do side "${order[$(((k + r) % ${#order[@]}))]}"; done
done

# --- the table ---------------------------------------------------------------------------------------
label() {
  case "$1" in
    plain) echo "plain dotnet test" ;; coverlet) echo "coverlet.collector 10.0.1" ;;
    ms_static) echo "Microsoft.CodeCoverage $mscc_version, static" ;; ms_dynamic) echo "Microsoft.CodeCoverage $mscc_version, dynamic" ;;
    ours_exec) echo "cil-instrument exec (offline)" ;; ours_run) echo "cil-instrument run (JIT time)" ;;
  esac
}
base_wall=$(cut -d' ' -f1 "$work/plain" | median)
base_cpu=$(cut -d' ' -f2 "$work/plain" | median)
echo
echo "$expected_passed tests; median of $runs; load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
printf '| %-40s | %4s | %9s | %9s | %9s | %9s |\n' side runs wall CPU "wall x" "CPU x"
printf '|%s|%s|%s|%s|%s|%s|\n' "------------------------------------------" "------" "-----------" "-----------" "-----------" "-----------"
for s in $sides; do
  if [ ! -s "$work/$s" ]; then
    printf '| %-40s | %4s | %9s | %9s | %9s | %9s |\n' "$(label "$s")" 0 failed failed "" ""
    continue
  fi
  w=$(cut -d' ' -f1 "$work/$s" | median)
  c=$(cut -d' ' -f2 "$work/$s" | median)
  printf '| %-40s | %4s | %6s ms | %6s ms | %8sx | %8sx |\n' "$(label "$s")" "$(wc -l < "$work/$s")" "$w" "$c" \
    "$(awk -v a="$w" -v b="$base_wall" 'BEGIN { printf "%.2f", a / b }')" "$(awk -v a="$c" -v b="$base_cpu" 'BEGIN { printf "%.2f", a / b }')"
done
