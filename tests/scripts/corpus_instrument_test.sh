#!/usr/bin/env bash
# Every file of the peer corpus (../shared/corpus) instrumented in count mode: either an output
# that our reader reads back (info and dump succeed on it), with out.pdb beside it when the input's
# portable PDB was rewritten, or a refusal with one error line that
# names the file and no output left behind. Never a crash, a hang, a runaway allocation, or a
# leftover temporary file. The outcome per file is kept in tests/golden/corpus_instrument.txt.
#   tests/scripts/corpus_instrument_test.sh [TOOL]        (CIL_REGEN=1 rewrites the golden file)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out"
summary="$work/corpus_instrument.txt"
: > "$summary"
limit=""
readback=1
if [ "${CIL_SANITIZED:-0}" = 1 ]; then
  # Under the sanitizers a process costs about 0.1 s to start, so the 226 files get one process
  # each: instrument, whose self-check reads every output back (tables, bodies, tokens) before
  # it takes its name; corpus_test runs info and dump on every input.
  readback=0
else
  limit="ulimit -v 4000000;"
fi

while IFS= read -r f; do
  name=${f#"$CORPUS"/}
  out="$work/out/out.dll"
  set +e
  bash -c "$limit exec timeout 120 \"\$@\"" _ "$TOOL" instrument "$f" -o "$out" --mode count > "$work/stdout" 2> "$work/stderr"
  rc=$?
  set -e
  case $rc in
    0)
      if [ ! -s "$out" ]; then
        fail "$name: exit 0 but no output"
      elif [ "$readback" = 1 ]; then
        "$TOOL" info "$out" > /dev/null 2> "$work/readback" || fail "$name: info cannot read the output: $(head -1 "$work/readback")"
        "$TOOL" dump "$out" > /dev/null 2> "$work/readback" || fail "$name: dump cannot read the output: $(head -1 "$work/readback")"
      fi
      counts=$(head -1 "$work/stdout" | sed -E 's|^.*: (instrumented [0-9]+ methods?).*|\1|')
      skipped=$(sed -n 2p "$work/stdout" | sed -E 's|:$||')
      warnings=$(grep -c '^cil-instrument: warning: ' "$work/stderr" || true)
      pdb=""
      [ -f "$work/out/out.pdb" ] && pdb=", out.pdb written"
      echo "$name: $counts, $skipped${warnings:+, $warnings warning(s)}$pdb" | sed 's/, 0 warning(s)//' >> "$summary"
      ;;
    3|5)
      lines=$(wc -l < "$work/stderr")
      [ "$lines" -eq 1 ] || fail "$name: expected one error line, got $lines"
      grep -q "^cil-instrument: error: $f: " "$work/stderr" || fail "$name: the error line does not name the file: $(head -1 "$work/stderr")"
      [ ! -e "$out" ] || fail "$name: refused but left an output"
      echo "$name: refused (exit $rc): $(sed "s|^cil-instrument: error: $f: ||" "$work/stderr")" >> "$summary"
      ;;
    124) fail "$name: timed out" ;;
    *) fail "$name: exit status $rc: $(head -c 300 "$work/stderr")" ;;
  esac
  leftovers=$(find "$work/out" -type f ! -name out.dll ! -name out.pdb | wc -l)  # out.pdb: the rewritten PDB
  [ "$leftovers" -eq 0 ] || fail "$name: left temporary files behind"
  rm -f "$work/out"/*
done < <(corpus_files)
check_golden_per_file corpus_instrument.txt "$summary"
echo "$(grep -c ': instrumented' "$summary") instrumented, $(grep -c ': refused' "$summary") refused"
finish
