#!/usr/bin/env bash
# Builds the large Debug input for compare.sh's rows with symbols (nothing is committed): the C#
# that generate.py writes, compiled Debug with a portable PDB beside it (BenchDebug.dll + .pdb) and
# with an embedded one (BenchDebug.Embedded.dll).
#   bench/debug_input/build.sh OUTDIR [CLASSES] [METHODS]
#   bench/compare.sh --symbols OUTDIR/BenchDebug.dll --symbols OUTDIR/BenchDebug.Embedded.dll
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: build.sh OUTDIR [CLASSES] [METHODS]}
mkdir -p "$out"
python3 "$here/generate.py" "$out/BenchDebug.cs" "${@:2}"
for kind in portable embedded; do
  name=BenchDebug
  [ "$kind" = embedded ] && name=BenchDebug.Embedded
  "$here/../../scripts/csc.sh" "$out/$name.dll" /target:library /debug:$kind /optimize- "/pathmap:$out=/bench" "$out/BenchDebug.cs"
done
ls -l "$out"/BenchDebug*.dll "$out"/BenchDebug*.pdb
