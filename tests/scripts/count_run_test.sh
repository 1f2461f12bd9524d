#!/usr/bin/env bash
# Instrumented programs on the real runtime: instrument every runnable fixture, run the
# original and the instrumented program (dotnet; also mono for the .NET Framework-style
# fixtures), and require identical stdout, stderr and exit status. In count mode, also check
# the call counts the program wrote against testdata/expected/<Name>.counts. The noop mode
# (every body re-encoded through the engine) and the wrap mode (every body wrapped in
# try/catch/finally with one exit block) run the same programs.
#   tests/scripts/count_run_test.sh [TOOL] [MODE...]     (modes: count noop wrap; default all)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT/testdata/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run RUNTIME DIR FILE OUTPREFIX: runs FILE from DIR, saving stdout, stderr and the exit status.
run() {
  local runtime=$1 dir=$2 file=$3 out=$4
  set +e
  # bash -c keeps the shell's "Aborted" notice (the Unhandled fixture) out of the test log.
  bash -c 'cd "$1" && CIL_INSTRUMENT_OUTPUT="$2" timeout 120 "$3" "$4" > "$5.stdout" 2> "$5.stderr"; exit $?' _ \
    "$dir" "$out.counts" "$runtime" "$file" "$out" 2>/dev/null
  echo $? > "$out.status"
  set -e
}

check_fixture() {
  local mode=$1 runtime=$2 path=$3
  local file dir name label
  file=$(basename "$path")
  dir=$(dirname "$path")
  name=${file%%.*}
  label="$mode: $runtime ${path}"
  local inst="$work/inst/$mode/${dir}"
  mkdir -p "$inst" "$work/runs"
  cp "$dir"/*.runtimeconfig.json "$inst/" 2>/dev/null || true
  if ! "$TOOL" "$path" -o "$inst/$file" --mode "$mode" --json > "$work/summary.json" 2> "$work/instrument.log"; then
    fail "$label: instrumenting failed: $(cat "$work/instrument.log")"
    return
  fi
  # The original runs once per runtime, whatever the number of modes compared with it.
  local a="$work/runs/orig-$runtime-${path//\//_}" b="$work/runs/inst"
  rm -rf "$b.counts"
  mkdir -p "$b.counts"
  if [ ! -f "$a.status" ]; then
    mkdir -p "$a.counts"
    run "$runtime" "$dir" "$file" "$a"
  fi
  run "$runtime" "$inst" "$file" "$b"
  local ok=1
  cmp -s "$a.stdout" "$b.stdout" || { fail "$label: stdout differs"; diff "$a.stdout" "$b.stdout" | head -10 >&2 || true; ok=0; }
  # A stack trace names the same frames; only the instrumented copy's path may differ.
  sed "s|$inst|DIR|g; s|$ROOT/testdata/bin/$dir|DIR|g" "$b.stderr" > "$b.stderr.n"
  sed "s|$ROOT/testdata/bin/$dir|DIR|g; s|$ROOT/testdata/bin|DIR|g" "$a.stderr" > "$a.stderr.n"
  cmp -s "$a.stderr.n" "$b.stderr.n" || { fail "$label: stderr differs"; diff "$a.stderr.n" "$b.stderr.n" | head -10 >&2 || true; ok=0; }
  cmp -s "$a.status" "$b.status" || { fail "$label: exit status $(cat "$a.status") became $(cat "$b.status")"; ok=0; }
  if [ "$mode" != count ]; then
    [ $ok = 1 ] && echo "ok   $label"
    return
  fi
  local counts=("$b.counts"/*.counts.json)
  if [ ! -e "${counts[0]}" ]; then
    fail "$label: no counts file written"
    return
  fi
  [ ${#counts[@]} -eq 1 ] || fail "$label: ${#counts[@]} counts files for one process"
  case "$(basename "${counts[0]}")" in
    "$name".*.counts.json) ;;
    *) fail "$label: counts file is named $(basename "${counts[0]}")" ;;
  esac
  "$TOOL" dump --json "$inst/$file" > "$work/dump.json"
  local expected="$ROOT/testdata/expected/$name.counts"
  [ -f "$expected" ] || expected=/dev/null
  python3 "$ROOT/tests/scripts/check_counts.py" "$expected" "${counts[@]}" --summary "$work/summary.json" --dump "$work/dump.json" ||
    { fail "$label: the counts file differs from what was instrumented or from $expected"; ok=0; }
  [ $ok = 1 ] && echo "ok   $label ($(grep -o '"count"' "${counts[0]}" | wc -l) methods counted)"
}

shift || true
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(count noop wrap)
for mode in "${modes[@]}"; do
  for path in *.dll debug/*.dll; do
    [ -f "${path%.dll}.runtimeconfig.json" ] || continue  # libraries do not run
    check_fixture "$mode" dotnet "$path"
  done
  for path in mono/*.exe il/*.exe; do
    check_fixture "$mode" dotnet "$path"
    check_fixture "$mode" mono "$path"
  done
done

if [[ " ${modes[*]} " == *" count "* ]]; then
  echo "== where the counts file goes without CIL_INSTRUMENT_OUTPUT, or when it names no directory"
  mkdir -p "$work/beside"
  cp Basics.runtimeconfig.json "$work/beside/"
  "$TOOL" Basics.dll -o "$work/beside/Basics.dll" > /dev/null
  : > "$work/not-a-directory"
  for setting in unset "$work/not-a-directory" "$work/missing-directory"; do
    rm -f "$work"/beside/*.counts.json
    if [ "$setting" = unset ]; then
      (cd / && env -u CIL_INSTRUMENT_OUTPUT dotnet "$work/beside/Basics.dll" > /dev/null 2>&1) || true
    else
      (cd / && CIL_INSTRUMENT_OUTPUT="$setting" dotnet "$work/beside/Basics.dll" > /dev/null 2>&1) || true
    fi
    n=$(find "$work/beside" -name 'Basics.*.counts.json' | wc -l)
    [ "$n" -eq 1 ] && echo "ok   CIL_INSTRUMENT_OUTPUT ${setting#"$work"/}: counts file next to the assembly" ||
      fail "CIL_INSTRUMENT_OUTPUT ${setting#"$work"/}: $n counts files next to the assembly"
  done
  [ -s "$work/not-a-directory" ] && fail "the counts were written into a file that CIL_INSTRUMENT_OUTPUT named"
fi
finish
