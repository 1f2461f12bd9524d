#!/usr/bin/env bash
# --help and the man page agree: every command the usage lists has a man page entry, and every
# long option a command's --help shows is documented in the man page.
#   tests/scripts/help_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
man="$ROOT/man/cil-instrument.1"
usage=$("$TOOL" --help)
commands=$(sed -n '/^Commands:/,/^$/p' <<< "$usage" | grep -E '^  [a-z]+ ' | awk '{print $1}')
[ -n "$commands" ] || fail "no commands in --help"
for command in $commands; do
  grep -q "^\.B cil-instrument $command\|^\.B $command$\|^\.BI \"$command " "$man" || fail "$command: not in the man page"
  help=$("$TOOL" "$command" --help) || fail "$command --help failed"
  for option in $(grep -oE -- '--[a-z][a-z-]*' <<< "$help" | sort -u); do
    escaped=$(sed 's/-/\\\\-/g' <<< "$option")
    grep -q -- "$escaped" "$man" || fail "$command: option $option is not in the man page"
  done
done
for option in --help --version; do
  grep -q -- "$(sed 's/-/\\\\-/g' <<< "$option")" "$man" || fail "$option is not in the man page"
done
finish
