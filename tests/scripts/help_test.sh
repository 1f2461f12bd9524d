#!/usr/bin/env bash
# --help and the man page agree: every command the usage lists has a man page entry; every long
# option a command's --help shows is documented in the man page, is in that command's lines of
# the top-level usage (`cil-instrument --help`) and of the man page's SYNOPSIS, and every option
# those lines give is one the command takes (exec's instrument options are given as one
# "[instrument options]"). The man page renders without warnings and without the words that a
# stray font escape runs together.
#   tests/scripts/help_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
man="$ROOT/man/cil-instrument.1"
usage=$("$TOOL" --help)
commands=$(sed -n '/^Commands:/,/^$/p' <<< "$usage" | grep -E '^  [a-z]+ ' | awk '{print $1}')
[ -n "$commands" ] || fail "no commands in --help"
# One line per synopsis entry: no wrapping, no hyphenation.
synopsis=$(groff -man -Tutf8 -rLL=2000n -rHY=0 "$man" 2> /dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g' |
  sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed 's/^ *//')
[ -n "$synopsis" ] || fail "no SYNOPSIS rendered from the man page"
# usage_lines COMMAND: that command's entries of the top-level usage, continuation lines joined.
usage_lines() {
  awk -v c="$1" '
    /^  cil-instrument / { on = ($2 == c || ($2 == "[instrument]" && c == "instrument")) }
    /^Commands:/ { on = 0 }
    on { print }' <<< "$usage"
}
synopsis_lines() {
  grep -E "^cil-instrument ($1|\[$1\]) " <<< "$synopsis"
}
options_of() { grep -oE -- '--[a-z][a-z-]*' | sort -u; }
instrument_options=$("$TOOL" instrument --help | options_of)
for command in $commands; do
  grep -q "^\.B cil-instrument $command\|^\.B $command$\|^\.BI \"$command " "$man" || fail "$command: not in the man page"
  help=$("$TOOL" "$command" --help) || fail "$command --help failed"
  options=$(options_of <<< "$help")
  lines=$(usage_lines "$command")
  synopsis_of=$(synopsis_lines "$command")
  [ -n "$lines" ] || fail "$command: not in the top-level usage"
  [ -n "$synopsis_of" ] || fail "$command: not in the man page's SYNOPSIS"
  for option in $options; do
    escaped=$(sed 's/-/\\\\-/g' <<< "$option")
    grep -q -- "$escaped" "$man" || fail "$command: option $option is not in the man page"
    [ "$option" = --help ] && continue
    if [ "$command" = exec ] && grep -qx -- "$option" <<< "$instrument_options"; then
      grep -qF "[instrument options]" <<< "$lines" || fail "exec: the usage does not give the instrument options"
      continue
    fi
    # An option with a short form (-o, --output) may be given by it.
    short=$(grep -oE -- "^ *-[a-z], $option( |$)" <<< "$help" | grep -oE -- '-[a-z],' | tr -d , || true)
    forms="$option${short:+|$short}"
    grep -qE -- "($forms)([^a-z-]|$)" <<< "$lines" || fail "$command: option $option is not in the usage of cil-instrument --help"
    grep -qE -- "($forms)([^a-z-]|$)" <<< "$synopsis_of" || fail "$command: option $option is not in the man page's SYNOPSIS"
  done
  for option in $(options_of <<< "$lines"$'\n'"$synopsis_of"); do
    grep -qx -- "$option" <<< "$options" || fail "$command: the usage or SYNOPSIS gives $option, which $command does not take"
  done
done
for option in --help --version; do
  grep -q -- "$(sed 's/-/\\\\-/g' <<< "$option")" "$man" || fail "$option is not in the man page"
done
# Rendering: no groff warnings, no control characters in the source (a "\f" turned into a form
# feed runs the words around it together), no words run together by an alternating-font macro.
warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
[ -z "$warnings" ] || fail "groff warns: $(head -3 <<< "$warnings")"
if grep -nP '[\x00-\x08\x0b-\x1f\x7f]' "$man" > /dev/null; then
  fail "control characters in the man page source: $(grep -nP '[\x00-\x08\x0b-\x1f\x7f]' "$man" | cat -A | head -3)"
fi
rendered=$(groff -man -Tutf8 -rLL=2000n -rHY=0 "$man" 2> /dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g')
for glued in '\)\.[A-Z][a-z]' '[a-z]R,' 'R,P[A-Z]'; do
  if grep -qE "$glued" <<< "$rendered"; then fail "the man page renders words run together: $(grep -E "$glued" <<< "$rendered" | head -2)"; fi
done
echo "help: $(wc -w <<< "$commands") commands checked against the usage, the man page and its SYNOPSIS"
finish
