#!/usr/bin/env bash
# Every file of the peer corpus (../shared/corpus) is either dumped or refused with one error
# line: never a crash, a hang or a runaway allocation. The outcome per file is kept as a golden
# list (tests/golden/corpus.txt) that says which files are refused and why.
#   tests/scripts/corpus_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary="$work/corpus.txt"
: > "$summary"
# Address-space cap: a file must not make the tool allocate without bound. Sanitizer builds
# reserve huge shadow mappings, so they run without it.
limit=""
[ "${CIL_SANITIZED:-0}" = 1 ] || limit="ulimit -v 4000000;"

while IFS= read -r f; do
  name=${f#"$CORPUS"/}
  for command in info dump; do
    set +e
    bash -c "$limit exec timeout 120 \"\$@\"" _ "$TOOL" "$command" "$f" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    case $rc in
      0)
        if [ "$command" = dump ]; then
          methods=$(grep -c '^\.method' "$work/out" || true)
          warn=$(grep -m1 'warning' "$work/err" | sed "s|$CORPUS/||g" || true)
          echo "$name: dumped $methods methods${warn:+; $warn}" >> "$summary"
        fi
        ;;
      3)
        lines=$(wc -l < "$work/err")
        [ "$lines" -eq 1 ] || fail "$command $name: expected one error line, got $lines"
        grep -q "^cil-instrument: error: $f: " "$work/err" || fail "$command $name: error line does not name the file: $(head -1 "$work/err")"
        [ -s "$work/out" ] && fail "$command $name: refused but printed to stdout"
        [ "$command" = dump ] && echo "$name: refused: $(sed "s|^cil-instrument: error: $f: ||" "$work/err")" >> "$summary"
        ;;
      124) fail "$command $name: timed out" ;;
      *) fail "$command $name: exit status $rc: $(head -c 300 "$work/err")" ;;
    esac
  done
done < <(corpus_files)
check_golden_per_file corpus.txt "$summary"
echo "$(grep -c ': dumped' "$summary") dumped, $(grep -c ': refused' "$summary") refused"
finish
