#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on a bundled sample.
#   scripts/quickstart.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
scripts/setup.sh
scripts/build.sh build
tool=build/src/cil-instrument
sample=testdata/bin/Basics.dll

echo
echo "== $tool info $sample"
"$tool" info "$sample" | sed -n '1,40p'
echo
echo "== $tool dump $sample --method '*::Main'"
"$tool" dump "$sample" --method '*::Main'
