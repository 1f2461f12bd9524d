#!/usr/bin/env bash
# The independent reader: the SRM oracle (tests/oracle) must agree with `dump --json` and
# `info --json` on a third of the installed .NET shared framework (CoreLib and every third file;
# instrument_verify compares every instrumented copy) and every fixture, instruction by
# instruction. A control first: a tool whose listing is wrong in each way the
# oracle checks an instruction must be caught on each.
#   tests/scripts/oracle_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
oracle_dir=${ORACLE_DIR:-$ROOT/build/oracle}
"$ROOT/tests/oracle/build.sh" "$oracle_dir" > /dev/null
dotnet "$oracle_dir/Oracle.dll" selftest
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The control: `dump --json` through a filter that breaks the first instruction of each kind.
cat > "$work/corrupt.py" <<'PY'
import json, sys
d = json.load(sys.stdin)
done = set()
def once(what):
    if what in done: return False
    done.add(what); return True
for m in d["methods"]:
    for i in m.get("instructions", []):
        op = i["opcode"]
        if op == "ldarg.0" and once("opcode"): i["opcode"] = "ldarg.1"
        elif op == "ldc.i4.s" and once("operand"): i["operand"] = str(int(i["operand"]) + 1)
        elif "token" in i and once("token"): i["token"] = "0x%08X" % (int(i["token"], 16) + 1)
        elif "target" in i and once("target"): i["target"] += 1
        elif "targets" in i and once("targets"): i["targets"][0] += 1
        elif op == "ldc.i8" and once("missing"): del i["operand"]
        elif op in ("ldc.r4", "ldc.r8") and once("real"): i["operand"] = "1234.5"
json.dump(d, sys.stdout)
PY
cat > "$work/tool" <<SH
#!/usr/bin/env bash
if [ "\$1" = dump ]; then "$TOOL" "\$@" | python3 "$work/corrupt.py"; else exec "$TOOL" "\$@"; fi
SH
chmod +x "$work/tool"
set +e
dotnet "$oracle_dir/Oracle.dll" compare --tool "$work/tool" "$ROOT/testdata/bin/il/IlOps.exe" "$ROOT/testdata/bin/Basics.dll" > "$work/control"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "control: a broken listing was not refused (exit $rc)"
for pattern in '\.opcode ours="ldarg\.1" srm="ldarg\.0"' 'ldc\.i4\.s)\.operand ours=' '\.token ours=' '\.target ours=' \
               '\.targets ours=' 'ldc\.i8)\.operand ours=null but the InlineI8 operand is there' 'operand ours=1234\.5 srm reads the bytes'; do
  grep -q "$pattern" "$work/control" || fail "control: the oracle did not see a broken $pattern"
done
# Each file had each kind broken once, where it has one: nothing else may differ.
broken=$(grep -c '^  method ' "$work/control" || true)
seen=$(grep -c -e '\.opcode ours=' -e '\.operand ours=' -e '\.token ours=' -e '\.target ours=' -e '\.targets ours=' "$work/control" || true)
[ "$broken" -eq "$seen" ] || fail "control: $broken differences, of which only $seen were made on purpose"
[ "$FAILURES" -eq 0 ] || cat "$work/control" >&2

list="$work/list"
# The shared framework as installed: CoreLib and every third of the others by name. Every one of
# them is read again by instrument_verify, which has the oracle compare all 172 instrumented
# copies (the same tables, heaps, signatures and PE headers, and every original instruction
# inside the rewritten bodies), so reading all the originals here too doubled the cost for the
# few things only an original has (ReadyToRun headers, unwidened branches): the sample keeps them.
framework_dlls | awk '/System\.Private\.CoreLib\.dll$/ || NR % 3 == 1' > "$list"
find "$ROOT/testdata/bin" -type f \( -name '*.dll' -o -name '*.exe' \) | sort >> "$list"
echo "comparing $(wc -l < "$list") assemblies with the SRM oracle"
set +e
report=$(dotnet "$oracle_dir/Oracle.dll" compare --tool "$TOOL" --list "$list")
rc=$?
set -e
grep -v '^OK ' <<< "$report" || true
[ "$rc" -eq 0 ] || fail "the oracle found differences"
finish
