#!/usr/bin/env bash
# The CilInstrument.MSBuild package (issue 40), made by scripts/pack.sh into a folder feed, on the
# sample solution tests/apps/msbuild_sample without its Directory.Build.targets (which imports
# the repository's targets), with a temporary HOME and NuGet cache:
#  1. `dotnet add package CilInstrument.MSBuild` to the library and its test project (a
#     development dependency: the reference is private). `dotnet test -p:CilInstrument=true
#     -p:CilInstrumentMode=coverage` instruments with the package's own tool (a cil-instrument
#     put first on PATH is never run) and writes Cobertura (one line of two covered); a threshold
#     of 40% passes, one of 60% fails `dotnet test` with the report's exit status 6. The test
#     project, opted in as well by the global property, is left out ("my code" default).
#  2. The Directory.Build.props form: one file references the package for every project and
#     opts every project in (the test project is left out by default); `dotnet test` in count
#     mode reports 4,003 calls of Calc.Add.
#   tests/scripts/nuget_msbuild_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_feed nuget_msbuild
unzip -l "$feed/CilInstrument.MSBuild.$version.nupkg" > "$work/contents.txt"
for file in build/CilInstrument.MSBuild.targets build/CilInstrument.targets buildTransitive/CilInstrument.MSBuild.targets \
            tools/linux-x64/cil-instrument tools/linux-x64/libcilprofiler.so; do
  has "$file" < "$work/contents.txt" || fail "the package has no $file"
done

# A cil-instrument on PATH that leaves a mark: the package's targets must not run it.
mkdir -p "$work/path"
printf '#!/bin/sh\ntouch "%s/path-tool-ran"\nexit 1\n' "$work" > "$work/path/cil-instrument"
chmod +x "$work/path/cil-instrument"
export PATH="$work/path:$PATH"

# sample NAME: a copy of the sample solution without its import of the repository's targets, with
# a nuget.config that adds the feed.
sample() {
  cp -r "$ROOT/tests/apps/msbuild_sample" "$work/$1"
  rm "$work/$1/Directory.Build.targets"
  cd "$work/$1"
  dotnet new nugetconfig > /dev/null
  dotnet nuget add source "$feed" --name cil-instrument-feed --configfile nuget.config > /dev/null
}

# 1. dotnet add package to the library (instrumented after its build) and to its tests (the
# report after the run); coverage from the command line.
sample added
for project in Counted/Counted.csproj CountedTests/CountedTests.csproj; do
  dotnet add "$project" package CilInstrument.MSBuild --version "$version" > "$work/add.log" 2>&1 ||
    { cat "$work/add.log" >&2; fail "dotnet add package failed"; finish; }
  has 'Include="CilInstrument.MSBuild"' < "$project" || fail "dotnet add package left no PackageReference in $project"
done
coverage=(-nodeReuse:false -p:CilInstrument=true -p:CilInstrumentMode=coverage -p:CilInstrumentThresholdType=line
          '-p:CilInstrumentInclude="Counted.Calc::Add;Counted.Calc::Sub"')
set +e
timeout 900 dotnet test Sample.slnx "${coverage[@]}" -p:CilInstrumentThreshold=40 > "$work/c1.log" 2>&1
rc=$?
set -e
if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/c1.log"; then
  echo "the NuGet packages of the sample cannot be restored here: skipped" >&2
  exit 77
fi
[ $rc = 0 ] || { tail -30 "$work/c1.log" >&2; fail "dotnet test with the package, threshold 40%, failed (exit $rc)"; }
grep -q "Counted.dll: instrumented 2 methods (coverage mode)" "$work/c1.log" || fail "the library was not instrumented in coverage mode"
grep -q "CountedTests.dll: instrumented" "$work/c1.log" && fail "-p:CilInstrument=true: the test project was instrumented"
grep -q "Passed!  - Failed:     0, Passed:     8" "$work/c1.log" || fail "not 8 tests passed: $(grep -E 'Passed!|Failed!' "$work/c1.log")"
grep -q 'line-rate="0.50*"' cil-instrument-output/coverage.cobertura.xml 2> /dev/null ||
  fail "Cobertura: not one line of two covered: $(head -c 300 cil-instrument-output/coverage.cobertura.xml 2>&1)"
set +e
timeout 600 dotnet test Sample.slnx "${coverage[@]}" -p:CilInstrumentThreshold=60 > "$work/c2.log" 2>&1
rc=$?
set -e
[ $rc != 0 ] || fail "coverage under the threshold of 60% did not fail dotnet test"
grep -q "exited with code 6" "$work/c2.log" || fail "the threshold failure is not the report's exit status 6: $(grep -i error "$work/c2.log" | head -3)"

# 2. Directory.Build.props: the package for every project, the library opted in by it (not by its
# project file).
sample props
sed -i '/<CilInstrument>true<\/CilInstrument>/d' Counted/Counted.csproj
cat > Directory.Build.props <<EOF
<Project>
  <ItemGroup>
    <PackageReference Include="CilInstrument.MSBuild" Version="$version" PrivateAssets="all" />
  </ItemGroup>
  <PropertyGroup>
    <CilInstrument>true</CilInstrument>
  </PropertyGroup>
</Project>
EOF
set +e
timeout 900 dotnet test Sample.slnx -nodeReuse:false > "$work/p1.log" 2>&1
rc=$?
set -e
[ $rc = 0 ] || { tail -30 "$work/p1.log" >&2; fail "dotnet test with Directory.Build.props failed (exit $rc)"; }
grep -q "Counted.dll: instrumented 2 methods (count mode)" "$work/p1.log" || fail "Directory.Build.props: the library was not instrumented"
grep -q "CountedTests.dll: instrumented" "$work/p1.log" && fail "Directory.Build.props: the test project was instrumented"
grep -q "^ *4003  0x06000001  Counted.Calc::Add$" cil-instrument-output/report.txt 2> /dev/null ||
  fail "Directory.Build.props: report: $(cat cil-instrument-output/report.txt 2>&1)"

[ -e "$work/path-tool-ran" ] && fail "the cil-instrument on PATH was run"
finish
