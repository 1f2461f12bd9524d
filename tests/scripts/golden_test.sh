#!/usr/bin/env bash
# Golden tests of everything `info` and `dump` print for the testdata fixtures, including the
# one-line errors for malformed files. CIL_REGEN=1 rewrites the golden files.
#   tests/scripts/golden_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t fixtures < <(find testdata/bin -type f \( -name '*.dll' -o -name '*.exe' \) | sort)
[ ${#fixtures[@]} -gt 0 ] || { echo "no fixtures under testdata/bin" >&2; exit 1; }
for f in "${fixtures[@]}"; do
  name=${f#testdata/bin/}
  for command in info dump; do
    out="$work/${name//\//_}.$command"
    "$TOOL" "$command" "$f" > "$out" 2> "$out.err" || fail "$command $f exited $?: $(cat "$out.err")"
    check_golden "$name.$command.txt" "$out"
    "$TOOL" "$command" "$f" 2>/dev/null | cmp -s - "$out" || fail "$command $f is not deterministic"
  done
  json="$work/${name//\//_}.json"
  "$TOOL" dump --json "$f" > "$json" || fail "dump --json $f exited $?"
  python3 -m json.tool "$json" > /dev/null || fail "dump --json $f is not valid JSON"
  "$TOOL" info --json "$f" | python3 -m json.tool > /dev/null || fail "info --json $f is not valid JSON"
done
finish
