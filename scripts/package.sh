#!/usr/bin/env bash
# The release: every artifact of one version into DIR, which is then a NuGet folder feed
# (`dotnet tool install cil-instrument --add-source DIR`):
#   cil-instrument_VERSION_amd64.deb              the Debian package (CPack, cmake/Install.cmake)
#   cil-instrument-VERSION-linux-x64.tar.gz       the same files under cil-instrument-VERSION/
#   *.VERSION.nupkg                               the NuGet packages of scripts/pack.sh
#   SHA256SUMS                                    over all of them (`sha256sum -c SHA256SUMS` in DIR)
# VERSION is CMake's project VERSION, the one `cil-instrument --version` prints. BUILD (default
# build/) is the build tree, built here when needed. A second run gives the same set of files; files of
# other versions that this script made are removed, and nothing is written outside DIR but the
# build tree's own outputs. DIR must not be a symbolic link, the source or the build tree, or a
# folder that holds either.
#   scripts/package.sh DIR [BUILD]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 1 ] && [ -n "$1" ] || { echo "usage: scripts/package.sh DIR [BUILD]" >&2; exit 2; }
[ -L "$1" ] && { echo "package.sh: $1: a symbolic link; give the folder it names" >&2; exit 2; }
[ ! -e "$1" ] || [ -d "$1" ] || { echo "package.sh: $1: not a folder" >&2; exit 2; }
build=$(mkdir -p "${2:-$root/build}" && cd "${2:-$root/build}" && pwd -P)
out=$(realpath -m "$1")
# inside A B: A is B or a folder under it (both absolute and resolved; B may be /).
inside() { [ "$2" = / ] && return 0; case "$1/" in "$2"/*) return 0;; esac; return 1; }
src=$(cd "$root" && pwd -P)
for input in "$src" "$build"; do
  if inside "$input" "$out"; then
    echo "package.sh: $1: holds the input $input (the release goes into a folder of its own)" >&2; exit 2
  fi
done
command -v dotnet > /dev/null || { echo "package.sh: dotnet (the .NET SDK 10) is needed to make the packages" >&2; exit 1; }
command -v cpack > /dev/null || { echo "package.sh: cpack (CMake) is needed to make the Debian package" >&2; exit 1; }
mkdir -p "$out"

# The NuGet packages (this also configures and builds the tool and the profiler).
bash "$root/scripts/pack.sh" "$build" "$out" > /dev/null
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
stage=$(mktemp -d "$out/.package.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# The files of a release: installed from the build tree into a staging root, as the .deb has them.
tree=cil-instrument-$version
cmake --install "$build" --prefix "$stage/$tree" > /dev/null
for binary in "$stage/$tree"/lib/cil-instrument/*; do strip --strip-debug "$binary"; done
# The same bytes from the same inputs: entries sorted, owner and times fixed (the commit's time
# when there is one), gzip without a name or time.
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2> /dev/null || echo 0)}
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$tree" |
  gzip -n -9 > "$stage/$tree-linux-x64.tar.gz"

# The Debian package of the staged files (cpack's own install step would build every target
# of the tree, tests included).
deb=cil-instrument_${version}_amd64.deb
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$stage/cpack" \
  -D CPACK_INSTALL_CMAKE_PROJECTS= -D "CPACK_INSTALLED_DIRECTORIES=$stage/$tree;/usr" \
  -D CPACK_DEBIAN_FILE_NAME="$deb" > "$stage/cpack.log" 2>&1 ||
  { cat "$stage/cpack.log" >&2; echo "package.sh: cpack failed" >&2; exit 1; }

# Replace this script's files of any version with this run's.
rm -f "$out"/cil-instrument_*_amd64.deb "$out"/cil-instrument-*-linux-x64.tar.gz "$out/SHA256SUMS"
for nupkg in "$out"/cil-instrument.*.nupkg "$out"/CilInstrument.*.nupkg; do
  case "$nupkg" in *".$version.nupkg") ;; *) rm -f "$nupkg";; esac
done
mv "$stage/cpack/$deb" "$stage/$tree-linux-x64.tar.gz" "$out/"
(cd "$out" && sha256sum -- cil-instrument_*.deb cil-instrument-*.tar.gz cil-instrument.*.nupkg CilInstrument.*.nupkg > SHA256SUMS)
# The artifacts, one a line, for the reader. The release is complete by now: a standard output
# that is closed (`>&-`: sed cannot write, and exits 4) or whose reader has gone fails this
# listing only, not the script.
{ (cd "$out" && ls -1 -- cil-instrument_*.deb cil-instrument-*.tar.gz cil-instrument.*.nupkg CilInstrument.*.nupkg SHA256SUMS) |
    sed "s|^|$out/|"; } 2> /dev/null || true
