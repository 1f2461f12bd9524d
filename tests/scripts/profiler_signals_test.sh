#!/usr/bin/env bash
# The profiler writes its files when SIGTERM, SIGINT or SIGQUIT stops the program, which still
# ends by that signal, and keeps the runtime's own handlers working; CIL_INSTRUMENT_FLUSH_SECONDS
# keeps a complete file for SIGKILL. The checks are listed in profiler_signals.py.
#
#   tests/scripts/profiler_signals_test.sh [TOOL]
# Skips (77) without dotnet or without libcilprofiler.so next to TOOL. CIL_SEED replays the
# random kill moments of an earlier run.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export LC_ALL=C LANG=C
command -v dotnet > /dev/null || { echo "skip: no dotnet"; exit 77; }
LIB=$(dirname "$TOOL")/libcilprofiler.so
[ -f "$LIB" ] || { echo "skip: no $LIB"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# SIGQUIT's default action dumps core: not here.
ulimit -c 0
"$ROOT/scripts/csc.sh" "$work/bin/Signals.dll" /optimize+ "$ROOT"/testdata/src/Signals/*.cs > "$work/csc.log" 2>&1 ||
  { cat "$work/csc.log" >&2; exit 1; }
mkdir "$work/runs"
python3 "$ROOT/tests/scripts/profiler_signals.py" "$TOOL" "$LIB" "$work/bin/Signals.dll" "$work/runs"
