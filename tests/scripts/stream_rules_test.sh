#!/usr/bin/env bash
# Duplicate and oddly named metadata streams are resolved the way the CLR resolves them: each
# HelloWorld variant of the peer corpus (duplicate #Strings/#US/#Blob/#GUID, in #~ and in
# uncompressed #- metadata, lower-case heap names, #JTD, #Schema) runs on dotnet, and the line it
# prints must be the string our dump shows it loading.
#   tests/scripts/stream_rules_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ROOT/testdata/bin/mono/MonoMisc.runtimeconfig.json" "$work/app.runtimeconfig.json"
checked=0
for f in "$CORPUS"/asmresolver/HelloWorld.{Double,LowerCase,Lowercase,JTD,Schema}*; do
  [ -f "$f" ] || continue
  cp "$f" "$work/app.exe"
  printed=$(cd "$work" && timeout 30 dotnet app.exe 2>&1 | awk 'NR == 1')
  ours=$("$TOOL" dump "$f" | awk '/ldstr/ && !n { print; n = 1 }' | sed -E 's/.*ldstr "(.*)"$/\1/')
  if [ "$printed" = "$ours" ]; then
    echo "ok   $(basename "$f"): \"$ours\""
  else
    fail "$(basename "$f"): the runtime prints '$printed', our dump loads '$ours'"
  fi
  checked=$((checked + 1))
done
[ "$checked" -gt 10 ] || fail "only $checked corpus files checked"
finish
