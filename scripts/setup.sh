#!/usr/bin/env bash
# Installs what the build and the tests need from Debian's packages, when it is missing.
# Idempotent: installs nothing when everything is present. Needs root (or sudo) only to install.
set -euo pipefail

packages=(
  g++ cmake make python3
  libfmt-dev libcxxopts-dev libgtest-dev libbenchmark-dev
  zlib1g-dev                              # embedded portable PDBs (deflate)
  libssl-dev                              # libcrypto: strong-name signing (--key)
  clang llvm libclang-rt-14-dev           # fuzzers, sanitizers, coverage
  mono-devel mono-utils                   # mcs, mono, ilasm, monodis, pedump; Mono.Cecil for bench/
  lcov                                    # genhtml: the coverlet test reads our LCOV with it
  unzip                                   # the nuget_* tests read the packages scripts/pack.sh makes
)

missing=()
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2> /dev/null)" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

command -v dotnet > /dev/null || { echo "setup: the .NET SDK (dotnet) is required and is not on PATH" >&2; exit 1; }
echo "setup: all dependencies present"
