#!/usr/bin/env bash
# Error quality: deliberately broken copies of testdata/bin/Exceptions.dll, one defect per file
# and named after it (tests/scripts/make_broken.py: truncated at every header boundary, bad RVAs
# and signatures, absurd counts, heap indexes past the end, bodies past their section, bad EH
# clauses), through info, dump and instrument. Each command prints at most one line on stderr,
# and it names the file: an error, with exit status 3 (5 when instrument refuses a file it can
# read) and no output file left behind; or, for a defect inside one method body, a warning, with
# exit status 0 (the other methods are listed or instrumented, and the output reads back). Never
# a crash, a hang, a second line, or a partial, empty or temporary output file. The outcomes are
# kept in tests/golden/broken.txt.
#   tests/scripts/broken_files_test.sh [TOOL]        (CIL_REGEN=1 rewrites the golden file)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$ROOT/tests/scripts/make_broken.py" "$ROOT/testdata/bin/Exceptions.dll" "$work/in"
mkdir -p "$work/out"
summary="$work/broken.txt"
: > "$summary"
limit=""
[ "${CIL_SANITIZED:-0}" = 1 ] || limit="ulimit -v 4000000;"

run() {  # run OUT_FILE ARGS...: the tool under a time and memory limit
  bash -c "$limit exec timeout 120 \"\$@\"" _ "$TOOL" "$@" > "$work/stdout" 2> "$work/stderr"
}

for f in "$work"/in/*.dll; do
  name=$(basename "$f")
  out="$work/out/$name"
  for command in info dump instrument; do
    set +e
    if [ "$command" = instrument ]; then run "$f" -o "$out" --mode count; else run "$command" "$f"; fi
    rc=$?
    set -e
    lines=$(wc -l < "$work/stderr")
    what="$command $name"
    case $rc in
      0|3|5) ;;
      124) fail "$what: timed out" ;;
      *) fail "$what: exit status $rc: $(head -c 300 "$work/stderr")" ;;
    esac
    [ "$lines" -le 1 ] || fail "$what: $lines lines on stderr"
    if [ "$rc" -ne 0 ]; then
      grep -q "^cil-instrument: error: $f: " "$work/stderr" || fail "$what: no error line naming the file"
      [ "$command" = instrument ] || [ ! -s "$work/stdout" ] || fail "$what: refused but printed to stdout"
      [ ! -e "$out" ] || fail "$what: refused but left $name behind"
    elif [ "$lines" -eq 1 ]; then
      grep -q "^cil-instrument: warning: $f: " "$work/stderr" || fail "$what: the line is not a warning naming the file"
    fi
    if [ "$command" = instrument ] && [ "$rc" -eq 0 ]; then
      if [ ! -s "$out" ]; then
        fail "$what: no output"
      else
        "$TOOL" dump "$out" > /dev/null 2>&1 || fail "$what: the output does not read back"
      fi
    fi
    leftovers=$(find "$work/out" -type f ! -name "$name" | wc -l)
    [ "$leftovers" -eq 0 ] || fail "$what: left temporary files: $(ls "$work/out")"
    rm -f "$out"
    message=$(sed "s|$work/in/||g" "$work/stderr")
    echo "$name $command: exit $rc${message:+: $message}" >> "$summary"
  done
done
check_golden broken.txt "$summary"
echo "$(grep -c -E ': exit [35]' "$summary") refusals, $(grep -c ': exit 0: .*warning' "$summary") warnings, $(ls "$work/in" | wc -l) files"
finish
