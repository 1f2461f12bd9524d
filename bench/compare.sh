#!/usr/bin/env bash
# cil-instrument against the strongest peers on the same count job, with outputs that must run,
# and the I/O floor, side by side in one run (issue 18).
#
#   bench/compare.sh [--tool PATH] [--peers DIR] [--runs N] [--sample N] [--work DIR]
#                    [--no-framework] [--jobs N] [--symbols INPUT]... [INPUT...]
#
#   --tool      cil-instrument to measure (default: build-bench/src/cil-instrument, then build/src/...)
#   --peers     where bench/build_peers.sh put the drivers and checkers (built there, idempotently;
#               default: build-bench/peers)
#   --runs      runs per side and input (default 5; $RUNS): wall and CPU = median, RSS = highest
#   --sample    methods the JIT compiles in each output (default 400)
#   --work      where outputs go (default: a fresh directory under /tmp, removed at the end)
#   --no-framework  skip the whole-framework rows
#   --jobs      the parallel framework row's -j (default: the number of cores)
#   INPUT       default: Mono's mscorlib and System.Xml (when mono is installed), the shared
#               framework's System.Private.CoreLib and System.Private.Xml (ReadyToRun), the SDK's
#               Roslyn Microsoft.CodeAnalysis.CSharp.dll
#   --symbols INPUT
#               an input measured with its portable PDB (repeatable): ours rewrites it as always,
#               the drivers read and write it (--symbols), and the SRM PDB oracle (tests/oracle,
#               `pdb ORIGINAL OUTPUT`) checks each output's PDB. Default with the other defaults:
#               the peer corpus's Mono.Cecil, a Debug build with its PDB (../shared/corpus/cecil).
#
# Sides: ours (`cil-instrument IN -o OUT`); cecil (Mono.Cecil 0.11.6 netstandard2.0 with Rocks) and
# dnlib (4.5.0), both from NuGet, each driven by a .NET console program published ReadyToRun;
# cecil-mono (Cecil 0.11 net40 from Mono's GAC on mono, the earlier reference); and the floor,
# `cp IN OUT` and `cat IN > /dev/null`. Every run is one process started by cil_bench_run (built
# with the tree), which reports wall time, user + system CPU (microseconds) and peak RSS from
# wait4. Runs go round robin over the sides, each round starting one side later, so that load from
# elsewhere falls on all alike; the load average is printed before and after each input. Each
# run's line ("wall_us cpu_us kb status", in round order) stays in WORK/times/INPUT.SIDE.times.
# After the timed runs each peer does the job twice in one process (--iterations 2); its second,
# warm iteration (in-process ms, no process start, no JIT warm-up) is the peer's best case.
#
# Every output must run, not only read back: `cil-instrument info`, ProbeCheck (System.Reflection.
# Metadata: every body decodes, distinct slots, max stack >= 2), and then the runtime itself:
# - .NET files: JitCheck (tests/jitcheck) loads the output in an AssemblyLoadContext and has the
#   JIT compile a sample of its methods (RuntimeHelpers.PrepareMethod);
# - System.Private.CoreLib: a copy of the shared framework with the output as its CoreLib starts
#   JitCheck, which then compiles the sample of the running CoreLib;
# - Microsoft.CodeAnalysis.CSharp: the output in a copy of the SDK's Roslyn folder compiles a
#   small program, which must then run and print its line; JitCheck as above, in that folder;
# - Mono's files: MonoCheck (bench/peers) on `mono -O=-aot`, mscorlib through MONO_PATH.
# The same check runs on the input first; an output fails when it does not start, or the JIT
# refuses more methods of the sample than of the input's. A side whose output fails is FAILED in
# the table: its times are printed in brackets and no ratio is taken from them.
set -euo pipefail
# The whole script is one compound command, read before it runs: editing the file while a run
# goes on (a run takes minutes) cannot change what that run does.
{
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

tool=""
peers="$repo/build-bench/peers"
runs=${RUNS:-5}
sample=400
work=""
framework=1
jobs=$(nproc)
inputs=()
symbol_inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tool) tool=$2; shift 2 ;;
    --peers) peers=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --no-framework) framework=0; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --symbols) symbol_inputs+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
    -*) echo "compare.sh: unknown option $1" >&2; exit 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done

if [ -z "$tool" ]; then
  for t in "$repo/build-bench/src/cil-instrument" "$repo/build/src/cil-instrument"; do
    [ -x "$t" ] && { tool=$t; break; }
  done
fi
[ -n "$tool" ] && [ -x "$tool" ] || { echo "compare.sh: no cil-instrument (build it, or pass --tool)" >&2; exit 2; }
tool=$(readlink -f "$tool")
timer=""
for t in "$(dirname "$tool")/../bench/cil_bench_run" "$repo/build-bench/bench/cil_bench_run" "$repo/build/bench/cil_bench_run"; do
  [ -x "$t" ] && { timer=$(readlink -f "$t"); break; }
done
[ -n "$timer" ] || { echo "compare.sh: no cil_bench_run (cmake --build BUILD --target cil_bench_run)" >&2; exit 2; }
"$here/build_peers.sh" "$peers" >&2
peers=$(cd "$peers" && pwd)
have_mono=0
command -v mono > /dev/null && [ -f "$peers/cecil/CecilCount.exe" ] && have_mono=1

fx_version=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2} END{print v}')
fx=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2; d=$3} END{gsub(/[][]/,"",d); print d "/" v}')
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
sdk=$(dotnet --list-sdks | tail -n1 | sed -E 's/^([^ ]+) \[(.*)\]$/\2\/\1/')
roslyn="$sdk/Roslyn/bincore"
if [ ${#inputs[@]} -eq 0 ] && [ ${#symbol_inputs[@]} -eq 0 ]; then
  [ "$have_mono" = 1 ] && inputs+=(/usr/lib/mono/4.5/mscorlib.dll /usr/lib/mono/4.5/System.Xml.dll)
  inputs+=("$fx/System.Private.CoreLib.dll" "$fx/System.Private.Xml.dll" "$roslyn/Microsoft.CodeAnalysis.CSharp.dll")
  [ -f "$repo/../shared/corpus/cecil/cecil.dll" ] && symbol_inputs=("$repo/../shared/corpus/cecil/cecil.dll")
fi
oracle_dir="$repo/build-bench/oracle"
[ ${#symbol_inputs[@]} -eq 0 ] || "$repo/tests/oracle/build.sh" "$oracle_dir" > /dev/null
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/cil-compare.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 CIL_INSTRUMENT_OUTPUT="$work/counts"
mkdir -p "$work/counts"

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -n | awk '{v[NR]=$1} END{if (NR==0) print "nan"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
highest() { sort -n | tail -n1; }
ms() { awk -v u="$1" 'BEGIN{printf "%.1f", u/1000}'; }

# CoreLib's runtime helpers are left alone by every side: the probe itself reaches them (its
# ldsfld goes through StaticsHelpers.GetGCStaticBase, and Interlocked.Increment is its own
# callee), so a CoreLib with every method probed overflows the stack as the runtime starts, with
# any tool. The same types are skipped by all: ours by --exclude (which the tool now does by
# itself in System.Private.CoreLib), the drivers by --skip-types.
helper_types=(System.Runtime.CompilerServices. System.Threading.Interlocked)
ours_skip=(--exclude 'System.Runtime.CompilerServices.*' --exclude 'System.Threading.Interlocked::*')
peer_skip=()
for t in "${helper_types[@]}"; do peer_skip+=(--skip-types "$t"); done

# command SIDE INPUT OUT: the command line of one side, in the array cmd.
command_of() {
  local side=$1 input=$2 out=$3 ours_extra=() peer_extra=()
  if [ "$(basename "$input")" = System.Private.CoreLib.dll ]; then
    ours_extra=("${ours_skip[@]}")
    peer_extra=("${peer_skip[@]}")
  fi
  [ "${symbols:-0}" = 1 ] && peer_extra+=(--symbols)  # ours rewrites the PDB whenever there is one
  case "$side" in
    ours) cmd=("$tool" "$input" -o "$out" "${ours_extra[@]}") ;;
    cecil) cmd=("$peers/cecil-nuget/CecilNuGet" "$input" "$out" "${peer_extra[@]}") ;;
    dnlib) cmd=("$peers/dnlib/DnlibCount" "$input" "$out" "${peer_extra[@]}") ;;
    cecil-mono) cmd=(mono "$peers/cecil/CecilCount.exe" "$input" "$out" "${peer_extra[@]}") ;;
    cp) cmd=(cp "$input" "$out") ;;
    cat) cmd=(cat "$input") ;;
  esac
}

# timed SIDE INPUT OUT: one run through cil_bench_run; appends "wall_us cpu_us kb status" to
# $work/SIDE.times, the command's output in OUT's name with .out (.err).
timed() {
  local side=$1 input=$2 out=$3 cmd
  command_of "$side" "$input" "$out"
  rm -f "$out" "${out%.dll}.pdb"
  local stdout="${out%.dll}.out"
  [ "$side" = cat ] && stdout=/dev/null
  "$timer" --stdout "$stdout" --stderr "${out%.dll}.err" -- "${cmd[@]}" >> "$work/$side.times"
}

# Runtime checks. Each prints "compiled N, refused N, skipped N" (a sample of the JIT's work) or
# the reason the output does not run, and returns non-zero on the latter.
jitcheck() {  # jitcheck FILE [DOTNET]: JitCheck in an AssemblyLoadContext (DOTNET: another muxer)
  local file=$1 muxer=${2:-dotnet} log
  log=$(timeout 600 "$muxer" "$peers/JitCheck.dll" "$file" --sample "$sample" 2>&1) ||
    { echo "does not run: $(grep -m1 -E 'Exception|overflow|error|Error' <<< "$log" || head -n1 <<< "$log")"; return 1; }
  grep -m1 '^compiled ' <<< "$log" || { echo "no summary: $(head -n1 <<< "$log")"; return 1; }
}
monocheck() {  # monocheck FILE: MonoCheck on mono, mscorlib as the running corlib
  local file=$1 log dir
  if [ "$(basename "$file")" = mscorlib.dll ]; then
    dir="$work/mono-corlib"
    rm -rf "$dir"; mkdir -p "$dir"; cp "$file" "$dir/mscorlib.dll"
    log=$(MONO_PATH="$dir" timeout 600 mono -O=-aot "$peers/MonoCheck.exe" "$dir/mscorlib.dll" --sample "$sample" 2>&1) ||
      { echo "does not run: $(grep -m1 -E 'Exception|Assertion|error' <<< "$log" || head -n1 <<< "$log")"; return 1; }
  else
    dir="$work/mono-file"
    rm -rf "$dir"; mkdir -p "$dir"; cp "$file" "$dir/$(basename "$original")"
    log=$(timeout 600 mono -O=-aot "$peers/MonoCheck.exe" "$dir/$(basename "$original")" --sample "$sample" 2>&1) ||
      { echo "does not run: $(grep -m1 -E 'Exception|Assertion|error' <<< "$log" || head -n1 <<< "$log")"; return 1; }
  fi
  grep -m1 '^compiled ' <<< "$log" || { echo "no summary: $(head -n1 <<< "$log")"; return 1; }
}
corelibcheck() {  # corelibcheck FILE: a framework copy with FILE as its CoreLib runs JitCheck
  local file=$1 root="$work/fx-copy"
  if [ ! -x "$root/dotnet" ]; then
    mkdir -p "$root/shared/Microsoft.NETCore.App" "$root/host"
    cp "$dotnet_root/dotnet" "$root/"
    cp -r "$dotnet_root/host/fxr" "$root/host/"
    cp -r "$fx" "$root/shared/Microsoft.NETCore.App/"
  fi
  cp "$file" "$root/shared/Microsoft.NETCore.App/$fx_version/System.Private.CoreLib.dll"
  jitcheck "$root/shared/Microsoft.NETCore.App/$fx_version/System.Private.CoreLib.dll" "$root/dotnet"
}
roslyncheck() {  # roslyncheck FILE: FILE in a copy of the SDK's Roslyn compiles and runs a program
  local file=$1 dir="$work/roslyn-copy" refs=() r ref_dir result
  [ -d "$dir" ] || cp -r "$roslyn" "$dir"
  cp "$file" "$dir/Microsoft.CodeAnalysis.CSharp.dll"
  ref_dir=$(ls -d "$dotnet_root"/packs/Microsoft.NETCore.App.Ref/*/ref/net* | sort -V | tail -n1)
  for r in "$ref_dir"/*.dll; do refs+=("/reference:$r"); done
  mkdir -p "$work/hello"
  cat > "$work/hello/Hello.cs" <<'CS'
using System.Linq;
static class Hello
{
    static int Main(string[] args)
    {
        var squares = Enumerable.Range(1, 10).Select(n => n * n).Where(n => n % 2 == 1);
        System.Console.WriteLine($"hello from an instrumented compiler: {string.Join(",", squares)}");
        return 0;
    }
}
CS
  rm -f "$work/hello/Hello.dll"
  timeout 600 dotnet "$dir/csc.dll" /nologo /noconfig /nostdlib+ "${refs[@]}" "/out:$work/hello/Hello.dll" \
    "$work/hello/Hello.cs" > "$work/hello/csc.log" 2>&1 ||
    { echo "csc fails: $(grep -m1 -E 'Exception|error' "$work/hello/csc.log" || head -n1 "$work/hello/csc.log")"; return 1; }
  printf '{"runtimeOptions":{"tfm":"net%s.0","framework":{"name":"Microsoft.NETCore.App","version":"%s.0"}}}\n' \
    "${fx_version%%.*}" "${fx_version%.*}" > "$work/hello/Hello.runtimeconfig.json"
  result=$(timeout 60 dotnet "$work/hello/Hello.dll" 2>&1) || { echo "the compiled program fails: $result"; return 1; }
  [ "$result" = "hello from an instrumented compiler: 1,9,25,49,81" ] || { echo "the compiled program printed: $result"; return 1; }
  echo -n "compiled and ran Hello.cs; "
  jitcheck "$dir/Microsoft.CodeAnalysis.CSharp.dll"
}
runcheck() {  # runcheck FILE: the check for the input's kind ($original)
  case "$original" in
    /usr/lib/mono/*) monocheck "$1" ;;
    */System.Private.CoreLib.dll) corelibcheck "$1" ;;
    */Microsoft.CodeAnalysis.CSharp.dll) roslyncheck "$1" ;;
    *) local dir="$work/dotnet-file"
       rm -rf "$dir"; mkdir -p "$dir"; cp "$1" "$dir/$(basename "$original")"
       jitcheck "$dir/$(basename "$original")" ;;
  esac
}
refused() { sed -nE 's/.*compiled [0-9]+, refused ([0-9]+),.*/\1/p' <<< "$1"; }

tools=(ours cecil dnlib)
[ "$have_mono" = 1 ] && tools+=(cecil-mono)
sides=("${tools[@]}" cp cat)
echo "load average at start: $(loadavg)" >&2
rows=()
checks=()
summaries=()
verdicts=()
all_inputs=("${inputs[@]}" "${symbol_inputs[@]}")
for ((n = 0; n < ${#all_inputs[@]}; n++)); do
  input=${all_inputs[$n]}
  symbols=0
  [ "$n" -ge ${#inputs[@]} ] && symbols=1
  [ -f "$input" ] || { echo "compare.sh: $input not found" >&2; exit 2; }
  original=$input
  name=$(basename "$input" .dll)
  [ "$symbols" = 1 ] && name+="+pdb"
  cat "$input" > /dev/null  # page cache
  load_before=$(loadavg)
  for side in "${sides[@]}"; do rm -f "$work/$side.times"; done
  for ((i = 0; i < runs; i++)); do
    for ((k = 0; k < ${#sides[@]}; k++)); do
      side=${sides[$(((i + k) % ${#sides[@]}))]}
      echo "  $name: $side run $((i + 1))/$runs" >&2
      timed "$side" "$input" "$work/$name.$side.dll"
    done
  done
  load_after=$(loadavg)
  # Every run's times of this input kept (SIDE.times is reset for the next): the medians below
  # come from them, and a run can be looked at round by round afterwards.
  mkdir -p "$work/times"
  for side in "${sides[@]}"; do cp "$work/$side.times" "$work/times/$name.$side.times"; done
  size=$(stat -L -c %s "$input")
  # With symbols, the size counts the PDB beside the input too.
  [ "$symbols" = 1 ] && [ -f "${input%.dll}.pdb" ] && size=$((size + $(stat -L -c %s "${input%.dll}.pdb")))

  # The warm case: each peer twice in one process; its second iteration's in-process ms.
  declare -A warm=()
  for side in cecil dnlib cecil-mono; do
    [[ " ${tools[*]} " == *" $side "* ]] || continue
    command_of "$side" "$input" "$work/$name.$side.warm.dll"
    warm[$side]=$("${cmd[@]}" --iterations 2 2> /dev/null | sed -nE 's/^iteration 2: .* in ([0-9]+) ms.*/\1/p' || true)
    rm -f "$work/$name.$side.warm.dll"
  done

  baseline=$(runcheck "$input") || baseline="input does not run either: $baseline"
  checks+=("$name input: $baseline")
  base_refused=$(refused "$baseline")
  row="$name|$(awk -v b="$size" 'BEGIN{printf "%.1f", b/1048576}')|$load_before -> $load_after"
  declare -A cpu=() wall=() ok=()
  for side in "${sides[@]}"; do
    out="$work/$name.$side.dll"
    wall[$side]=$(awk '{print $1}' "$work/$side.times" | median)
    cpu[$side]=$(awk '{print $2}' "$work/$side.times" | median)
    kb=$(awk '{print $3}' "$work/$side.times" | highest)
    status=$(awk '$4 != 0 {print $4; exit}' "$work/$side.times")
    if [ "$side" = cp ] || [ "$side" = cat ]; then
      row+="|$(ms "${wall[$side]}")/$(ms "${cpu[$side]}")"
      continue
    fi
    verdict=ok
    methods=$(grep -oE 'instrumented [0-9]+ method' "${out%.dll}.out" 2> /dev/null | head -n1 | grep -oE '[0-9]+' || echo "?")
    if [ -n "$status" ] || [ ! -f "$out" ]; then
      verdict="FAILED: exit status ${status:-0}, $(grep -m1 -E 'Exception|error' "${out%.dll}.err" 2> /dev/null || tail -n1 "${out%.dll}.err")"
    else
      probe=$(dotnet "$peers/cecil/ProbeCheck.dll" "$out" || true)
      if ! "$tool" info "$out" > /dev/null 2> "$work/info.err"; then
        verdict="FAILED: info: $(head -n1 "$work/info.err")"
      elif [[ "$probe" == *FAILED* ]]; then
        verdict="FAILED: ProbeCheck: ${probe#"$out": }"
      elif ! run=$(runcheck "$out"); then
        verdict="FAILED: $run"
      elif [ -n "$base_refused" ] && [ "$(refused "$run")" -gt "$base_refused" ]; then
        verdict="FAILED: the JIT refuses more than in the input: $run"
      else
        verdict="runs ($run)"
      fi
      if [ "$symbols" = 1 ]; then
        pdb=$(dotnet "$oracle_dir/Oracle.dll" pdb "$input" "$out" 2>&1 | head -n2 | tr '\n' ' ' || true)
        case "$pdb" in OK*) probe+="; PDB oracle OK" ;; *) probe+="; PDB oracle: ${pdb#"DIFF $out "}" ;; esac
      fi
      checks+=("$name $side: ${probe#"$out": }")
      summaries+=("$(head -n1 "${out%.dll}.out" | cut -c1-300)")
    fi
    verdicts+=("$name $side: $verdict")
    ok[$side]=0
    [[ "$verdict" == runs* ]] && ok[$side]=1
    cell="$methods|$(ms "${wall[$side]}")|$(ms "${cpu[$side]}")|$(awk -v k="$kb" 'BEGIN{printf "%.0f", k/1024}')"
    if [ "${ok[$side]}" = 0 ]; then
      cell="FAILED|[$(ms "${wall[$side]}")]|[$(ms "${cpu[$side]}")]|-"
    fi
    if [ "$side" != ours ]; then
      ratio="-"
      [ "${ok[$side]}" = 1 ] && [ "${ok[ours]}" = 1 ] &&
        ratio=$(awk -v c="${cpu[$side]}" -v o="${cpu[ours]}" 'BEGIN{printf "%.1fx", c/o}')
      cell+="|$ratio|${warm[$side]:-?}"
    fi
    row+="|$cell"
  done
  # The fastest peer whose output runs, and ours against the floor.
  best=""
  for side in cecil dnlib cecil-mono; do
    [ "${ok[$side]:-0}" = 1 ] || continue
    if [ -z "$best" ] || [ "${cpu[$side]%.*}" -lt "${cpu[$best]%.*}" ]; then best=$side; fi
  done
  if [ -n "$best" ] && [ "${ok[ours]}" = 1 ]; then
    row+="|$best $(awk -v c="${cpu[$best]}" -v o="${cpu[ours]}" 'BEGIN{r=c/o; printf "%.1fx %s", r, (r >= 30 ? "met" : "NOT met")}')"
  else
    row+="|no peer output runs"
  fi
  row+="|$(awk -v o="${cpu[ours]}" -v c="${cpu[cp]}" -v ow="${wall[ours]}" -v cw="${wall[cp]}" \
    'BEGIN{printf "%.1fx/%.1fx %s", o/c, ow/cw, (o <= 3*c ? "met" : "NOT met")}')"
  rows+=("$row")
  unset warm cpu wall ok
done

echo
echo "$runs runs per side and input, round robin with a rotating start; wall and CPU (user + system) in ms: medians; RSS: highest, MB"
echo "$(nproc) cores; ours: $tool; peers: $peers; runtime checks on a sample of $sample methods"
header="input|MB|load before -> after"
for side in "${tools[@]}"; do
  if [ "$side" = ours ]; then header+="|ours methods|wall|cpu|RSS"
  else header+="|$side methods|wall|cpu|RSS|cpu/ours|warm 2nd ms"; fi
done
header+="|cp wall/cpu|cat wall/cpu|fastest peer cpu/ours (30x)|ours/cp cpu/wall (3x)"
{
  echo "$header"
  for row in "${rows[@]}"; do echo "$row"; done
} | column -t -s '|'
echo
echo "does each output run (the runtime check; FAILED sides are not timed as successes):"
for c in "${verdicts[@]}"; do echo "  $c"; done
echo
echo "checks (the input's own runtime check; ProbeCheck over System.Reflection.Metadata):"
for c in "${checks[@]}"; do echo "  $c"; done
echo
echo "what each tool printed (last timed run):"
for c in "${summaries[@]}"; do echo "  ${c#"$work/"}"; done

if [ "$framework" = 1 ]; then
  # The whole shared framework: our folder mode in one process, sequential and parallel, every
  # assembly instrumented (the framework's own are otherwise copied) but CoreLib's runtime
  # helpers; the floor is `cp -r` of the folder (one process), `cp` of each file (a process per
  # file, as a per-file tool runs), and `cat` of every file, in one process and one per file. The
  # instrumented framework must then run: a copy of the .NET root with it as its shared
  # framework starts JitCheck on its CoreLib.
  echo
  files=$(find "$fx" -maxdepth 1 -type f | wc -l)
  mb=$(du -sbL "$fx" | awk '{printf "%.1f", $1/1048576}')
  load_before=$(loadavg)
  fsides=(ours-j1 "ours-j$jobs" cp-r cp-each cat-all cat-each)
  for side in "${fsides[@]}"; do rm -f "$work/$side.times"; done
  for ((i = 0; i < runs; i++)); do
    for ((k = 0; k < ${#fsides[@]}; k++)); do
      side=${fsides[$(((i + k) % ${#fsides[@]}))]}
      echo "  framework: $side run $((i + 1))/$runs" >&2
      rm -rf "$work/fx-$side"
      case "$side" in
        ours-j*) cmd=("$tool" "$fx" -o "$work/fx-$side" -j "${side#ours-j}" --assemblies '*' "${ours_skip[@]}") ;;
        cp-r) cmd=(cp -r "$fx" "$work/fx-$side") ;;
        cp-each) mkdir -p "$work/fx-$side"
                 cmd=(sh -c 'out=$1; shift; for f in "$@"; do cp "$f" "$out/"; done' sh "$work/fx-$side" "$fx"/*) ;;
        cat-each) cmd=(sh -c 'for f in "$@"; do cat "$f"; done > /dev/null' sh "$fx"/*) ;;
        cat-all) cmd=(sh -c 'cat "$@" > /dev/null' sh "$fx"/*) ;;
      esac
      "$timer" --stdout "$work/fx-$side.out" --stderr "$work/fx-$side.err" -- "${cmd[@]}" >> "$work/$side.times"
    done
  done
  load_after=$(loadavg)
  summary="$(tail -n1 "$work/fx-ours-j1.out"); $(grep -oE 'instrumented [0-9]+ method' "$work/fx-ours-j1.out" |
    awk '{n += $2} END{print n}') methods in all"
  root="$work/fx-root"
  rm -rf "$root"; mkdir -p "$root/shared/Microsoft.NETCore.App" "$root/host"
  cp "$dotnet_root/dotnet" "$root/"; cp -r "$dotnet_root/host/fxr" "$root/host/"
  cp -r "$work/fx-ours-j1" "$root/shared/Microsoft.NETCore.App/$fx_version"
  if fxrun=$(jitcheck "$root/shared/Microsoft.NETCore.App/$fx_version/System.Private.CoreLib.dll" "$root/dotnet"); then
    fxrun="runs: the runtime started on the instrumented framework; CoreLib sample $fxrun"
  else
    fxrun="FAILED: $fxrun"
  fi
  same=same
  cmp -s <(cd "$work/fx-ours-j1" && find . -type f -exec md5sum {} + | sort -k2) \
         <(cd "$work/fx-ours-j$jobs" && find . -type f -exec md5sum {} + | sort -k2) || same=DIFFERENT
  echo "the whole shared framework: $fx, $files files, $mb MB; load $load_before -> $load_after"
  {
    echo "side|wall ms|cpu ms|RSS MB"
    for side in "${fsides[@]}"; do
      echo "$side|$(awk '{print $1}' "$work/$side.times" | median | xargs -I{} awk 'BEGIN{printf "%.1f", {}/1000}')|$(awk '{print $2}' "$work/$side.times" | median | xargs -I{} awk 'BEGIN{printf "%.1f", {}/1000}')|$(awk '{print $3}' "$work/$side.times" | highest | xargs -I{} awk 'BEGIN{printf "%.0f", {}/1024}')"
    done
  } | column -t -s '|'
  echo "  ours: ${summary:-?}"
  echo "  -j 1 and -j $jobs outputs: $same bytes; $fxrun"
  for s in cp-r cp-each; do
    ow=$(awk '{print $1}' "$work/ours-j$jobs.times" | median); cw=$(awk '{print $1}' "$work/$s.times" | median)
    echo "  ours -j $jobs against $s, wall: $(awk -v o="$ow" -v c="$cw" 'BEGIN{printf "%.2fx of it: %s", o/c, (o < c ? "faster (target met)" : "slower (target NOT met)")}')"
  done
fi
echo
echo "load average at end: $(loadavg)"
exit
}
