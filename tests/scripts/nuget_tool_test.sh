#!/usr/bin/env bash
# The `dotnet tool` package (issue 40): scripts/pack.sh makes the packages into a folder feed,
# and from it, with a temporary HOME and NuGet cache (the user's tools and cache stay untouched):
#  - `dotnet tool install -g` and `dotnet tool install --tool-path` give a cil-instrument whose
#    --version is the project's version, the package's version; `run` under the installed tool
#    finds libcilprofiler.so beside it (a counts file of the profiled program);
#  - a tool manifest (`dotnet new tool-manifest`, `dotnet tool install`): `dotnet tool run
#    cil-instrument --version`, and `dotnet cil-instrument app.dll -o out/app.dll`, whose output
#    runs as the original does and writes its counts;
#  - another architecture (--arch arm64) is refused and installs nothing;
#  - `dotnet dnx cil-instrument` (SDK 10's one-shot runner) runs the native tool.
#   tests/scripts/nuget_tool_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
nuget_feed nuget_tool
for package in cil-instrument cil-instrument.linux-x64 CilInstrument.MSBuild; do
  [ -f "$feed/$package.$version.nupkg" ] || fail "pack.sh made no $package.$version.nupkg: $(ls "$feed")"
done
# The version in the project, the package and the tool: the nuspec's, read from the package.
unzip -p "$feed/cil-instrument.$version.nupkg" cil-instrument.nuspec | has "<version>$version</version>" ||
  fail "the package's nuspec does not have version $version"
unzip -l "$feed/cil-instrument.linux-x64.$version.nupkg" | has "tools/any/linux-x64/libcilprofiler.so$" ||
  fail "the linux-x64 package has no libcilprofiler.so"
unzip -l "$feed/cil-instrument.linux-x64.$version.nupkg" | has "tools/any/linux-x64/cil-instrument$" ||
  fail "the linux-x64 package has no cil-instrument executable"

# installed PATH LABEL: the installed command answers --version with the project's version, and
# `run` through it finds the profiler beside the executable it links to.
installed() {
  local tool=$1 label=$2 said out=$work/run-$2
  [ -x "$tool" ] || { fail "$label: no executable $tool"; return; }
  said=$("$tool" --version 2>&1) || fail "$label: --version failed: $said"
  [ "$said" = "cil-instrument $version" ] || fail "$label: --version says '$said', not 'cil-instrument $version'"
  [ -f "$(dirname "$(readlink -f "$tool")")/libcilprofiler.so" ] || fail "$label: no libcilprofiler.so beside $(readlink -f "$tool")"
  "$tool" run --quiet -o "$out" -- dotnet "$ROOT/testdata/bin/Basics.dll" > "$work/run-$label.log" 2>&1 ||
    fail "$label: run failed: $(tail -3 "$work/run-$label.log")"
  ls "$out"/*.counts.json > /dev/null 2>&1 || fail "$label: run under the installed tool wrote no counts file (profiler not found?)"
}

# Global, into the temporary HOME.
dotnet tool install -g cil-instrument --add-source "$feed" > "$work/global.log" 2>&1 ||
  fail "dotnet tool install -g failed: $(tail -3 "$work/global.log")"
installed "$HOME/.dotnet/tools/cil-instrument" global
# Into a tool path.
dotnet tool install cil-instrument --add-source "$feed" --tool-path "$work/tools" > "$work/path.log" 2>&1 ||
  fail "dotnet tool install --tool-path failed: $(tail -3 "$work/path.log")"
installed "$work/tools/cil-instrument" tool-path

# A tool manifest; `dotnet cil-instrument` instruments an app whose output runs.
mkdir -p "$work/repo" && cd "$work/repo"
dotnet new tool-manifest > "$work/manifest.log" 2>&1 || fail "dotnet new tool-manifest failed: $(tail -3 "$work/manifest.log")"
dotnet tool install cil-instrument --add-source "$feed" >> "$work/manifest.log" 2>&1 ||
  fail "dotnet tool install into the manifest failed: $(tail -3 "$work/manifest.log")"
manifest=dotnet-tools.json
[ -f "$manifest" ] || manifest=.config/dotnet-tools.json
if [ ! -f "$manifest" ] || ! has '"cil-instrument"' < "$manifest"; then fail "the manifest does not list cil-instrument"; fi
said=$(dotnet tool run cil-instrument --version 2>&1) || fail "dotnet tool run failed: $said"
[ "$said" = "cil-instrument $version" ] || fail "dotnet tool run cil-instrument --version says '$said'"
cp "$ROOT/testdata/bin/Basics.dll" "$ROOT/testdata/bin/Basics.runtimeconfig.json" .
dotnet cil-instrument Basics.dll -o out/Basics.dll > "$work/instrument.log" 2>&1 ||
  fail "dotnet cil-instrument Basics.dll failed: $(tail -3 "$work/instrument.log")"
cp Basics.runtimeconfig.json out/
dotnet Basics.dll > "$work/original.out" 2>&1 || true
mkdir -p "$work/counts"
CIL_INSTRUMENT_OUTPUT=$work/counts dotnet out/Basics.dll > "$work/instrumented.out" 2>&1 || true
cmp -s "$work/original.out" "$work/instrumented.out" || fail "the instrumented app's output differs from the original's"
ls "$work/counts"/*.counts.json > /dev/null 2>&1 || fail "the instrumented app wrote no counts file"

# Another architecture: refused, nothing installed. (The SDK says why; this package cannot: the
# pointer package has no code.)
if dotnet tool install cil-instrument --add-source "$feed" --tool-path "$work/arm64" --arch arm64 > "$work/arm64.log" 2>&1; then
  fail "an arm64 install was accepted: $(tail -3 "$work/arm64.log")"
fi
[ -e "$work/arm64/cil-instrument" ] && fail "an arm64 install left a cil-instrument"
echo "arm64 install refused: $(grep -v '^$' "$work/arm64.log" | head -1)"

# dnx: the one-shot runner of SDK 10.
cd "$work"
said=$(timeout 300 dotnet dnx cil-instrument --add-source "$feed" --yes -- --version 2>&1) || fail "dotnet dnx cil-instrument failed: $said"
has -x "cil-instrument $version" <<< "$said" || fail "dotnet dnx cil-instrument --version said: $said"
finish
