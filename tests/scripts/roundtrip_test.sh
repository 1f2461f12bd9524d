#!/usr/bin/env bash
# Decode/encode identity of every method body of the .NET shared framework, Mono's class
# libraries and the fixtures, and the max-stack simulation checked against declared values.
#   tests/scripts/roundtrip_test.sh ROUNDTRIP_TOOL
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tool=$1
files=("$(framework_dir)"/*.dll "$ROOT"/testdata/bin/*.dll "$ROOT"/testdata/bin/*/*.dll "$ROOT"/testdata/bin/*/*.exe)
[ -d /usr/lib/mono/4.5 ] && files+=(/usr/lib/mono/4.5/*.dll)
"$tool" "${files[@]}"
