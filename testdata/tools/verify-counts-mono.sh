#!/usr/bin/env bash
# Cross-checks testdata/expected/*.counts by tracing method entries under Mono (`mono --trace`
# counts every entry, inlining does not hide calls). Not part of the build; needs mono and python3.
#  * C# fixtures: the same sources are recompiled with the SDK's Roslyn against Mono's mscorlib
#    (into a temp dir) and traced. Interop is skipped (UnmanagedCallersOnly does not exist there).
#    Their stdout is also compared with expected/<Name>.stdout to show that the Mono build behaves
#    like the .NET one.
#  * mono/ and il/ fixtures: the committed binaries are traced directly. Mono's tracer crashes on
#    `jmp` and `tail.`, so IlOps is traced without Ops::SumTail and Ops::Forward (those two are
#    then reported as mismatches with 0 traced calls; their counts were derived by hand).
#
#   testdata/tools/verify-counts-mono.sh
set -uo pipefail
TD=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EXP="$TD/expected"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sdk_dir=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
M=/usr/lib/mono/4.5
status=0
check() { # check NAME TRACE-OPTION FILE
  mono --trace="$2" "$3" >"$tmp/$1.trace" 2>/dev/null
  python3 "$TD/tools/trace_counts.py" "$tmp/$1.trace" "$EXP/$1.counts" || status=1
}
for dir in "$TD"/src/*/; do
  name=$(basename "$dir")
  case $name in Interop|Library) continue ;; esac
  dotnet "$sdk_dir/Roslyn/bincore/csc.dll" /nologo /noconfig /nostdlib+ /unsafe+ /debug- /optimize+ \
    "/r:$M/mscorlib.dll" "/r:$M/System.dll" "/r:$M/System.Core.dll" "/r:$M/Facades/System.Runtime.dll" \
    "/out:$tmp/$name.exe" "$dir"*.cs | grep -v warning
  (cd "$tmp" && mono "$name.exe" >"$name.stdout" 2>/dev/null)
  if ! cmp -s "$tmp/$name.stdout" "$EXP/$name.stdout"; then
    echo "$name: stdout under Mono differs from expected/$name.stdout"; status=1
  fi
  check "$name" program "$tmp/$name.exe"
done
for f in "$TD"/bin/mono/*.exe "$TD"/bin/il/*.exe; do
  name=$(basename "$f" .exe)
  opt=program
  [ "$name" = IlOps ] && opt=program,-M:IlFixtures.Ops:SumTail,-M:IlFixtures.Ops:Forward
  check "$name" "$opt" "$f"
done
exit $status
