# Shared helpers for the script tests. Source it; then $ROOT is the repository and $TOOL the
# cil-instrument binary (first argument of the test, or build/src/cil-instrument).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TOOL=${TOOL:-${1:-$ROOT/build/src/cil-instrument}}
TOOL=$(readlink -f "$TOOL")
CORPUS=${CIL_CORPUS:-$ROOT/../shared/corpus}
FAILURES=0

# A pyenv shim is a shell script that takes about 0.7 s to start the interpreter; the tests start
# python3 hundreds of times (golden alone 76 times). Put the interpreter the shim would run first
# on PATH, so every python3 below (and in scripts the tests write) starts directly.
if py=$(command -v python3) && [[ $py == */shims/* ]] && real=$(pyenv which python3 2> /dev/null); then
  PATH="$(dirname "$real"):$PATH"
  export PATH
fi
unset py real

# Under the sanitizers (scripts/test.sh's clang tree), the script tests start the tool thousands
# of times, and LeakSanitizer's scan at each exit costs about 40 ms of the 130 ms such a process
# takes on a small input. Leaks stay checked where they are found cheaply: the unit tests (run
# by ctest directly, with scripts/test.sh's detect_leaks=1) and the fuzz targets, which drive
# the same readers and writer in one process per target.
if [ "${CIL_SANITIZED:-0}" = 1 ]; then
  export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fi

# has GREP-ARGS...: grep -q on standard input, read to its end first. `producer | grep -q` under
# pipefail fails at random: grep exits at the first match, and a producer still writing dies of
# SIGPIPE (status 141), which the pipeline reports as its own.
has() {
  local input
  input=$(cat)
  grep -q "$@" <<< "$input"
}

fail() {
  echo "FAIL: $*" >&2
  FAILURES=$((FAILURES + 1))
}

# corpus_files: the peer corpus's files (not its notes), sorted. Under the sanitizers, every third
# of them: the plain pass reads them all, and the sanitized pass would repeat that at several times
# the cost (the fuzz targets add hostile input there).
corpus_files() {
  if [ "${CIL_SANITIZED:-0}" = 1 ]; then
    find "$CORPUS" -type f ! -name '*.md' | sort | awk 'NR % 3 == 1'
  else
    find "$CORPUS" -type f ! -name '*.md' | sort
  fi
}

# check_golden_per_file NAME ACTUAL_FILE: check_golden for a list of "<file>: <outcome>" lines;
# under the sanitizers (corpus_files' third) only the golden lines of the files in ACTUAL_FILE.
check_golden_per_file() {
  if [ "${CIL_SANITIZED:-0}" != 1 ]; then
    check_golden "$1" "$2"
    return 0
  fi
  awk -F': ' 'NR == FNR { seen[$1] = 1; next } ($1 in seen)' "$2" "$ROOT/tests/golden/$1" > "$2.golden"
  if ! diff -u "$2.golden" "$2" > "$2.diff"; then
    fail "$1 differs from its golden file (the sanitized pass's third of the files):"
    head -n 60 "$2.diff" >&2
  fi
}

# check_golden NAME ACTUAL_FILE: compares with tests/golden/NAME, or rewrites it when
# CIL_REGEN=1. Prints a unified diff on mismatch.
check_golden() {
  local golden="$ROOT/tests/golden/$1" actual=$2
  if [ "${CIL_REGEN:-0}" = 1 ]; then
    mkdir -p "$(dirname "$golden")"
    cp "$actual" "$golden"
    return 0
  fi
  if [ ! -f "$golden" ]; then
    fail "$1: no golden file (run with CIL_REGEN=1 to create it)"
    return 0
  fi
  if ! diff -u "$golden" "$actual" > "$actual.diff"; then
    fail "$1 differs from its golden file:"
    head -n 60 "$actual.diff" >&2
  fi
}

# The .NET shared framework directory of the newest installed Microsoft.NETCore.App.
framework_dir() {
  dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2; d=$3} END{gsub(/[\[\]]/,"",d); print d"/"v}'
}

# framework_dlls: the shared framework's DLLs, one path per line. Under the sanitizers
# (CIL_SANITIZED=1) a fixed sample: System.Private.CoreLib and every fifth of the others by name.
# The plain pass reads all of them; the sanitized pass looks for memory errors, and the sample,
# the fixtures, the corpus and the broken files reach the same code paths at a fifth of the cost.
framework_dlls() {
  local fw
  fw=$(framework_dir)
  if [ "${CIL_SANITIZED:-0}" = 1 ]; then
    { echo "$fw/System.Private.CoreLib.dll"; find "$fw" -maxdepth 1 -name '*.dll' | sort | awk 'NR % 5 == 1'; } | sort -u
  else
    find "$fw" -maxdepth 1 -name '*.dll' | sort
  fi
}

# srm_compare LABEL ARGS...: System.Reflection.Metadata (tests/oracle) must read every file that
# ARGS name (files, or --list FILE) and agree with our dump and info of it; prints what is not OK.
srm_compare() {
  local label=$1 dir=${ORACLE_DIR:-$ROOT/build/oracle} report rc
  shift
  "$ROOT/tests/oracle/build.sh" "$dir" > /dev/null
  set +e
  report=$(dotnet "$dir/Oracle.dll" compare --strict --tool "$TOOL" "$@")
  rc=$?
  set -e
  grep -v '^OK ' <<< "$report" || true
  [ "$rc" -eq 0 ] || fail "$label"
}

# require_corpus: skips the test (exit 77) when the peer corpus is not at $CORPUS.
require_corpus() {
  if [ ! -d "$CORPUS" ]; then
    echo "corpus not found at $CORPUS (set CIL_CORPUS)" >&2
    exit 77
  fi
}

finish() {
  if [ "$FAILURES" -ne 0 ]; then
    echo "$FAILURES failure(s)" >&2
    exit 1
  fi
  echo "all checks passed"
}

# For the exec tests (exec_test.sh, exec_coverage_test.sh), which run `exec` on a folder $F from
# a scratch directory $work.
# folder_state DIR: every name under DIR with its mode, then every file's hash: the same before
# and after an exec that put the folder back as it was.
folder_state() { (cd "$1" && find . -print0 | sort -z | xargs -0 stat -c '%n %a' ; find . -type f -print0 | sort -z | xargs -0 sha256sum); }
# run_exec LABEL EXPECTED_STATUS ARGS...: runs exec from $work (stdout in $work/out.txt, stderr in
# $work/err.txt) and checks its status.
run_exec() {
  local label=$1 expected=$2 rc
  shift 2
  set +e
  (cd "$work" && "$TOOL" exec "$@" > "$work/out.txt" 2> "$work/err.txt")
  rc=$?
  set -e
  [ "$rc" = "$expected" ] || { fail "$label: exit $rc, expected $expected"; cat "$work/err.txt" >&2; }
}

# nuget_pack_stamp: a digest of what scripts/pack.sh makes the packages from (the built tool and
# profiler, the packaging sources, the targets, the README), so that a feed packed earlier is
# used only while it is still what packing now would give.
nuget_pack_stamp() {
  { sha256sum "$TOOL" "$build/src/libcilprofiler.so"
    find "$ROOT/packaging" "$ROOT/msbuild" "$ROOT/scripts/pack.sh" "$ROOT/README.md" -type f -print0 | sort -z | xargs -0 sha256sum
  } | sha256sum | cut -d' ' -f1
}

# nuget_shared_feed NAME: the build tree's shared feed (the nuget_pack fixture packs it once for
# every test that uses packages): sets build, nuget_shared (its folder). Skips as nuget_feed does.
nuget_shared_feed() {
  command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
  [ "${CIL_SANITIZED:-0}" = 1 ] && { echo "$1: skipped under the sanitizers (it packs the release build)"; exit 77; }
  build=$(dirname "$(dirname "$TOOL")")
  [ -f "$build/CMakeCache.txt" ] || { echo "no build tree above $TOOL" >&2; exit 77; }
  nuget_shared=$build/tests/nuget-feed
}

# nuget_feed NAME: scripts/pack.sh's packages in a feed, for the tests that use the packages: the
# build tree's shared feed when the nuget_pack fixture made it from what is there now, else one
# packed for this test alone. Skips without dotnet, under the sanitizers, or without a build tree
# above $TOOL. Sets build, work (a temporary folder, removed at exit unless KEEP is set, that is
# also the test's HOME and NuGet cache), feed and version.
nuget_feed() {
  nuget_shared_feed "$1"
  work=$(mktemp -d)
  trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
  export HOME=$work/home DOTNET_CLI_HOME=$work/home NUGET_PACKAGES=$work/nuget-packages
  export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
  unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE
  mkdir -p "$HOME"
  if [ -f "$nuget_shared/stamp" ] && [ "$(cat "$nuget_shared/stamp")" = "$(nuget_pack_stamp)" ]; then
    feed=$nuget_shared
  else
    feed=$work/feed
    bash "$ROOT/scripts/pack.sh" "$build" "$feed" > "$work/pack.log" 2>&1 || { cat "$work/pack.log" >&2; fail "scripts/pack.sh failed"; finish; }
  fi
  version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
}

# For the tests that attach to a running program (attach_test.sh, jit_trace_window_test.sh).
# attach_scratch: skips (77) without dotnet or without libcilprofiler.so next to $TOOL; clears the
# profiler's settings from the environment; makes the scratch directory $work and goes there. The
# background jobs in the array $pids are killed at exit, and $work removed.
attach_scratch() {
  unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
  command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
  [ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so"; exit 77; }
  work=$(mktemp -d)
  pids=()
  trap 'for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done; rm -rf "$work"' EXIT
  cd "$work"
}
# wait_for FILE [PATTERN]: until FILE exists and is not empty (and holds a line matching PATTERN).
# What is waited for is an event the test needs; the deadline (120 s) only stops a hung test,
# so a loaded machine makes the test slower, never wrong.
wait_for() {
  local file=$1 pattern=${2:-} deadline=$((SECONDS + 120))
  while [ $SECONDS -lt $deadline ]; do
    if [ -s "$file" ] && { [ -z "$pattern" ] || grep -q -- "$pattern" "$file"; }; then return 0; fi
    sleep 0.05
  done
  return 1
}
# build_held_ticker: HeldTicker (testdata/src/Ticker/Ticker.cs with tests/apps/HeldTicker.cs,
# which fills in its partial methods; with its portable PDB) as held/HeldTicker.dll; sets $held.
# It cannot end while the test still attaches to it, however slow the machine: `release NAME
# late`, then `release NAME end`, let it go on past its midpoint and end. Its output is Ticker's.
build_held_ticker() {
  mkdir -p held
  "$ROOT/scripts/csc.sh" held/HeldTicker.dll /optimize+ /debug:portable "$ROOT/testdata/src/Ticker/Ticker.cs" \
    "$ROOT/tests/apps/HeldTicker.cs" > held/csc.log 2>&1 || { fail "cannot build tests/apps/HeldTicker.cs: $(tail -2 held/csc.log)"; return 1; }
  held=$PWD/held/HeldTicker.dll
}
release() { echo "$2" >> "$1.hold"; }
# start_held NAME TICKS [VAR=VALUE...]: runs HeldTicker TICKS in the background, with the
# variables given, calls logged to NAME.calls, output to NAME.stdout and NAME.stderr, exit status
# to NAME.status, held by NAME.hold; waits until it runs. Sets $held_pid (the dotnet process) and
# $job (the shell's job).
start_held() {
  local name=$1 ticks=$2
  shift 2
  rm -f "$name.ready"
  : > "$name.hold"
  (status=0; env "$@" dotnet "$held" "$ticks" "$name.calls" "$name.ready" "$name.hold" > "$name.stdout" 2> "$name.stderr" ||
     status=$?; echo "$status" > "$name.status") &
  job=$!
  pids+=("$job")
  wait_for "$name.ready" || { fail "$name: HeldTicker did not start"; return 1; }
  held_pid=$(cat "$name.ready")
}

# dotnet_build_or_skip ARGS...: `dotnet build ARGS -nodeReuse:false` into $work/build.log; skips
# the test (exit 77) when the NuGet packages cannot be restored here, fails it when the build fails.
dotnet_build_or_skip() {
  local rc
  set +e
  timeout 900 dotnet build "$@" -nodeReuse:false > "$work/build.log" 2>&1
  rc=$?
  set -e
  if [ $rc != 0 ] && grep -q "NU1101\|NU1301\|Unable to load the service index" "$work/build.log"; then
    echo "the NuGet packages of the sample cannot be restored here: skipped" >&2
    exit 77
  fi
  [ $rc = 0 ] || { tail -20 "$work/build.log" >&2; fail "the sample did not build"; finish; }
}
