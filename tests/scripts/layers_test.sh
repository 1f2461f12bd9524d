#!/usr/bin/env bash
# The library's layers: support <- pe <- metadata <- il (the engine) <- instrument (the modes and the
# job) <- cli, with the profiler beside cli.
# A file may include headers of its own layer and of the layers below it, never above (the
# separate static libraries of src/CMakeLists.txt would otherwise link in a cycle).
#   tests/scripts/layers_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
declare -A allowed=(
  [support]="support"
  [pe]="support pe"
  [metadata]="support pe metadata"
  [il]="support pe metadata il"
  [instrument]="support pe metadata il instrument"
  [cli]="support pe metadata il instrument cli"
  [profiler]="support pe metadata il instrument profiler"
)
checked=0
for layer in "${!allowed[@]}"; do
  while IFS= read -r line; do
    file=${line%%:*}
    target=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<< "$line")
    checked=$((checked + 1))
    case " ${allowed[$layer]} " in
      *" $target "*) ;;
      *) fail "$file includes a header of layer '$target', above or beside '$layer': ${line#*:}" ;;
    esac
  done < <(grep -rHE '^#include "[a-z_]+/' "$ROOT/src/$layer" --include='*.h' --include='*.cpp' --include='*.def' | sed "s#^$ROOT/##")
done
[ "$checked" -gt 200 ] || fail "only $checked includes checked: the tree layout changed?"
[ "$FAILURES" -eq 0 ] || exit 1
echo "layers: $checked includes checked, none upward"
