#!/usr/bin/env bash
# The new section streamed to the output as it is made (what `cil-instrument IN -o OUT` does)
# gives the same bytes as the section held in memory: every fixture with buffers of 1, 3 and
# 4093 bytes (odd sizes: a byte waits for its pair), and large assemblies whose bodies and method
# tables fill several default-sized chunks. A sink that fails makes the job fail.
#   tests/scripts/stream_test.sh STREAM_CHECK_TOOL
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tool=$1
fixtures=("$ROOT"/testdata/bin/*.dll "$ROOT"/testdata/bin/*/*.dll "$ROOT"/testdata/bin/*/*.exe)
fw=$(framework_dir)
large=("$fw/System.Private.CoreLib.dll" "$fw/System.Private.Xml.dll" "$fw/System.Linq.dll")
[ -f /usr/lib/mono/4.5/mscorlib.dll ] && large+=(/usr/lib/mono/4.5/mscorlib.dll /usr/lib/mono/4.5/System.Xml.dll)
# Under the sanitizers CoreLib alone fills several chunks at a sixth of the cost of the five.
[ "${CIL_SANITIZED:-0}" = 1 ] && large=("$fw/System.Private.CoreLib.dll")
status=0
for chunk in 1 3 4093; do
  "$tool" "$chunk" "${fixtures[@]}" || status=1
done
"$tool" 0 "${large[@]}" || status=1
"$tool" 65537 "${large[@]:0:1}" || status=1
exit $status
