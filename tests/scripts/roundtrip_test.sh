#!/usr/bin/env bash
# Decode/encode identity of every method body of the .NET shared framework, Mono's class
# libraries and the fixtures (every file under testdata/bin), the entry fast path against the
# model path (bytes and offset maps), and the max-stack simulation against declared values.
#   tests/scripts/roundtrip_test.sh ROUNDTRIP_TOOL
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tool=$1
mapfile -t files < <(framework_dlls)
mapfile -t -O ${#files[@]} files < <(find "$ROOT/testdata/bin" -type f \( -name '*.dll' -o -name '*.exe' \) | sort)
[ -d /usr/lib/mono/4.5 ] && files+=(/usr/lib/mono/4.5/*.dll)
"$tool" "${files[@]}"
