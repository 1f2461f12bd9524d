#!/usr/bin/env bash
# Folder mode's "my code" default (issue 40), on a small repository compiled here: from its root,
# `cil-instrument bin -o out` instruments the library built from its sources even though it is
# signed with Microsoft's key (as Roslyn's bincore is), and leaves the test assembly (it
# references xunit.core), a package whose PDB names sources elsewhere, and a package without
# PDB; the same with embedded PDBs only, and an MSTest 4 test assembly. Control: with
# CIL_INSTRUMENT_SOURCE_ROOT pointing elsewhere the old default is back (the library is a
# "framework assembly", the others instrumented), so the checks above are the rule's.
#   tests/scripts/user_code_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
command -v dotnet > /dev/null || { echo "no dotnet" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
mkdir -p "$repo/src" "$repo/bin" "$work/elsewhere"
csc() { bash "$ROOT/scripts/csc.sh" "$@" > "$work/csc.log" 2>&1 || { cat "$work/csc.log" >&2; fail "csc $1 failed"; finish; }; }
# Microsoft's shared public key (token 31bf3856ad364e35), for public signing.
python3 -c 'import sys; open(sys.argv[1], "wb").write(bytes.fromhex(sys.argv[2]))' "$work/msft.pub" \
  0024000004800000940000000602000000240000525341310004000001000100b5fc90e7027f67871e773a8fde8938c81dd402ba65b9201d60593e96c492651e889cc13f1415ebb53fac1131ae0bd333c5ee6021672d9718ea31a8aebd0da0072f25d87dba6fc90ffd598ed4da35e44c398c454307e8e33b8426143daec9f596836f97c8f74750e5975c64e2189f45def46b2a2b1247adc3652bf5c308055da9
echo 'namespace Xunit { public class FactAttribute : System.Attribute {} }' > "$work/elsewhere/XunitCore.cs"
echo 'namespace Pkg { public static class Util { public static int Twice(int x) => 2 * x; } }' > "$work/elsewhere/Pkg.cs"
echo 'namespace Lib { public static class Calc { public static int Add(int a, int b) => a + b; } }' > "$repo/src/Lib.cs"
echo 'public class CalcTests { [Xunit.Fact] public void Adds() { Lib.Calc.Add(1, 2); } }' > "$repo/src/LibTests.cs"
csc "$repo/bin/xunit.core.dll" /target:library /debug- "$work/elsewhere/XunitCore.cs"
csc "$repo/bin/Pkg.dll" /target:library /debug:portable "$work/elsewhere/Pkg.cs"
csc "$repo/bin/Lib.dll" /target:library /debug:portable /publicsign+ /keyfile:"$work/msft.pub" "$repo/src/Lib.cs"
csc "$repo/bin/Lib.Tests.dll" /target:library /debug:portable /reference:"$repo/bin/xunit.core.dll" /reference:"$repo/bin/Lib.dll" "$repo/src/LibTests.cs"

# statuses FILE: "NAME STATUS REASON" per assembly from the --json records.
statuses() {
  python3 -c '
import json, os, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("input", "").endswith(".dll"):
        print(os.path.basename(r["input"]), r["status"], r.get("reason", "").split(" (")[0])' "$1" | sort
}
(cd "$repo" && "$TOOL" bin -o "$work/out" --json > "$work/mine.json" 2> "$work/mine.err") || fail "folder mode failed: $(cat "$work/mine.err")"
grep -q "note: instrumenting the assemblies built from sources under $repo, test assemblies left out" "$work/mine.err" ||
  fail "no note line: $(cat "$work/mine.err")"
printf '%s\n' "Lib.Tests.dll copied test assembly" "Lib.dll instrumented " "Pkg.dll copied no portable PDB of sources under $repo" \
  "xunit.core.dll copied no portable PDB of sources under $repo" > "$work/mine.expected"
statuses "$work/mine.json" > "$work/mine.txt"
diff "$work/mine.expected" "$work/mine.txt" > "$work/mine.diff" || fail "my code: $(cat "$work/mine.diff")"

# A build whose PDBs are embedded (DebugType embedded: none beside the assemblies) is the user's
# all the same, and an MSTest 4 test assembly (it references MSTest.TestFramework, MSTest 3's
# Microsoft.VisualStudio.TestPlatform.TestFramework renamed) is a test assembly.
repo2=$work/repo2
mkdir -p "$repo2/src" "$repo2/bin"
echo 'namespace Microsoft.VisualStudio.TestTools.UnitTesting { public class TestMethodAttribute : System.Attribute {} }' > "$work/elsewhere/MSTest.cs"
echo 'public class CalcTests { [Microsoft.VisualStudio.TestTools.UnitTesting.TestMethod] public void Adds() { Lib.Calc.Add(1, 2); } }' > "$repo2/src/LibTests.cs"
cp "$repo/src/Lib.cs" "$repo2/src/"
cp "$repo/bin/Pkg.dll" "$repo/bin/Pkg.pdb" "$repo2/bin/"
csc "$repo2/bin/MSTest.TestFramework.dll" /target:library /debug- "$work/elsewhere/MSTest.cs"
csc "$repo2/bin/Lib.dll" /target:library /debug:embedded "$repo2/src/Lib.cs"
csc "$repo2/bin/Lib.MSTests.dll" /target:library /debug:embedded /reference:"$repo2/bin/MSTest.TestFramework.dll" /reference:"$repo2/bin/Lib.dll" "$repo2/src/LibTests.cs"
[ ! -e "$repo2/bin/Lib.pdb" ] || fail "embedded: csc wrote a PDB beside Lib.dll"
(cd "$repo2" && "$TOOL" bin -o "$work/out3" --json > "$work/embedded.json" 2> "$work/embedded.err") || fail "folder mode (embedded) failed: $(cat "$work/embedded.err")"
printf '%s\n' "Lib.MSTests.dll copied test assembly" "Lib.dll instrumented " "MSTest.TestFramework.dll copied no portable PDB of sources under $repo2" \
  "Pkg.dll copied no portable PDB of sources under $repo2" > "$work/embedded.expected"
statuses "$work/embedded.json" > "$work/embedded.txt"
diff "$work/embedded.expected" "$work/embedded.txt" > "$work/embedded.diff" || fail "embedded PDBs: $(cat "$work/embedded.diff")"

# Control: the old default.
(cd "$repo" && CIL_INSTRUMENT_SOURCE_ROOT=/nonexistent "$TOOL" bin -o "$work/out2" --json > "$work/old.json" 2> "$work/old.err") ||
  fail "folder mode (control) failed: $(cat "$work/old.err")"
printf '%s\n' "Lib.Tests.dll instrumented " "Lib.dll copied framework assembly" "Pkg.dll instrumented " "xunit.core.dll instrumented " \
  > "$work/old.expected"
statuses "$work/old.json" > "$work/old.txt"
diff "$work/old.expected" "$work/old.txt" > "$work/old.diff" || fail "control: $(cat "$work/old.diff")"
finish
