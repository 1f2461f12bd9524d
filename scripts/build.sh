#!/usr/bin/env bash
# Configures and builds into DIR (default build/) with any extra CMake arguments.
#   scripts/build.sh [DIR] [-DOPTION=VALUE...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" > /dev/null
cmake --build "$dir" -j "$(nproc)"
