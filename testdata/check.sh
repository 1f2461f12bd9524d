#!/usr/bin/env bash
# Runs every fixture executable and compares its stdout and exit code with
# testdata/expected/<Name>.stdout and <Name>.exitcode (<Name> = file name up to the first dot, so
# bin/debug/Control.dll and bin/Control.dll share Control.*, and both DebugInfo.*.dll use DebugInfo.*).
#
#   testdata/check.sh [--update] [BINDIR]
#
# BINDIR defaults to testdata/bin and must have the same layout (*.dll + *.runtimeconfig.json,
# debug/, mono/, il/), e.g. a directory of instrumented copies. .NET executables run with `dotnet`;
# mono/ and il/ executables run with `dotnet` and, if installed, with `mono` as well.
# --update rewrites the expected files from the current run instead of comparing (dotnet runs only).
# stderr is not compared (it holds stack traces for Unhandled), only shown on failure.
set -euo pipefail

TD=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
BINDIR=$(cd "${1:-$TD/bin}" && pwd)
EXP="$TD/expected"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
run() { # run RUNTIME FILE
  local rt=$1 file=$2 name rc
  name=$(basename "$file"); name=${name%%.*}
  set +e
  # the outer subshell swallows bash's "Aborted" job message for the Unhandled fixture
  ( (cd "$(dirname "$file")" && timeout 120 "$rt" "$(basename "$file")") >"$tmp/out" 2>"$tmp/err" ) 2>/dev/null
  rc=$?
  set -e
  local label="$rt ${file#"$BINDIR"/}"
  if [ $update = 1 ]; then
    [ "$rt" = dotnet ] || return 0
    cp "$tmp/out" "$EXP/$name.stdout"
    echo "$rc" > "$EXP/$name.exitcode"
    echo "updated  $label (exit $rc)"
    return 0
  fi
  if [ ! -f "$EXP/$name.stdout" ]; then
    echo "MISSING  $label: no expected/$name.stdout"; fail=$((fail + 1)); return 0
  fi
  local want_rc; want_rc=$(cat "$EXP/$name.exitcode" 2>/dev/null || echo 0)
  # Mono reports an unhandled exception with exit code 1, .NET aborts (134); only Unhandled does that.
  if [ "$rt" = mono ] && [ "$want_rc" = 134 ]; then want_rc=1; fi
  if cmp -s "$tmp/out" "$EXP/$name.stdout" && [ "$rc" = "$want_rc" ]; then
    echo "ok       $label"; pass=$((pass + 1))
  else
    echo "FAIL     $label (exit $rc, expected $want_rc)"; fail=$((fail + 1))
    diff "$EXP/$name.stdout" "$tmp/out" | head -20 || true
    head -20 "$tmp/err"
  fi
}

shopt -s nullglob
for f in "$BINDIR"/*.dll "$BINDIR"/debug/*.dll; do
  [ -f "${f%.*}.runtimeconfig.json" ] || continue   # skip libraries (Library.dll)
  run dotnet "$f"
done
for f in "$BINDIR"/mono/*.exe "$BINDIR"/il/*.exe; do
  run dotnet "$f"
  if command -v mono >/dev/null && [ $update = 0 ]; then run mono "$f"; fi
done

[ $update = 1 ] && exit 0
echo "passed $pass, failed $fail"
[ "$fail" = 0 ]
