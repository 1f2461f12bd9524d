#!/usr/bin/env bash
# Real-world runs: instrument programs this project did not write, run them on a real job, and
# compare with the uninstrumented run.
#
#  1. Roslyn on .NET: the C# compiler of the installed SDK (csc.dll, Microsoft.CodeAnalysis.dll,
#     Microsoft.CodeAnalysis.CSharp.dll: ReadyToRun, strong-name signed) is copied to a temporary
#     folder twice, once untouched and once instrumented, and both compile
#     tests/data/realworld/Program.cs with /deterministic+ against the installed reference pack.
#  2. Mono from Debian: mcs.exe (what /usr/bin/mcs runs), and System.Core.dll, a library it uses,
#     instrumented beside it (Mono loads it from the application folder), compile the same
#     program under `mono`.
#
# For each mode (count and wrap by default): both compilations succeed with identical exit status
# and diagnostics, the two assemblies are byte-identical (both compilers are deterministic for a
# given output file name), and the program prints tests/data/realworld/expected.txt. In count
# mode each instrumented assembly writes one count file; its methods, the methods called at
# least once and the sum of the counts must reach lower bounds observed on real runs.
#
#   tests/scripts/realworld_test.sh [TOOL] [MODE...]
# REALWORLD_KEEP=1 keeps the temporary folder. Needs dotnet (with an SDK) or mono with mcs;
# skips (77) when neither is there.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
shift || true
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(count wrap)

# Diagnostics, and the program's number formatting, in the invariant language.
export LC_ALL=C LANG=C
unset CIL_INSTRUMENT_OUTPUT
SRC=$ROOT/tests/data/realworld/Program.cs
EXPECTED=$ROOT/tests/data/realworld/expected.txt
work=$(mktemp -d)
trap 'if [ "${REALWORLD_KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi' EXIT
ran_something=0

# timed LABEL COMMAND...: runs the command and prints how long it took; returns its status.
timed() {
  local label=$1 start end rc
  shift
  start=$(date +%s.%N)
  set +e
  "$@"
  rc=$?
  set -e
  end=$(date +%s.%N)
  awk -v l="$label" -v s="$start" -v e="$end" -v rc="$rc" \
    'BEGIN { printf "  %-62s %6.2f s%s\n", l, e - s, rc ? " (exit " rc ")" : "" }'
  return $rc
}

# instrument IN OUT MODE: the tool's JSON summary goes to OUT.summary.json, its warnings to
# OUT.warnings.
instrument() {
  "$TOOL" "$1" -o "$2" --mode "$3" --json > "$2.summary.json" 2> "$2.warnings"
}

# The data directories a CoreCLR-loaded IL-only image may not have: CoreCLR's
# PEDecoder::CheckILOnly allows only import, resource, security, basereloc, debug, iat and the
# CLI header, and base relocations only with the mscoree.dll import of a classic IL-only image.
check_il_only_directories() {
  local file=$1 label=$2 dirs bad=()
  dirs=$("$TOOL" info "$file" | sed -n '/^Data directories/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
  for d in $dirs; do
    case "$d" in
      import|resource|security|basereloc|debug|iat|clr) ;;
      *) bad+=("$d") ;;
    esac
  done
  if grep -qx basereloc <<< "$dirs" && ! grep -qx import <<< "$dirs"; then
    bad+=("basereloc (without the mscoree.dll import of a classic IL-only image)")
  fi
  if [ ${#bad[@]} -gt 0 ]; then
    fail "$label: the IL-only output keeps data directories CoreCLR refuses in an IL-only image (BadImageFormatException): $(IFS=,; echo "${bad[*]}" | sed 's/,/, /g')"
  fi
}

# same_run LABEL A B: A and B are output prefixes (.status, .stdout, .stderr); requires the same
# exit status and the same output.
same_run() {
  local label=$1 a=$2 b=$3
  cmp -s "$a.status" "$b.status" || fail "$label: exit status $(cat "$a.status") became $(cat "$b.status")"
  cmp -s "$a.stdout" "$b.stdout" || { fail "$label: stdout differs:"; diff "$a.stdout" "$b.stdout" | head -n 15 >&2 || true; }
  cmp -s "$a.stderr" "$b.stderr" || { fail "$label: stderr differs:"; diff "$a.stderr" "$b.stderr" | head -n 15 >&2 || true; }
}

# check_program LABEL RUNTIME DIR FILE: runs the compiled program and compares with expected.txt.
check_program() {
  local label=$1 runtime=$2 dir=$3 file=$4 rc=0
  (cd "$dir" && timeout 60 "$runtime" "$file" > program.stdout 2> program.stderr) || rc=$?
  if [ $rc -ne 0 ]; then
    fail "$label: the compiled program exited with status $rc: $(head -n 3 "$dir/program.stderr")"
  elif ! cmp -s "$EXPECTED" "$dir/program.stdout"; then
    fail "$label: the compiled program's output differs from tests/data/realworld/expected.txt:"
    diff "$EXPECTED" "$dir/program.stdout" | head -n 10 >&2 || true
  fi
}

# check_counts LABEL COUNTS_DIR ASSEMBLY FILE MIN_CALLED MIN_SUM [METHOD=COUNT...]: exactly one
# count file for ASSEMBLY, valid JSON, naming the assembly and the instrumented file's mvid,
# listing every method the tool instrumented (FILE.summary.json), with at least MIN_CALLED
# methods called and MIN_SUM calls in all; each METHOD (Ns.Type::Name) called exactly COUNT
# times. Prints the statistics and the five most called methods.
check_counts() {
  local label=$1 dir=$2 asm=$3 file=$4 min_called=$5 min_sum=$6
  shift 6
  local files=("$dir/$asm".[0-9]*.counts.json)
  if [ ! -e "${files[0]}" ]; then
    fail "$label: no count file $asm.<pid>.counts.json in $dir ($(ls "$dir" | tr '\n' ' '))"
    return
  fi
  [ ${#files[@]} -eq 1 ] || fail "$label: ${#files[@]} count files for $asm in one run"
  local mvid
  mvid=$("$TOOL" info "$file" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["mvid"])')
  python3 - "$label" "${files[0]}" "$asm" "$mvid" "$file.summary.json" "$min_called" "$min_sum" "$@" <<'PY' || fail "$label: count file check failed"
import json, sys
label, path, asm, mvid, summary_path, min_called, min_sum = sys.argv[1:8]
exact = dict(a.rsplit("=", 1) for a in sys.argv[8:])
errors = []
try:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
except ValueError as e:
    print(f"FAIL: {label}: {path} is not JSON: {e}", file=sys.stderr)
    sys.exit(1)
with open(summary_path, encoding="utf-8") as f:
    summary = json.load(f)
if data.get("assembly") != asm:
    errors.append(f"assembly is {data.get('assembly')!r}, not {asm!r}")
if data.get("mvid") != mvid:
    errors.append(f"mvid {data.get('mvid')} is not the instrumented assembly's {mvid}")
methods = data.get("methods", [])
listed = {m["token"] for m in methods}
instrumented = {m["token"] for m in summary["instrumentedMethods"]}
if listed != instrumented:
    errors.append(f"{len(listed)} methods listed but {len(instrumented)} instrumented "
                  f"({len(instrumented - listed)} missing, {len(listed - instrumented)} extra)")
# The names come from the method table the tool stored in the assembly (chunks of 512 KiB, the
# full ones written among the bodies): each must be the tool's name for that token.
names = {m["token"]: m["name"] for m in summary["instrumentedMethods"]}
wrong = [m for m in methods if names.get(m["token"], m["name"]) != m["name"]]
if wrong:
    errors.append(f"{len(wrong)} methods listed under another name than the tool's, the first: "
                  f"{wrong[0]['token']} {wrong[0]['name']!r} (tool: {names[wrong[0]['token']]!r})")
table_bytes = sum(10 + len(json.dumps(m["name"], ensure_ascii=False).encode()) for m in methods)
called = [m for m in methods if m["count"] > 0]
total = sum(m["count"] for m in methods)
if len(called) < int(min_called):
    errors.append(f"only {len(called)} methods called at least once (expected >= {min_called})")
if total < int(min_sum):
    errors.append(f"only {total} calls counted (expected >= {min_sum})")
for name, want in exact.items():
    got = [m["count"] for m in methods if m["name"] == name]
    if got != [int(want)]:
        errors.append(f"{name} counted {got}, expected [{want}]")
print(f"    {asm}: {len(methods)} methods listed (names: about {table_bytes // 1024} KiB), "
      f"{len(called)} called at least once, {total} calls")
for m in sorted(methods, key=lambda m: -m["count"])[:5]:
    print(f"      {m['count']:>9}  {m['token']}  {m['name']}")
for e in errors:
    print(f"FAIL: {label}: {asm}: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY
}

# ---------------------------------------------------------------------------------------------
# 1. Roslyn on .NET
# ---------------------------------------------------------------------------------------------
roslyn_compile() {  # roslyn_compile COMPILER_DIR OUT_DIR: output prefix OUT_DIR/csc
  local compiler=$1 out=$2 rc=0
  mkdir -p "$out"
  # The subshell keeps the shell's "Aborted" notice out of the log; the run's stderr is kept.
  (CIL_INSTRUMENT_OUTPUT="$out/counts" timeout 300 dotnet "$compiler/csc.dll" /nologo /noconfig /nostdlib+ \
    /deterministic+ "${roslyn_refs[@]}" "/out:$out/Program.dll" "$SRC" > "$out/csc.stdout" 2> "$out/csc.stderr"
    exit $?) 2> /dev/null || rc=$?
  echo $rc > "$out/csc.status"
  cp "$fx_config" "$out/Program.runtimeconfig.json"
  return $rc
}

roslyn_part() {
  if ! command -v dotnet > /dev/null || [ -z "$(dotnet --list-sdks 2> /dev/null)" ]; then
    echo "skip Roslyn: no .NET SDK"
    return
  fi
  local sdk_dir bincore dotnet_root ref_dir fx_version
  sdk_dir=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
  bincore=$sdk_dir/Roslyn/bincore
  dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
  ref_dir=$(ls -d "$dotnet_root"/packs/Microsoft.NETCore.App.Ref/*/ref/net* 2> /dev/null | sort -V | tail -n1)
  if [ ! -f "$bincore/csc.dll" ] || [ -z "$ref_dir" ]; then
    echo "skip Roslyn: no $bincore/csc.dll or no reference pack"
    return
  fi
  ran_something=1
  fx_version=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2} END{print v}')
  roslyn_refs=()
  for r in "$ref_dir"/*.dll; do roslyn_refs+=("/reference:$r"); done
  fx_config=$work/Program.runtimeconfig.json
  cat > "$fx_config" <<JSON
{
  "runtimeOptions": {
    "tfm": "net${fx_version%%.*}.0",
    "framework": { "name": "Microsoft.NETCore.App", "version": "${fx_version%.*}.0" }
  }
}
JSON
  # What csc needs, and nothing else: the satellite resource folders only serve other UI
  # languages, and the Visual Basic compiler is not used.
  local files=(csc.dll csc.runtimeconfig.json csc.deps.json Microsoft.CodeAnalysis.dll Microsoft.CodeAnalysis.CSharp.dll)
  local asms=(csc Microsoft.CodeAnalysis Microsoft.CodeAnalysis.CSharp)
  local R=$work/roslyn
  echo "Roslyn $(dotnet "$bincore/csc.dll" /version 2> /dev/null || echo '?') from $bincore, on .NET $fx_version"
  mkdir -p "$R/compiler/orig"
  for f in "${files[@]}"; do cp "$bincore/$f" "$R/compiler/orig/"; done
  timed "compile with the original csc" roslyn_compile "$R/compiler/orig" "$R/out/orig" ||
    { fail "Roslyn: the original compiler failed: $(head -n 5 "$R/out/orig/csc.stdout" "$R/out/orig/csc.stderr")"; return; }
  grep -q 'warning CS0219' "$R/out/orig/csc.stdout" || fail "Roslyn: the original compiler did not report the expected CS0219 warning"
  timed "run the program it compiled" check_program "Roslyn original" dotnet "$R/out/orig" Program.dll

  local mode a
  for mode in "${modes[@]}"; do
    local C=$R/compiler/$mode O=$R/out/$mode instrumented_ok=1
    mkdir -p "$C"
    for f in "${files[@]}"; do cp "$bincore/$f" "$C/"; done
    for a in "${asms[@]}"; do
      if ! timed "instrument $a.dll ($mode)" instrument "$bincore/$a.dll" "$C/$a.dll" "$mode"; then
        fail "Roslyn $mode: instrumenting $a.dll failed: $(cat "$C/$a.dll.warnings")"
        instrumented_ok=0
        continue
      fi
      echo "    $(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["instrumented"], "methods instrumented,", len(d["skipped"]), "skipped")' "$C/$a.dll.summary.json")"
      check_il_only_directories "$C/$a.dll" "Roslyn $mode: $a.dll"
    done
    [ $instrumented_ok = 1 ] || continue
    mkdir -p "$O/counts"
    if ! timed "compile with the $mode-instrumented csc" roslyn_compile "$C" "$O"; then
      fail "Roslyn $mode: the instrumented compiler failed (status $(cat "$O/csc.status")):"
      head -n 5 "$O/csc.stdout" "$O/csc.stderr" >&2
      continue
    fi
    same_run "Roslyn $mode: compiler diagnostics" "$R/out/orig/csc" "$O/csc"
    if cmp -s "$R/out/orig/Program.dll" "$O/Program.dll"; then
      echo "    Program.dll is byte-identical to the original compiler's ($(stat -c %s "$O/Program.dll") bytes)"
    else
      fail "Roslyn $mode: Program.dll differs from the original compiler's:"
      "$TOOL" diff "$R/out/orig/Program.dll" "$O/Program.dll" | head -n 30 >&2 || true
    fi
    timed "run the program it compiled" check_program "Roslyn $mode" dotnet "$O" Program.dll
    if [ "$mode" = count ]; then
      # Lower bounds: about half of what one compilation of Program.cs calls (Roslyn 5.9).
      check_counts "Roslyn count" "$O/counts" csc "$C/csc.dll" 10 50 \
        'Microsoft.CodeAnalysis.CSharp.CommandLine.Program::Main=1'
      check_counts "Roslyn count" "$O/counts" Microsoft.CodeAnalysis "$C/Microsoft.CodeAnalysis.dll" 1500 1000000
      check_counts "Roslyn count" "$O/counts" Microsoft.CodeAnalysis.CSharp "$C/Microsoft.CodeAnalysis.CSharp.dll" 5000 1000000
    fi
  done
}

# ---------------------------------------------------------------------------------------------
# 2. mcs on Mono
# ---------------------------------------------------------------------------------------------
# mono_compile COMPILER_DIR OUT_DIR: output prefix OUT_DIR/mcs. Mono's AOT log goes to
# OUT_DIR/aot.log: it tells whether a method of mcs ran from a precompiled image.
mono_compile() {
  local compiler=$1 out=$2 rc=0
  mkdir -p "$out"
  (cd "$out" && CIL_INSTRUMENT_OUTPUT="$out/counts" MONO_LOG_LEVEL=debug MONO_LOG_MASK=aot MONO_LOG_DEST="$out/aot.log" \
    MONO_DEBUG=no-gdb-backtrace timeout 300 mono "$compiler/mcs.exe" -out:Program.exe "$SRC" > mcs.stdout 2> mcs.stderr
    exit $?) 2> /dev/null || rc=$?
  echo $rc > "$out/mcs.status"
  return $rc
}

mono_part() {
  local mcs_exe=/usr/lib/mono/4.5/mcs.exe lib=/usr/lib/mono/4.5/System.Core.dll
  if ! command -v mono > /dev/null || [ ! -f "$mcs_exe" ] || [ ! -f "$lib" ]; then
    echo "skip Mono: no mono or no $mcs_exe"
    return
  fi
  ran_something=1
  local M=$work/mono
  echo "Mono $(mono --version | head -n1 | sed 's/Mono JIT compiler version //'), $mcs_exe (what $(command -v mcs || echo mcs) runs)"
  mkdir -p "$M/compiler/orig"
  cp "$mcs_exe" "$M/compiler/orig/"
  timed "compile with the original mcs" mono_compile "$M/compiler/orig" "$M/out/orig" ||
    { fail "Mono: the original compiler failed: $(head -n 5 "$M/out/orig/mcs.stdout" "$M/out/orig/mcs.stderr")"; return; }
  grep -q 'warning CS0219' "$M/out/orig/mcs.stderr" || fail "Mono: the original compiler did not report the expected CS0219 warning"
  timed "run the program it compiled" check_program "Mono original" mono "$M/out/orig" Program.exe

  local mode a
  for mode in "${modes[@]}"; do
    local C=$M/compiler/$mode O=$M/out/$mode instrumented_ok=1
    mkdir -p "$C"
    for a in "$mcs_exe" "$lib"; do
      if ! timed "instrument $(basename "$a") ($mode)" instrument "$a" "$C/$(basename "$a")" "$mode"; then
        fail "Mono $mode: instrumenting $(basename "$a") failed: $(cat "$C/$(basename "$a").warnings")"
        instrumented_ok=0
        continue
      fi
      echo "    $(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["instrumented"], "methods instrumented,", len(d["skipped"]), "skipped")' "$C/$(basename "$a").summary.json")"
    done
    [ $instrumented_ok = 1 ] || continue
    mkdir -p "$O/counts"
    if ! timed "compile with the $mode-instrumented mcs" mono_compile "$C" "$O"; then
      fail "Mono $mode: the instrumented compiler failed (status $(cat "$O/mcs.status")):"
      # A runtime abort: the assertion and the managed frames; otherwise the compiler's own words.
      if grep -q -E '^\* Assertion|Native Crash' "$O/mcs.stdout" "$O/mcs.stderr"; then
        grep -h -E '^\* Assertion' "$O/mcs.stderr" "$O/mcs.stdout" >&2 || true
        grep -h -E '^\s+at ' "$O/mcs.stdout" | head -n 6 >&2 || true
      else
        grep -h -v '^\s*$' "$O/mcs.stdout" "$O/mcs.stderr" | head -n 8 >&2 || true
      fi
    fi
    # Debian precompiles mcs.exe into /usr/lib/mono/aot-cache; Mono takes an AOT image for an
    # assembly whose mvid it was compiled from. Native code of the original would then run
    # instead of the instrumented IL.
    local stale
    stale=$(grep -c -E 'AOT: FOUND method (Mono\.CSharp|IKVM\.Reflection)\.' "$O/aot.log" || true)
    if [ "$stale" -gt 0 ]; then
      local cached
      cached=$(ls /usr/lib/mono/aot-cache/*/mcs.exe.so 2> /dev/null | head -n1 || true)
      fail "Mono $mode: $stale methods of the instrumented mcs.exe ran as native code precompiled from the original (${cached:-an AOT image}), not from the instrumented IL: Mono accepts the image because the instrumented assembly keeps the original's mvid"
    fi
    [ "$(cat "$O/mcs.status")" = 0 ] || continue
    same_run "Mono $mode: compiler diagnostics" "$M/out/orig/mcs" "$O/mcs"
    if cmp -s "$M/out/orig/Program.exe" "$O/Program.exe"; then
      echo "    Program.exe is byte-identical to the original compiler's ($(stat -c %s "$O/Program.exe") bytes)"
    else
      fail "Mono $mode: Program.exe differs from the original compiler's:"
      "$TOOL" diff "$M/out/orig/Program.exe" "$O/Program.exe" | head -n 30 >&2 || true
    fi
    timed "run the program it compiled" check_program "Mono $mode" mono "$O" Program.exe
    if [ "$mode" = count ]; then
      # Lower bounds: about half of what one compilation of Program.cs calls (mcs of Mono 6.8).
      check_counts "Mono count" "$O/counts" mcs "$C/mcs.exe" 2000 1000000 'Mono.CSharp.Driver::Main=1'
      check_counts "Mono count" "$O/counts" System.Core "$C/System.Core.dll" 10 1000
    fi
  done
}

roslyn_part
mono_part
if [ $ran_something = 0 ]; then
  echo "skip: neither a .NET SDK nor Mono's mcs is installed"
  exit 77
fi
finish
