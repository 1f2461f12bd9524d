#!/usr/bin/env bash
# Peak memory of instrument (issue 15's target: coverage mode under 3 times input plus PDB). The
# self-check maps the output back and reads every new body; it must give those pages back as it
# goes, so that it adds nothing to the peak of the writing itself. Before it did, it doubled the
# peak (73 MB against 33 MB on bench/coverlet_compare.sh's input).
#
# A generated Debug assembly with its portable PDB (bench/debug_input/generate.py, compiled here)
# is instrumented in coverage and count mode, with and without --no-verify. Peak RSS is the
# kernel's count (wait4's ru_maxrss), which is work done, not time: the same run gives the same
# pages. Checked:
#   - with the check, the peak is within 10% (plus 1 MB) of the peak without it;
#   - coverage mode's peak, less an empty run's (the process's own pages), is under 3 times
#     input plus PDB;
#   - a control: the same input with the check's page release turned off
#     (CIL_INSTRUMENT_TEST_KEEP_CHECK_PAGES=1, test-only) peaks above by a quarter of the output's size, so the measure sees it.
#   tests/scripts/memory_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ "${CIL_SANITIZED:-0}" = 1 ] && { echo "memory: skipped under the sanitizers (their shadow memory is the peak)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$ROOT/bench/debug_input/generate.py" "$work/Big.cs" 120 40 > /dev/null
bash "$ROOT/scripts/csc.sh" "$work/Big.dll" /target:library /debug:portable /optimize- "$work/Big.cs" > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; fail "the generated input did not compile"; finish; }
input_kb=$(( ($(stat -c %s "$work/Big.dll") + $(stat -c %s "$work/Big.pdb")) / 1024 ))
echo "input: Big.dll $(stat -c %s "$work/Big.dll") bytes + Big.pdb $(stat -c %s "$work/Big.pdb") bytes"

# peak_kb ARGS...: the peak RSS in KB of one run of ARGS (which must succeed), from the build
# tree's cil_bench_run (bench/run_timed.cpp: fork, exec, wait4; its own few pages are the floor).
runner="$(dirname "$TOOL")/../bench/cil_bench_run"
[ -x "$runner" ] || { echo "memory: no cil_bench_run beside the tool (a build with CIL_BENCH=OFF): skipped"; exit 77; }
peak_kb() {
  local line
  line=$("$runner" --stdout /dev/null --stderr "$work/peak.err" -- "$@") || return 1
  set -- $line
  [ "$4" = 0 ] || { cat "$work/peak.err" >&2; return 1; }
  echo "$3"
}

base=$(peak_kb "$TOOL" --version) || fail "cil-instrument --version"
echo "an empty run: $base KB"
for mode in coverage count; do
  mkdir -p "$work/out-$mode" "$work/out-$mode-nv" "$work/out-kept"
  with=$(peak_kb "$TOOL" "$work/Big.dll" -o "$work/out-$mode/Big.dll" --mode "$mode") || { fail "$mode mode"; continue; }
  without=$(peak_kb "$TOOL" "$work/Big.dll" -o "$work/out-$mode-nv/Big.dll" --mode "$mode" --no-verify) || { fail "$mode --no-verify"; continue; }
  echo "$mode mode: $with KB with the self-check, $without KB without"
  (( with <= without + without / 10 + 1024 )) || fail "$mode mode: the self-check raises the peak from $without KB to $with KB"
  cmp -s "$work/out-$mode/Big.dll" "$work/out-$mode-nv/Big.dll" || fail "$mode mode: --no-verify changed the output"
  if [ "$mode" = coverage ]; then
    ratio=$(python3 -c "print(f'{($with - $base) / $input_kb:.2f}')")
    echo "coverage mode: ($with - $base) KB is $ratio times input plus PDB"
    (( (with - base) < 3 * input_kb )) || fail "coverage mode's peak is not under 3 times input plus PDB"
    kept=$(CIL_INSTRUMENT_TEST_KEEP_CHECK_PAGES=1 peak_kb "$TOOL" "$work/Big.dll" -o "$work/out-kept/Big.dll" --mode coverage) ||
      { fail "coverage mode with the pages kept"; continue; }
    echo "control: $kept KB when the self-check keeps its pages"
    # The pages the check keeps are the output's (it maps the output back): clearly above means
    # by a quarter of the output's size (the output is less than half its old size since the
    # hits skeleton is deflated, so a quarter of the peak is no longer a fair bar).
    out_kb=$(( $(stat -c %s "$work/out-$mode/Big.dll") / 1024 ))
    (( kept > with + out_kb / 4 )) ||
      fail "the control's peak ($kept KB) is not clearly above $with KB (by a quarter of the ${out_kb} KB output): the measure does not see the check's pages"
  fi
done
finish
