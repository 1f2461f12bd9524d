#!/usr/bin/env bash
# cil-instrument against Mono.Cecil 0.11 on the same count job, side by side: wall time and peak RSS.
#
#   bench/compare.sh [--tool PATH] [--cecil DIR] [--runs N] [--runtimes "mono dotnet"] [--work DIR] [INPUT...]
#
#   --tool      cil-instrument to measure (default: build-bench/src/cil-instrument, then build/src/...)
#   --cecil     where bench/cecil/build.sh put CecilCount.exe and ProbeCheck.dll (built there if
#               missing; default: build-bench/cecil)
#   --runs      runs per tool and input (default 5; $RUNS); wall and CPU = median, RSS = highest
#   --runtimes  which runtimes run the Cecil driver (default "mono dotnet")
#   --work      where outputs go (default: a fresh directory under /tmp, removed at the end)
#   INPUT       default: Mono's mscorlib.dll, the newest .NET System.Private.CoreLib.dll, Mono's
#               System.Xml.dll
#   --symbols INPUT
#               an input measured with its portable PDB (repeatable): ours rewrites it as always
#               (IN.pdb beside the input, or embedded), Cecil reads and writes it (ReadSymbols,
#               WriteSymbols); RSS / input counts the PDB too. Default with the other defaults: the
#               peer corpus's Mono.Cecil, a Debug build with its portable PDB
#               (../shared/corpus/cecil/cecil.dll).
#
# Every run is `/usr/bin/time -f '%M %U %S' COMMAND` (GNU time: peak RSS in KB of that process,
# user and system CPU seconds, in hundredths), timed around by the shell's clock in microseconds
# (GNU time's own %e has hundredths only, a sixth of ours on a small input; the clock adds the
# start of `time` itself, about a millisecond, to every side alike). The runs of one input go round robin (ours, Cecil on
# mono, Cecil on dotnet) so that load from elsewhere hits all sides alike. Afterwards every output
# is checked twice, by `cil-instrument info` and by ProbeCheck (System.Reflection.Metadata: every
# body decodes, the probed bodies have distinct slots and max stack >= 2), so that no side is fast
# because broken. With symbols, each output's PDB is also checked by the SRM PDB oracle
# (tests/oracle, `pdb ORIGINAL OUTPUT`: it opens as the runtime opens it, its ids and checksum
# match, every sequence point moved with its instruction).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

tool=""
cecil_dir="$repo/build-bench/cecil"
runs=${RUNS:-5}
runtimes="mono dotnet"
work=""
inputs=()
symbol_inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --symbols) symbol_inputs+=("$2"); shift 2 ;;
    --tool) tool=$2; shift 2 ;;
    --cecil) cecil_dir=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --runtimes) runtimes=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
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
[ -x /usr/bin/time ] || { echo "compare.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
if [ ! -f "$cecil_dir/CecilCount.exe" ] || [ ! -f "$cecil_dir/ProbeCheck.dll" ]; then
  "$here/cecil/build.sh" "$cecil_dir" >&2
fi
if [ ${#inputs[@]} -eq 0 ] && [ ${#symbol_inputs[@]} -eq 0 ]; then
  fx=$(dotnet --list-runtimes | awk '$1=="Microsoft.NETCore.App"{v=$2; d=$3} END{gsub(/[][]/,"",d); print d "/" v}')
  inputs=(/usr/lib/mono/4.5/mscorlib.dll "$fx/System.Private.CoreLib.dll" /usr/lib/mono/4.5/System.Xml.dll)
  [ -f "$repo/../shared/corpus/cecil/cecil.dll" ] && symbol_inputs=("$repo/../shared/corpus/cecil/cecil.dll")
fi
oracle_dir="$repo/build-bench/oracle"
[ ${#symbol_inputs[@]} -eq 0 ] || "$repo/tests/oracle/build.sh" "$oracle_dir" > /dev/null
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/cil-compare.XXXXXX)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

sides=(ours)
for r in $runtimes; do sides+=("cecil-$r"); done

# run SIDE INPUT OUT: one measured run; appends "wall kb cpu" to $work/SIDE.times, and leaves the
# command's output in OUT's name with .out for .dll (.err for standard error).
# With symbols ($symbols=1), Cecil reads and writes the PDB; ours always does.
run() {
  local side=$1 input=$2 out=$3 cmd extra=()
  [ "${symbols:-0}" = 1 ] && extra=(--symbols)
  case "$side" in
    ours) cmd=("$tool" "$input" -o "$out") ;;
    cecil-mono) cmd=(mono "$cecil_dir/CecilCount.exe" "$input" "$out" "${extra[@]}") ;;
    cecil-dotnet) cmd=(dotnet "$cecil_dir/CecilCount.exe" "$input" "$out" "${extra[@]}") ;;
  esac
  rm -f "$out" "${out%.dll}.pdb"
  local started=$EPOCHREALTIME ok=1 ended
  /usr/bin/time -f '%M %U %S' -o "$work/time.txt" "${cmd[@]}" > "${out%.dll}.out" 2> "${out%.dll}.err" || ok=0
  ended=$EPOCHREALTIME
  if [ "$ok" -eq 1 ]; then
    tail -n1 "$work/time.txt" |
      awk -v s="$started" -v e="$ended" '{printf "%.3f %s %.2f\n", e - s, $1, $2 + $3}' >> "$work/$side.times"
  else
    echo "compare.sh: $side failed on $input:" >&2
    tail -n5 "${out%.dll}.err" >&2
    echo "failed" >> "$work/$side.times"
  fi
}

median() { sort -n | awk '{v[NR]=$1} END{if (NR==0) print "nan"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
highest() { sort -n | tail -n1; }

rows=()
checks=()
summaries=()
all_inputs=("${inputs[@]}" "${symbol_inputs[@]}")
for ((n = 0; n < ${#all_inputs[@]}; n++)); do
  input=${all_inputs[$n]}
  symbols=0
  [ "$n" -ge ${#inputs[@]} ] && symbols=1
  [ -f "$input" ] || { echo "compare.sh: $input not found" >&2; exit 2; }
  name=$(basename "$input" .dll)
  pdb="${input%.dll}.pdb"
  [ "$symbols" = 1 ] && name+="+pdb"
  cat "$input" > /dev/null  # page cache
  for side in "${sides[@]}"; do rm -f "$work/$side.times"; done
  for ((i = 1; i <= runs; i++)); do
    for side in "${sides[@]}"; do
      echo "  $name: $side run $i/$runs" >&2
      run "$side" "$input" "$work/$name.$side.dll"
    done
  done

  size=$(stat -L -c %s "$input")
  # With symbols, RSS is weighed against the input and its PDB.
  [ "$symbols" = 1 ] && [ -f "$pdb" ] && size=$((size + $(stat -L -c %s "$pdb")))
  row="$name|$(awk -v b="$size" 'BEGIN{printf "%.1f", b/1048576}')"
  ours_wall="" ours_cpu=""
  for side in "${sides[@]}"; do
    out="$work/$name.$side.dll"
    if grep -q failed "$work/$side.times" || [ ! -f "$out" ]; then
      row+="|failed|-|-|-|-"
      checks+=("$name $side: FAILED to run")
      continue
    fi
    wall=$(cut -d' ' -f1 "$work/$side.times" | median)
    kb=$(cut -d' ' -f2 "$work/$side.times" | highest)
    cpu=$(cut -d' ' -f3 "$work/$side.times" | median)
    methods=$(grep -oE 'instrumented [0-9]+ method' "$work/$name.$side.out" | grep -oE '[0-9]+' || echo "?")
    probe=$(dotnet "$cecil_dir/ProbeCheck.dll" "$out" || true)
    if "$tool" info "$out" > /dev/null 2> "$work/info.err"; then info=ok; else info="FAILED: $(head -n1 "$work/info.err")"; fi
    if [ "$symbols" = 1 ]; then
      verdict=$(dotnet "$oracle_dir/Oracle.dll" pdb "$input" "$out" 2>&1 | head -n2 | tr '\n' ' ' || true)
      case "$verdict" in OK*) pdbcheck="PDB oracle OK" ;; *) pdbcheck="PDB oracle: ${verdict#"DIFF $out "}" ;; esac
      [ "$side" = ours ] && case "$verdict" in OK*) ;; *) methods+="!" ;; esac
      probe+="; $pdbcheck"
    fi
    checks+=("$name $side: info $info; ${probe#"$out": }")
    summaries+=("$(head -n1 "$work/$name.$side.out")")
    case "$probe" in *FAILED*) methods+="!" ;; esac
    [ "$info" = ok ] || methods+="!"
    if [ "$side" = ours ]; then
      ours_wall=$wall
      ours_cpu=$cpu
      row+="|$methods|$wall|$cpu|$(awk -v k="$kb" 'BEGIN{printf "%.1f", k/1024}')|$(awk -v k="$kb" -v b="$size" 'BEGIN{printf "%.2f", k*1024/b}')"
    else
      row+="|$methods|$wall|$cpu|$(awk -v k="$kb" 'BEGIN{printf "%.1f", k/1024}')"
      row+="|$(awk -v c="$wall" -v o="$ours_wall" -v cc="$cpu" -v oc="$ours_cpu" 'BEGIN{if (o > 0 && oc > 0) printf "%.1fx (%.1fx)", c/o, cc/oc; else print "-"}')"
    fi
  done
  rows+=("$row")
done

# The table: one line per input; per side: methods, median wall and CPU s, peak RSS MB, and for
# ours the RSS / input ratio, for Cecil the speedup of ours: Cecil's median wall / ours, and in
# parentheses the same on CPU time, which load from other processes disturbs much less.
echo
echo "runs per tool and input: $runs (wall s, cpu s = user + system: medians; RSS: highest); $(nproc) cores; $tool"
header="input|MB|ours methods|ours wall|ours cpu|ours RSS MB|RSS/input"
for side in "${sides[@]:1}"; do header+="|$side methods|wall|cpu|RSS MB|speedup (cpu)"; done
{
  echo "$header"
  for row in "${rows[@]}"; do echo "$row"; done
} | column -t -s '|'
echo
echo "checks (cil-instrument info; ProbeCheck over System.Reflection.Metadata):"
for c in "${checks[@]}"; do echo "  $c"; done
echo
echo "what each tool printed (last run):"
for c in "${summaries[@]}"; do echo "  ${c#"$work/"}"; done
