#!/usr/bin/env bash
# Every release artifact of one build into OUT, which is then also a NuGet folder feed:
#   cil-instrument_VERSION_amd64.deb              the Debian package (cpack -G DEB, cmake/Install.cmake)
#   cil-instrument.VERSION.nupkg and the others   scripts/pack.sh's NuGet packages (the tool, its
#                                                 linux-x64 package, CilInstrument.MSBuild, CilInstrument.Collector)
#   cil-instrument-VERSION-linux-x64.tar.gz       the install tree (bin/, lib/cil-instrument/, the
#                                                 man page, the MSBuild targets, the README), stripped
#   SHA256SUMS                                    `sha256sum -c SHA256SUMS` checks them all
# DIR is the build tree (default build/; configured and built when needed).
#   scripts/package.sh OUT [DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/package.sh OUT [DIR]" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
dir=${2:-$root/build}

# The NuGet packages (pack.sh configures and builds the tree when needed, and checks the version).
bash "$root/scripts/pack.sh" "$dir" "$out" > /dev/null
dir=$(cd "$dir" && pwd)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$dir/CMakeCache.txt")

stage=$(mktemp -d "$dir/package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
# The Debian package.
rm -f "$out"/cil-instrument_*.deb
(cd "$stage" && cpack -G DEB --config "$dir/CPackConfig.cmake" -B "$stage/deb") > "$stage/cpack.log" 2>&1 ||
  { cat "$stage/cpack.log" >&2; echo "package.sh: cpack -G DEB failed" >&2; exit 1; }
cp "$stage"/deb/*.deb "$out/"
# The tarball: the install tree under one folder named after the release.
name=cil-instrument-$version-linux-x64
cmake --install "$dir" --prefix "$stage/$name" --strip > "$stage/install.log" 2>&1 ||
  { cat "$stage/install.log" >&2; echo "package.sh: cmake --install failed" >&2; exit 1; }
tar -C "$stage" --owner=0 --group=0 -czf "$out/$name.tar.gz" "$name"
# The sums, of this release's files only.
(cd "$out" && sha256sum -- cil-instrument_"$version"_*.deb ./*."$version".nupkg "$name.tar.gz" | sed 's| \./| |' > SHA256SUMS)
ls "$out"
