#!/usr/bin/env bash
# Decode/encode identity of every method body of the .NET shared framework, Mono's class
# libraries and the fixtures (every file under testdata/bin), the entry fast path against the
# model path (bytes and offset maps), and the max-stack simulation against declared values.
#   tests/scripts/roundtrip_test.sh ROUNDTRIP_TOOL
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tool=$1
mapfile -t files < <(framework_dlls)
mapfile -t -O ${#files[@]} files < <(find "$ROOT/testdata/bin" -type f \( -name '*.dll' -o -name '*.exe' \) | sort)
# Mono's class libraries: all of them, or under the sanitizers every fifth by name, as
# framework_dlls samples the shared framework (the same decoder and encoder paths at a fifth of
# the cost).
if [ -d /usr/lib/mono/4.5 ]; then
  if [ "${CIL_SANITIZED:-0}" = 1 ]; then
    mapfile -t -O ${#files[@]} files < <(ls /usr/lib/mono/4.5/*.dll | sort | awk 'NR % 5 == 1')
  else
    files+=(/usr/lib/mono/4.5/*.dll)
  fi
fi
"$tool" "${files[@]}"
