#!/usr/bin/env bash
# End-to-end tests of `report` on the hand-written count files of tests/data/report: merging
# runs, several assemblies, --top, --json, builds with different mvids, and malformed files
# (exit 3 and exactly one error line each); live files made from them (alone, in a folder beside
# their counts file, given with it, and broken). CIL_REGEN=1 rewrites the golden files.
#   tests/scripts/report_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Relative paths from a fixed directory, so that the messages naming files are stable.
cd "$ROOT/tests/data/report"

# run NAME ARGS...: runs `report` with stdout in $work/NAME.out, stderr in $work/NAME.err and
# the exit status in $rc.
run() {
  local name=$1
  shift
  set +e
  "$TOOL" report "$@" > "$work/$name.out" 2> "$work/$name.err"
  rc=$?
  set -e
}

# expect_clean NAME: exit 0 and nothing on stderr.
expect_clean() {
  [ "$rc" -eq 0 ] || fail "$1: exit $rc, expected 0: $(head -n 3 "$work/$1.err")"
  [ -s "$work/$1.err" ] && fail "$1: unexpected stderr: $(head -n 3 "$work/$1.err")"
  return 0
}

run merge App.1001.counts.json App.1002.counts.json
expect_clean merge
check_golden report/merge.txt "$work/merge.out"
# The order of the files does not matter.
run merge_reversed App.1002.counts.json App.1001.counts.json
cmp -s "$work/merge.out" "$work/merge_reversed.out" || fail "merge depends on the order of the files"

run two Lib.1001.counts.json App.1001.counts.json App.1002.counts.json
expect_clean two
check_golden report/two-assemblies.txt "$work/two.out"

run top --top 3 Lib.1001.counts.json App.1001.counts.json App.1002.counts.json
expect_clean top
check_golden report/top.txt "$work/top.out"
rows=$(grep -c '^ *[0-9]\+  0x06' "$work/top.out" || true)
[ "$rows" -eq 6 ] || fail "--top 3 on two assemblies listed $rows rows, expected 6"

run json --json Lib.1001.counts.json App.1001.counts.json App.1002.counts.json
expect_clean json
python3 -m json.tool "$work/json.out" > /dev/null || fail "report --json is not valid JSON"
check_golden report/all.json "$work/json.out"
run json_top --json --top 2 Lib.1001.counts.json App.1001.counts.json App.1002.counts.json
expect_clean json_top
python3 - "$work/json_top.out" <<'PY' || fail "report --json --top 2 has the wrong shape"
import json, sys
doc = json.load(open(sys.argv[1]))
names = [a["assembly"] for a in doc["assemblies"]]
assert names == ["App", "Lib"], names
for a in doc["assemblies"]:
    assert len(a["methods"]) == 2, a
    counts = [m["count"] for m in a["methods"]]
    assert counts == sorted(counts, reverse=True), counts
    assert set(a) >= {"assembly", "mvid", "files", "methods"}, a
PY

# Another build of App (another mvid): reported apart, with one warning.
run mvid App.1001.counts.json App.rebuilt.1003.counts.json App.1002.counts.json
[ "$rc" -eq 0 ] || fail "mvid mismatch: exit $rc, expected 0"
check_golden report/mvid-mismatch.txt "$work/mvid.out"
check_golden report/mvid-mismatch.err "$work/mvid.err"
[ "$(wc -l < "$work/mvid.err")" -eq 1 ] || fail "mvid mismatch: expected one warning line"
grep -q '^cil-instrument: warning: App.rebuilt.1003.counts.json: ' "$work/mvid.err" || fail "mvid mismatch: no warning naming the file"

# The same token named differently in the same build: a warning, the first name kept.
run renamed App.1001.counts.json App.renamed.1004.counts.json
[ "$rc" -eq 0 ] || fail "renamed: exit $rc, expected 0"
check_golden report/renamed.err "$work/renamed.err"

# Malformed files, a missing file, and sums beyond 64 bits: exit 3 and one error line each.
: > "$work/errors.txt"
for args in malformed/*.counts.json missing.counts.json "Lib.1001.counts.json Lib.1001.counts.json"; do
  # shellcheck disable=SC2086
  run bad App.1001.counts.json $args
  [ "$rc" -eq 3 ] || fail "report $args: exit $rc, expected 3"
  [ "$(wc -l < "$work/bad.err")" -eq 1 ] || fail "report $args: expected one error line, got $(wc -l < "$work/bad.err")"
  grep -q '^cil-instrument: error: [^:]*\.json: ' "$work/bad.err" || fail "report $args: the error does not name the file"
  [ -s "$work/bad.out" ] && fail "report $args: printed to stdout"
  { echo "report $args: exit $rc"; cat "$work/bad.err"; } >> "$work/errors.txt"
done
# Usage errors: exit 2.
for args in "" "--top 0 App.1001.counts.json" "--top x App.1001.counts.json" "--top -1 App.1001.counts.json"; do
  # shellcheck disable=SC2086
  run usage $args
  [ "$rc" -eq 2 ] || fail "report $args: exit $rc, expected 2"
  { echo "report $args: exit $rc"; cat "$work/usage.err"; } >> "$work/errors.txt"
done
check_golden report/errors.txt "$work/errors.txt"

# Live files (a process killed before its final write), made here from a counts file in the
# layout of src/instrument/runtime_contract.h, optionally with every count raised by EXTRA.
live_from() {
  python3 - "$@" <<'PY'
import json, struct, sys
src, dst, extra, state = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
f = json.load(open(src))
header = '{"assembly": %s, "mvid": %s, "methods": [' % (json.dumps(f["assembly"]), json.dumps(f["mvid"].lower()))
pieces, counts = [], []
for i, m in enumerate(f["methods"]):
    pieces.append(('}, ' if i else '') + '{"token": "%s", "name": %s, "count": ' % (m["token"], json.dumps(m["name"])))
    counts.append(m["count"] + extra)
tail = ('}' if pieces else '') + ']}\n'
enc = lambda s: s.encode()
text = b"".join(map(enc, pieces))
out = b"CILLIVE" + state + struct.pack("<6I", 1, len(counts), len(enc(header)), len(text), len(enc(tail)), 0)
out += b"".join(struct.pack("<q", c) for c in counts) + enc(header) + text
out += b"".join(struct.pack("<I", len(enc(p))) for p in pieces) + enc(tail)
open(dst, "wb").write(out)
PY
}
mkdir -p "$work/live/dir"
live_from App.1002.counts.json "$work/live/App.1002.counts.live" 0 1
cp App.1001.counts.json App.1002.counts.json "$work/live/dir/"
live_from App.1002.counts.json "$work/live/dir/App.1002.counts.live" 10 1
# A live file reads as the counts file it stands for.
run live-alone "$work/live/App.1002.counts.live"
expect_clean live-alone
run json-alone App.1002.counts.json
cmp -s "$work/live-alone.out" "$work/json-alone.out" || fail "report of a live file differs from report of its counts file"
# A folder: every count, hits and live file in it, the live file in place of its counts file
# (here 10 more calls per method), so the merge is of App.1001's counts file and App.1002's
# live file.
run live-dir "$work/live/dir"
expect_clean live-dir
run live-pair App.1001.counts.json "$work/live/dir/App.1002.counts.live"
expect_clean live-pair
cmp -s "$work/live-dir.out" "$work/live-pair.out" || fail "report DIR did not take the live file in place of its counts file"
run live-both "$work/live/dir/App.1002.counts.json" "$work/live/dir/App.1002.counts.live" App.1001.counts.json
cmp -s "$work/live-both.out" "$work/live-pair.out" || fail "a counts file given with its live file was read too"
# Bad live files: exit 3, one line naming the file, the structure and the offset.
(
  cd "$work/live"
  live_from "$ROOT/tests/data/report/App.1002.counts.json" writing.counts.live 0 0
  head -c 100 App.1002.counts.live > truncated.counts.live
  : > "$work/live-errors.txt"
  for f in writing.counts.live truncated.counts.live; do
    run bad "$f"
    [ "$rc" -eq 3 ] || fail "report $f: exit $rc, expected 3"
    [ "$(wc -l < "$work/bad.err")" -eq 1 ] || fail "report $f: expected one error line"
    { echo "report $f: exit $rc"; cat "$work/bad.err"; } >> "$work/live-errors.txt"
  done
  mkdir -p empty
  run bad empty
  [ "$rc" -eq 2 ] || fail "report of an empty folder: exit $rc, expected 2"
  { echo "report empty: exit $rc"; cat "$work/bad.err"; } >> "$work/live-errors.txt"
)
check_golden report/live-errors.txt "$work/live-errors.txt"

# Names as long as a hostile counts file makes them (10 MB, in the assembly's name and a
# method's): the text is cut at the man page's LIMITS (16,384 bytes of printed text, ending in
# "..."); JSON keeps the names as they are.
python3 - "$work/long.counts.json" << 'PY'
import json, sys
name = "N" * 10_000_000
json.dump({"assembly": "A" * 10_000_000, "mvid": "6f1c2a4e-93b0-4d5e-8a71-0c2d9e4f5b13",
           "methods": [{"token": "0x06000001", "name": name, "count": 3}]}, open(sys.argv[1], "w"))
PY
run long "$work/long.counts.json"
[ "$rc" -eq 0 ] || fail "report of 10 MB names: exit $rc: $(head -c 300 "$work/long.err")"
longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$work/long.out")
[ "$longest" -le 17000 ] || fail "report of 10 MB names: a line of $longest bytes (names are cut at 16,384)"
grep -q 'NNN\.\.\.$' "$work/long.out" || fail "report of 10 MB names: the method's name is not cut with ...: $(head -c 300 "$work/long.out")"
run long-json --json "$work/long.counts.json"
[ "$rc" -eq 0 ] && python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert len(r["assemblies"][0]["methods"][0]["name"]) == 10_000_000' \
  "$work/long-json.out" || fail "report --json: the 10 MB name is not kept whole"
echo "ok   10 MB names cut to $longest bytes in text, whole in JSON"

run help --help
[ "$rc" -eq 0 ] && grep -q -- '--top' "$work/help.out" || fail "report --help"
finish
