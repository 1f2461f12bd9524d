#!/usr/bin/env bash
# The peer corpus's cyclic files (nested-class loops, a TypeSpec that names itself, exported-type
# loops, Win32 resource loops, a ReadyToRun loop) finish quickly in every command: info, dump,
# dump --json and instrument each get 120 seconds (they take milliseconds; the bound is only there
# so that a hang fails the test, and a loaded machine never does).
#   tests/scripts/cyclic_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=(
  asmresolver/HelloWorld.MaliciousNestedClassLoop.exe
  asmresolver/HelloWorld.MaliciousNestedClassLoop2.exe
  asmresolver/HelloWorld.MaliciousTypeSpecLoop.exe
  asmresolver/HelloWorld_MaliciousExportedTypeLoop.exe
  asmresolver/Assembly1_MaliciousExportedTypeLoop.dll
  asmresolver/Assembly2_MaliciousExportedTypeLoop.dll
  asmresolver/HelloWorld.MaliciousWin32ResLoop.exe
  asmresolver/ReadyToRunTestLoop.dll
)
for name in "${files[@]}"; do
  f="$CORPUS/$name"
  [ -f "$f" ] || { fail "$name: missing from the corpus"; continue; }
  for command in info dump "dump --json" instrument; do
    args=($command "$f")
    [ "$command" = instrument ] && args+=(-o "$work/out.dll")
    set +e
    timeout 120 "$TOOL" "${args[@]}" > /dev/null 2> "$work/err"
    rc=$?
    set -e
    case $rc in
      0|3|5) ;;
      124) fail "$command $name: did not finish in 120 s" ;;
      *) fail "$command $name: exit status $rc: $(head -c 300 "$work/err")" ;;
    esac
    rm -f "$work/out.dll"
  done
done
finish
