#!/usr/bin/env bash
# Compiles C# with the Roslyn compiler of the installed .NET SDK against the installed reference
# pack: no project file, no restore, no network. Deterministic output.
#
#   scripts/csc.sh OUT.dll|OUT.exe [csc options...] SOURCES...
#
# For an executable (the default /target:exe), writes OUT.runtimeconfig.json next to the output
# so that `dotnet OUT.dll` runs it on the installed shared framework.
set -euo pipefail

out=$1; shift
sdk_dir=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
csc="$sdk_dir/Roslyn/bincore/csc.dll"
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
ref_dir=$(ls -d "$dotnet_root"/packs/Microsoft.NETCore.App.Ref/*/ref/net* | sort -V | tail -n1)
fx_version=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2} END{print v}')

refs=()
for r in "$ref_dir"/*.dll; do refs+=("/reference:$r"); done

target=exe
for a in "$@"; do
  case "$a" in
    /target:library|/t:library|-target:library) target=library ;;
  esac
done

mkdir -p "$(dirname "$out")"
dotnet "$csc" /nologo /noconfig /nostdlib+ /deterministic+ "${refs[@]}" "/out:$out" "$@"

if [ "$target" = exe ]; then
  cat > "${out%.*}.runtimeconfig.json" <<JSON
{
  "runtimeOptions": {
    "tfm": "net${fx_version%%.*}.0",
    "framework": { "name": "Microsoft.NETCore.App", "version": "${fx_version%.*}.0" }
  }
}
JSON
fi
