#!/usr/bin/env bash
# The independent reader: the SRM oracle (tests/oracle) must agree with `dump --json` and
# `info --json` on every assembly of the installed .NET shared framework and every fixture.
#   tests/scripts/oracle_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
oracle_dir=${ORACLE_DIR:-$ROOT/build/oracle}
"$ROOT/tests/oracle/build.sh" "$oracle_dir" > /dev/null
dotnet "$oracle_dir/Oracle.dll" selftest
list=$(mktemp)
trap 'rm -f "$list"' EXIT
fw=$(framework_dir)
find "$fw" -maxdepth 1 -name '*.dll' | sort > "$list"
find "$ROOT/testdata/bin" -type f \( -name '*.dll' -o -name '*.exe' \) | sort >> "$list"
echo "comparing $(wc -l < "$list") assemblies with the SRM oracle"
set +e
report=$(dotnet "$oracle_dir/Oracle.dll" compare --tool "$TOOL" --list "$list")
rc=$?
set -e
grep -v '^OK ' <<< "$report" || true
exit $rc
