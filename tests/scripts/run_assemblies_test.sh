#!/usr/bin/env bash
# Modules chosen at JIT time (issue 39 item 5) and patterns checked in one place (issue 37):
#  - every command refuses an empty pattern, or one with ';' or a line break, with the same line
#    (golden: tests/golden/run_assemblies/pattern_errors.txt); --assemblies with events mode is
#    refused;
#  - on the installed dotnet, an app (App.dll) calling a library (Lib.dll), both with portable
#    PDBs: `run --mode coverage` covers both; with --assemblies Lib.dll (also a glob with a '/')
#    only Lib has a hits file, with --skip-assemblies Lib.dll only App; count mode likewise; the
#    environment alone (CIL_INSTRUMENT_ASSEMBLIES, CIL_INSTRUMENT_SOURCE_ROOT) does the same;
#    `attach --assemblies Lib.dll` to a running Held.dll counts Lib alone, where a session
#    without it counts both;
#  - `run --mode coverage -- dotnet test` (tests/apps/dotnet_test, the library compiled from
#    sources under the folder run starts in) covers the library under test alone: no hits file
#    of the test assembly, xunit, the test platform or testhost; with --assemblies '*' those
#    modules are covered too, and `report` of that folder (two processes, which may load
#    different builds of the test platform) succeeds; started in a folder without the sources,
#    nothing is covered and run says where it looked.
#   tests/scripts/run_assemblies_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL (the pattern checks run
# first in any case); the dotnet test part is skipped when its packages cannot be restored.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS \
  CIL_INSTRUMENT_ASSEMBLIES CIL_INSTRUMENT_SKIP_ASSEMBLIES CIL_INSTRUMENT_SOURCE_ROOT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shopt -s nullglob

echo "== bad patterns: one line, exit 2, the same words for every command"
fixture="$ROOT/testdata/bin/debug/Coverage.dll"
: > "$work/pattern_errors.txt"
refused() {  # LABEL COMMAND...
  local label=$1 status=0
  shift
  "$TOOL" "$@" > /dev/null 2> "$work/err" || status=$?
  if [ "$status" = 2 ] && [ "$(grep -vc "^Try 'cil-instrument --help'" "$work/err")" = 1 ]; then
    head -1 "$work/err" >> "$work/pattern_errors.txt"
  else
    fail "$label: status $status: $(cat "$work/err")"
  fi
}
refused "instrument --include ''" "$fixture" -o "$work/never.dll" --include ''
refused "instrument --exclude a;b" "$fixture" -o "$work/never.dll" --exclude 'a;b'
refused "exec --assemblies line break" exec --assemblies $'Lib\n.dll' "$work" -- true
refused "exec --skip-assemblies ''" exec --skip-assemblies '' "$work" -- true
refused "dump --method a;b" dump "$fixture" --method 'a;b'
refused "diff --method ''" diff "$fixture" "$fixture" --method ''
refused "run --include ''" run --include '' -- true
refused "run --assemblies a;b" run --assemblies 'a;b' -- true
refused "run --skip-assemblies line break" run --skip-assemblies $'a\nb' -- true
refused "attach --exclude a;b" attach 1 --exclude 'a;b'
refused "attach --assemblies ''" attach 1 --assemblies ''
refused "run events --assemblies" run --mode events --assemblies Lib.dll -- true
refused "attach events --skip-assemblies" attach 1 --mode events --skip-assemblies Lib.dll
[ -e "$work/never.dll" ] && fail "a refused instrument wrote its output"
check_golden run_assemblies/pattern_errors.txt "$work/pattern_errors.txt"

command -v dotnet > /dev/null || { echo "skip: no dotnet"; finish; exit 77; }
[ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so"; finish; exit 77; }

echo "== run chooses modules by file"
src="$work/src"
mkdir -p "$src"
cat > "$src/Lib.cs" <<'CS'
namespace Lib {
  public static class Work {
    public static int Run(int n) {
      int sum = 0;
      for (int i = 0; i < n; i++) sum += i % 3 == 0 ? i : 1;
      return sum;
    }
  }
}
CS
cat > "$src/App.cs" <<'CS'
static class App {
  static int Main() {
    System.Console.WriteLine(Lib.Work.Run(10));
    return 0;
  }
}
CS
bash "$ROOT/scripts/csc.sh" "$src/bin/Lib.dll" /target:library /debug:portable "$src/Lib.cs" > "$work/csc.log" 2>&1 &&
  bash "$ROOT/scripts/csc.sh" "$src/bin/App.dll" /debug:portable "/reference:$src/bin/Lib.dll" "$src/App.cs" >> "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the app did not compile"; finish; }

# profiled NAME KIND EXPECTED [run options...]: `run` on App.dll from its folder; the modules with
# a KIND (hits, counts) file must be EXPECTED (names, sorted, space-separated), and the app's
# output the original's.
profiled() {
  local name=$1 kind=$2 expected=$3
  shift 3
  local out="$work/out/$name"
  mkdir -p "$out"
  (cd "$src/bin" && timeout 120 "$TOOL" run -q -o "$out" "$@" -- dotnet App.dll > "$out.stdout" 2> "$out.stderr") ||
    { fail "$name: run failed: $(cat "$out.stderr")"; return 0; }
  [ "$(cat "$out.stdout")" = 24 ] || fail "$name: the app printed $(cat "$out.stdout")"
  check_modules "$name" "$out" "$kind" "$expected"
}
check_modules() {  # NAME DIR KIND EXPECTED
  local got
  got=$(cd "$2" && for f in *."$3".json; do echo "${f%%.*}"; done | sort -u | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$4" ]; then echo "ok   $1: $3 of ${got:-no module}"; else fail "$1: $3 files of '$got', expected '$4'"; fi
}
profiled coverage-all hits "App Lib" --mode coverage
profiled coverage-assemblies hits "Lib" --mode coverage --assemblies Lib.dll
profiled coverage-path-glob hits "Lib" --mode coverage --assemblies '*/bin/Lib.dll'
profiled coverage-skip hits "App" --mode coverage --skip-assemblies 'Lib.*'
profiled count-all counts "App Lib" --mode count
profiled count-assemblies counts "Lib" --mode count --assemblies Lib.dll --assemblies Nothing.dll
# The library's lines ran: its hits say so.
lib_hits=("$work"/out/coverage-assemblies/Lib.*.hits.json)
if [ ${#lib_hits[@]} = 1 ]; then
  "$TOOL" report --json "${lib_hits[0]}" | python3 -c 'import json,sys
t = json.load(sys.stdin)["total"]["line"]
sys.exit(0 if t["covered"] == t["total"] > 0 else 1)' || fail "coverage-assemblies: not every line of Lib covered"
fi

echo "== attach chooses modules by file"
# Held.dll calls Lib until its stop file appears; two count sessions, the second through the
# profiler the first left loaded: without a filter both modules are counted, with --assemblies
# Lib.dll only Lib (judged by the files written, not by how many calls a session saw).
cat > "$src/Held.cs" <<'CS'
static class Held {
  static int Main(string[] args) {
    System.Console.WriteLine("ready");
    System.Console.Out.Flush();
    long sum = 0;
    while (!System.IO.File.Exists(args[0])) sum += Step();
    return sum > 0 ? 0 : 1;
  }
  // Called again and again (Main never is): the session's probes reach Held through it.
  [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
  static int Step() {
    System.Threading.Thread.Sleep(1);
    return Lib.Work.Run(10);
  }
}
CS
bash "$ROOT/scripts/csc.sh" "$src/bin/Held.dll" /debug:portable "/reference:$src/bin/Lib.dll" "$src/Held.cs" >> "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "Held did not compile"; finish; }
(cd "$src/bin" && exec timeout 300 dotnet Held.dll "$work/held.stop" > "$work/held.out" 2>&1) &
held_pid=$!
deadline=$((SECONDS + 120))
until grep -q ready "$work/held.out" 2> /dev/null || [ $SECONDS -ge $deadline ]; do sleep 0.05; done
# The runtime is the `timeout` child: attach to the dotnet process itself.
dotnet_pid=$(pgrep -P "$held_pid" -x dotnet || echo "$held_pid")
for session in all:"Held Lib" assemblies:"Lib"; do
  name=${session%%:*} expected=${session#*:}
  extra=()
  [ "$name" = assemblies ] && extra=(--assemblies Lib.dll)
  mkdir -p "$work/attach/$name"
  "$TOOL" attach "$dotnet_pid" --mode count "${extra[@]}" --duration 500ms -q -o "$work/attach/$name" 2> "$work/attach/$name.err" ||
    fail "attach $name: $(cat "$work/attach/$name.err")"
  got=$(cd "$work/attach/$name" && for f in *.counts.json; do echo "${f%%.*}"; done | sort -u | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" = "$expected" ]; then echo "ok   attach $name: counts of $got"; else fail "attach $name: counts of '$got', expected '$expected'"; fi
done
touch "$work/held.stop"
wait "$held_pid" || fail "Held ended with status $?"

echo "== the environment alone"
# bare NAME EXPECTED VAR=VALUE...: the profiler loaded by the runtime's own variables.
bare() {
  local name=$1 expected=$2
  shift 2
  local out="$work/out/$name"
  mkdir -p "$out"
  (cd "$src/bin" && env CORECLR_ENABLE_PROFILING=1 CORECLR_PROFILER='{BBADE716-B1FC-41BB-ADF4-126D6D6D6410}' \
    CORECLR_PROFILER_PATH="$(dirname "$TOOL")/libcilprofiler.so" CIL_INSTRUMENT_MODE=coverage CIL_INSTRUMENT_OUTPUT="$out" "$@" \
    timeout 120 dotnet App.dll > "$out.stdout" 2> "$out.stderr") || { fail "$name: the app failed: $(cat "$out.stderr")"; return 0; }
  check_modules "$name" "$out" hits "$expected"
}
bare env-assemblies "Lib" CIL_INSTRUMENT_ASSEMBLIES='Nothing.dll;Lib.dll'
bare env-skip "Lib" CIL_INSTRUMENT_SKIP_ASSEMBLIES='App.dll'
bare env-source-root "App Lib" CIL_INSTRUMENT_SOURCE_ROOT="$src/"
bare env-other-root "" CIL_INSTRUMENT_SOURCE_ROOT="$work/elsewhere"

echo "== dotnet test: the code under test by default"
t="$work/t"
mkdir -p "$t"
cp -r "$ROOT/tests/apps/dotnet_test/CountedTests" "$ROOT/tests/apps/dotnet_test/Counted.cs" "$t/"
bash "$ROOT/scripts/csc.sh" "$t/lib/Counted.dll" /target:library /debug:portable "$t/Counted.cs" > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "Counted did not compile"; finish; }
if ! (cd "$t/CountedTests" && timeout 600 dotnet build -nologo -v q -p:CountedPath="$t/lib/Counted.dll" -o "$t/bin" > "$work/build.log" 2>&1); then
  if grep -q "NU1101\|NU1102\|NU1301\|Unable to load the service index" "$work/build.log"; then
    echo "the test project's NuGet packages cannot be restored here: dotnet test part skipped"
    finish
    exit 0
  fi
  cat "$work/build.log" >&2
  fail "the test project did not build"
  finish
fi
(cd "$t" && timeout 600 "$TOOL" run --mode coverage -q -o "$t/own" -- dotnet test bin/CountedTests.dll > "$work/test.log" 2>&1) ||
  { tail -20 "$work/test.log" >&2; fail "dotnet test under run --mode coverage failed"; }
check_modules "dotnet test, default" "$t/own" hits "Counted"
"$TOOL" report "$t/own" > "$work/own.table" 2> "$work/own.err" || fail "report of the default: $(cat "$work/own.err")"
grep -q '^| Counted ' "$work/own.table" || fail "report of the default: no Counted row"
# Started where none of the code under test's sources are: nothing covered, and run says why.
(cd "$t/bin" && timeout 600 "$TOOL" run --mode coverage -o "$t/none" -- dotnet test CountedTests.dll > "$work/test.log" 2>&1) ||
  { tail -20 "$work/test.log" >&2; fail "dotnet test under run --mode coverage (in bin/) failed"; }
check_modules "dotnet test, started in bin/" "$t/none" hits ""
grep -q "^cil-instrument: run: under dotnet test only modules built from sources under $t/bin are covered" "$work/test.log" ||
  fail "started in bin/: run does not say where the code under test was looked for"
(cd "$t" && timeout 600 "$TOOL" run --mode coverage -q --assemblies '*' -o "$t/all" -- dotnet test bin/CountedTests.dll > "$work/test.log" 2>&1) ||
  { tail -20 "$work/test.log" >&2; fail "dotnet test under run --mode coverage --assemblies '*' failed"; }
all=$(cd "$t/all" && for f in *.hits.json; do echo "${f%%.*}"; done | sort -u | tr '\n' ' ')
[[ " $all" == *" Counted "* && " $all" == *" CountedTests "* ]] ||
  fail "--assemblies '*': the library and its tests are not both covered: $all"
others=$(echo "$all" | tr ' ' '\n' | grep -cv '^Counted\(Tests\)\?$\|^$' || true)
[ "$others" -gt 0 ] || fail "--assemblies '*': nothing of the test platform or xunit covered: $all"
echo "ok   --assemblies '*': $(ls "$t/all"/*.hits.json | wc -l) hits files, of $all"
status=0
"$TOOL" report "$t/all" > /dev/null 2> "$work/all.err" || status=$?
[ "$status" = 0 ] || fail "report of everything under dotnet test: status $status: $(head -3 "$work/all.err")"
echo "ok   report of that folder: $(grep -c 'reported apart' "$work/all.err" || true) build(s) reported apart"
finish
