#!/usr/bin/env bash
# The real JIT as a verifier: framework assemblies are rewritten in every offline mode (noop,
# count, wrap, trace) and tests/jitcheck/JitCheck.cs has CoreCLR's JIT compile every method of
# each output (RuntimeHelpers.PrepareMethod, in an AssemblyLoadContext of its own). The outputs
# are IL-only, so every body goes through the JIT's importer, which throws
# InvalidProgramException on invalid IL. A method the JIT refuses in an output but not in the
# input fails the test, and so does an output with fewer methods compiled than its input.
# A control breaks probes on purpose and requires the JIT to refuse them.
#   tests/scripts/jit_test.sh [TOOL]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fw=$(framework_dir)
"$ROOT/scripts/csc.sh" "$work/JitCheck.dll" /nullable+ /optimize+ /langversion:latest /warnaserror+ \
  "$ROOT/tests/jitcheck/JitCheck.cs" > "$work/csc.log" || { cat "$work/csc.log" >&2; fail "JitCheck does not compile"; finish; }

jitcheck() {  # jitcheck FILE OUT: the refused methods in OUT, the summary line on stdout
  timeout 600 dotnet "$work/JitCheck.dll" "$1" > "$2.all" 2> "$2.err" || { fail "JitCheck $1: $(head -3 "$2.err")"; return 1; }
  grep -v '^compiled ' "$2.all" > "$2" || true
  grep '^compiled ' "$2.all"
}
compiled() { sed -E 's/^compiled ([0-9]+),.*/\1/' <<< "$1"; }

# wrap on System.Data.Common also pushes its #Blob heap past 64 KiB (see instrument_verify).
for spec in System.Collections:all System.Linq:all System.Text.RegularExpressions:all \
            System.Text.Json:all System.Data.Common:wrap; do
  name=${spec%%:*}
  input="$fw/$name.dll"
  [ -f "$input" ] || { echo "no $name.dll in $fw: skipped"; continue; }
  before=$(jitcheck "$input" "$work/$name.before") || continue
  modes=(noop count wrap trace)
  [ "${spec#*:}" = all ] || modes=("${spec#*:}")
  for mode in "${modes[@]}"; do
    dir="$work/$mode"
    mkdir -p "$dir"
    args=(--mode "$mode")
    if [ "$mode" = trace ]; then
      args+=(--hooks "$ROOT/testdata/bin/trace/TraceHooks.dll")
      cp "$ROOT/testdata/bin/trace/TraceHooks.dll" "$dir/"
    fi
    "$TOOL" "$input" -o "$dir/$name.dll" "${args[@]}" > "$work/log" 2>&1 || { fail "$mode $name: $(tail -1 "$work/log")"; continue; }
    after=$(jitcheck "$dir/$name.dll" "$work/$name.$mode") || continue
    new=$(comm -13 <(sort "$work/$name.before") <(sort "$work/$name.$mode") | wc -l)
    echo "$mode $name: input $before; output $after; newly refused $new"
    if [ "$new" -ne 0 ]; then
      fail "$mode $name: the JIT refuses methods it compiled in the input"
      comm -13 <(sort "$work/$name.before") <(sort "$work/$name.$mode") | head -5 >&2
    fi
    [ "$(compiled "$after")" -ge "$(compiled "$before")" ] || fail "$mode $name: fewer methods compiled than in the input"
  done
done

echo "== control: probes broken on purpose (the pop after Interlocked.Increment becomes a nop)"
mkdir -p "$work/broken"
"$TOOL" "$fw/System.Collections.dll" -o "$work/broken/System.Collections.dll" > /dev/null 2>&1
python3 "$ROOT/tests/scripts/break_probe.py" "$work/broken/System.Collections.dll" --all
summary=$(jitcheck "$work/broken/System.Collections.dll" "$work/broken.refused") || true
echo "broken System.Collections: $summary"
grep -q 'InvalidProgramException' "$work/broken.refused" || fail "the JIT did not refuse a broken probe"
finish
