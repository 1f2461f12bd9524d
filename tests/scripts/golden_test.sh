#!/usr/bin/env bash
# Golden tests of everything `info` and `dump` print for the testdata fixtures (text, and JSON for
# three of them), including the one-line errors for malformed files. CIL_REGEN=1 rewrites the golden files.
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
  "$TOOL" dump --json "$f" > "$work/${name//\//_}.dump.json" || fail "dump --json $f exited $?"
  "$TOOL" info --json "$f" > "$work/${name//\//_}.info.json" || fail "info --json $f exited $?"
done
# Every JSON output parses (one interpreter for all of them).
python3 - "$work"/*.dump.json "$work"/*.info.json <<'PY' || fail "some --json output is not valid JSON"
import json, sys
bad = 0
for path in sys.argv[1:]:
    try:
        with open(path, encoding="utf-8") as f:
            json.load(f)
    except ValueError as e:
        print(f"{path}: {e}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY

# The JSON forms of fixtures with every operand kind, branches, switches and all four clause
# kinds: dump --json lists each instruction (offset, opcode, operand text, token or targets).
for name in il/IlOps.exe il/IlEh.exe Basics.dll; do
  for command in info dump; do
    out="$work/${name//\//_}.$command.json"
    "$TOOL" "$command" --json "testdata/bin/$name" > "$out" || fail "$command --json $name exited $?"
    check_golden "json/${name//\//_}.$command.json" "$out"
  done
done

# `info` on peer-corpus files whose headers the fixtures do not have: PE32+ (Arm64), 32BITREQUIRED
# with and without 32BITPREFERRED, ReadyToRun (IL_LIBRARY, ManagedNativeHeader), a native entry
# point (C++/CLI), and a strong-name signature in a real library.
if [ -d "$CORPUS" ]; then
  for f in asmresolver/HelloWorld.Arm64.exe asmresolver/HelloWorld.IntPtrFieldRva.x86.exe \
           cecil/hello.x86.exe asmresolver/HelloWorld.ReadyToRun.dll cecil/cppcli.dll cecil/FSharp.Core.dll; do
    out="$work/corpus_${f//\//_}.info"
    (cd "$CORPUS" && "$TOOL" info "$f") > "$out" 2> "$out.err" || fail "info $f exited $?: $(cat "$out.err")"
    check_golden "corpus-info/${f//\//_}.info.txt" "$out"
  done
else
  echo "no peer corpus at $CORPUS: its info goldens skipped"
fi
finish
