#!/usr/bin/env bash
# The runtime profiler on a program this project did not write: the C# compiler of the
# installed SDK (csc.dll and Microsoft.CodeAnalysis*.dll, ReadyToRun and strong-name signed, run
# as they are) compiles tests/data/realworld/Program.cs once plainly and once under
#   cil-instrument run --mode count --include 'Microsoft.CodeAnalysis.*'
# Both compilations succeed with the same diagnostics and byte-identical output, the program
# prints tests/data/realworld/expected.txt, and the count files list thousands of Roslyn
# methods (Main called once, thousands of methods called, millions of calls), readable by
# `cil-instrument report`.
#
#   tests/scripts/profiler_realworld_test.sh [TOOL]
# PROFILER_REALWORLD_KEEP=1 keeps the temporary folder. Skips (77) without a .NET SDK.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export LC_ALL=C LANG=C
unset CIL_INSTRUMENT_OUTPUT CIL_INSTRUMENT_MODE CIL_INSTRUMENT_INCLUDE CIL_INSTRUMENT_EXCLUDE CIL_INSTRUMENT_STATS
if ! command -v dotnet > /dev/null || [ -z "$(dotnet --list-sdks 2> /dev/null)" ]; then
  echo "skip: no .NET SDK"
  exit 77
fi
[ -f "$(dirname "$TOOL")/libcilprofiler.so" ] || { echo "skip: no libcilprofiler.so next to $TOOL"; exit 77; }
SRC=$ROOT/tests/data/realworld/Program.cs
EXPECTED=$ROOT/tests/data/realworld/expected.txt
work=$(mktemp -d)
trap 'if [ "${PROFILER_REALWORLD_KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi' EXIT

sdk_dir=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
csc=$sdk_dir/Roslyn/bincore/csc.dll
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
ref_dir=$(ls -d "$dotnet_root"/packs/Microsoft.NETCore.App.Ref/*/ref/net* 2> /dev/null | sort -V | tail -n1)
[ -f "$csc" ] && [ -n "$ref_dir" ] || { echo "skip: no $csc or no reference pack"; exit 77; }
fx_version=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2} END{print v}')
refs=()
for r in "$ref_dir"/*.dll; do refs+=("/reference:$r"); done
echo "Roslyn $(dotnet "$csc" /version 2> /dev/null || echo '?') from $(dirname "$csc"), on .NET $fx_version"

# compile LABEL OUT_DIR [run OPTIONS...]: OUT_DIR/Program.dll; csc's output in OUT_DIR/csc.*
compile() {
  local label=$1 out=$2 start end rc=0
  shift 2
  mkdir -p "$out"
  start=$(date +%s.%N)
  (cd "$out" && timeout 600 "$@" dotnet "$csc" /nologo /noconfig /nostdlib+ /deterministic+ "${refs[@]}" \
    /out:Program.dll "$SRC" > csc.stdout 2> csc.stderr; exit $?) 2> /dev/null || rc=$?
  end=$(date +%s.%N)
  echo $rc > "$out/csc.status"
  awk -v l="$label" -v s="$start" -v e="$end" -v rc="$rc" 'BEGIN { printf "  %-56s %6.2f s%s\n", l, e - s, rc ? " (exit " rc ")" : "" }'
  cat > "$out/Program.runtimeconfig.json" <<JSON
{
  "runtimeOptions": {
    "tfm": "net${fx_version%%.*}.0",
    "framework": { "name": "Microsoft.NETCore.App", "version": "${fx_version%.*}.0" }
  }
}
JSON
  return $rc
}

compile "compile with csc" "$work/plain" || { fail "the plain compilation failed: $(head -n 5 "$work/plain/csc.stdout")"; finish; }
compile "compile with csc under run --mode count" "$work/count" \
  "$TOOL" run -q --mode count -o "$work/counts" --stats "$work/stats.jsonl" --include 'Microsoft.CodeAnalysis.*' -- ||
  fail "the compilation under the profiler failed (status $(cat "$work/count/csc.status")): $(head -n 5 "$work/count/csc.stdout" "$work/count/csc.stderr")"

for part in status stdout stderr; do
  cmp -s "$work/plain/csc.$part" "$work/count/csc.$part" || { fail "csc $part differs under the profiler:"; diff "$work/plain/csc.$part" "$work/count/csc.$part" | head -n 10 >&2 || true; }
done
grep -q 'warning CS0219' "$work/count/csc.stdout" || fail "the expected CS0219 warning is missing"
if cmp -s "$work/plain/Program.dll" "$work/count/Program.dll"; then
  echo "    Program.dll is byte-identical ($(stat -c %s "$work/count/Program.dll") bytes)"
else
  fail "Program.dll differs from the plain compiler's"
fi
(cd "$work/count" && timeout 60 dotnet Program.dll > program.stdout 2>&1) || fail "the compiled program failed"
cmp -s "$EXPECTED" "$work/count/program.stdout" || fail "the compiled program's output differs from tests/data/realworld/expected.txt"

if ! "$TOOL" report --json "$work"/counts/*.counts.json > "$work/report.json" 2> "$work/report.err"; then
  fail "report rejects the count files: $(cat "$work/report.err")"
else
  python3 - "$work/report.json" <<'PY' || FAILURES=$((FAILURES + 1))
import json, sys
report = json.load(open(sys.argv[1]))
by_name = {a["assembly"]: a for a in report["assemblies"]}
errors = []
for name in ("csc", "Microsoft.CodeAnalysis", "Microsoft.CodeAnalysis.CSharp"):
    if name not in by_name:
        errors.append(f"no count file for {name} (have {sorted(by_name)})")
methods = sum(a["methodCount"] for a in report["assemblies"])
called = sum(a["calledMethods"] for a in report["assemblies"])
calls = sum(a["totalCalls"] for a in report["assemblies"])
print(f"    {methods} methods listed, {called} called at least once, {calls} calls")
for a in report["assemblies"]:
    print(f"      {a['assembly']}: {a['methodCount']} methods, {a['calledMethods']} called, {a['totalCalls']} calls")
if methods < 20000:
    errors.append(f"only {methods} methods listed")
if called < 5000:
    errors.append(f"only {called} methods called")
if calls < 1000000:
    errors.append(f"only {calls} calls")
outside = [m["name"] for a in report["assemblies"] for m in a["methods"] if not m["name"].startswith("Microsoft.CodeAnalysis.")]
if outside:
    errors.append(f"methods outside the filter: {outside[:3]}")
main = [m["count"] for m in by_name.get("csc", {"methods": []})["methods"]
        if m["name"] == "Microsoft.CodeAnalysis.CSharp.CommandLine.Program::Main"]
if main != [1]:
    errors.append(f"Microsoft.CodeAnalysis.CSharp.CommandLine.Program::Main counted {main}, expected [1]")
for e in errors:
    print(f"FAIL: Roslyn count: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
fi
if [ -f "$work/stats.jsonl" ]; then
  python3 - "$work/stats.jsonl" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["rewritten"]
print(f"    {r['count']} methods rewritten at JIT time: median {r['median_us']:.1f} us, p99 {r['p99_us']:.1f} us")
PY
fi
ls "$work"/counts/cil-instrument.*.log > /dev/null 2>&1 && fail "the profiler left warnings: $(head -n 5 "$work"/counts/cil-instrument.*.log)"
finish
