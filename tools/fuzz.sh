#!/bin/sh
# Runs the libFuzzer harnesses of a CVM_FUZZ build (tests/fuzz) from their
# seeds, each for SECONDS, two at a time; fails on any finding (a crash, a
# sanitizer report, a broken contract, a leak, a timeout or an
# out-of-memory), whose input is left in OUT/<harness>/ beside the log.
#
#   tools/fuzz.sh BUILD_DIR SECONDS OUT [harness...]
#
# Seeds: the project's modules (.spv, with tests/fuzz/seeds and the hbo_*
# regressions: aggregates of cooperative types) for the binary harnesses,
# its assembly (.spvasm) for the assembler, its scripts (.amber, .vkscript) for the
# AmberScript one, tests/fuzz/coopvec_convert/*.cvconv for the matrix
# conversion; dictionaries: tests/fuzz/*.dict (tools/gen_fuzz_dict.py).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)

seeds() { # harness dir: copy its seed files (flat; libFuzzer reads dirs recursively)
  case $1 in
    module|module_unvalidated|module_tiers|validate|disassemble) pat='*.spv' ;;
    assemble) pat='*.spvasm' ;;
    amber) pat='*.amber *.vkscript' ;;
    coopvec_convert) pat='*.cvconv' ;;
  esac
  mkdir -p "$2"
  for p in $pat; do
    find "$src/tests" -name "$p" -type f \( ! -path '*/fuzz/regress/*' -o -name 'hbo_*' \)
  done | while read -r f; do
    cp "$f" "$2/$(echo "$f" | cksum | cut -d' ' -f1)-${f##*/}"
  done
}

# (tools/fuzz_kit.sh takes the same seeds: tools/fuzz.sh --seeds HARNESS DIR)
if [ "${1:-}" = --seeds ] && [ $# -eq 3 ]; then
  seeds "$2" "$3"
  exit 0
fi
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR SECONDS OUT [harness...]" >&2; exit 2; }
build=$(cd "$1" && pwd) secs=$2 out=$3
shift 3
harnesses=${*:-module validate disassemble assemble amber coopvec_convert}
mkdir -p "$out"
out=$(cd "$out" && pwd)

run_one() {
  h=$1
  bin=$build/tests/fuzz_$h
  [ -x "$bin" ] || { echo "fuzz: $bin is not built" >&2; return 1; }
  case $h in
    assemble|amber) dict=-dict=$src/tests/fuzz/spirv_text.dict ;;
    coopvec_convert) dict= ;; # a binary header of numbers: no words to suggest
    *) dict=-dict=$src/tests/fuzz/spirv_binary.dict ;;
  esac
  # a new corpus and log each run; findings of earlier runs stay
  rm -rf "$out/$h/corpus" "$out/$h/seeds" "$out/$h/log"
  mkdir -p "$out/$h/corpus" "$out/$h/crashes"
  seeds "$h" "$out/$h/seeds"
  # -rss_limit_mb/-malloc_limit_mb: a legitimate input stays far below;
  # -timeout: one input over 10 s is a hang.
  if (cd "$out/$h" && "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -malloc_limit_mb=1024 $dict -print_final_stats=1 \
        -artifact_prefix="$out/$h/crashes/" corpus seeds) > "$out/$h/log" 2>&1; then
    echo "fuzz $h: $(grep -E '^stat::number_of_executed_units' "$out/$h/log" | awk '{print $2}') executions, $(grep -E '^#[0-9]+.*DONE' "$out/$h/log" | sed 's/ *lim:.*//; s/^#[0-9]* *DONE *//') no finding"
  else
    echo "fuzz $h: FINDING, see $out/$h/log and $out/$h/crashes/" >&2
    grep -E 'ERROR|SUMMARY|fuzz contract' "$out/$h/log" | head -5 >&2
    return 1
  fi
}

status=0
pids=""
n=0
for h in $harnesses; do
  run_one "$h" &
  pids="$pids $!"
  n=$((n + 1))
  if [ $n -ge 2 ]; then
    for p in $pids; do wait "$p" || status=1; done
    pids="" n=0
  fi
done
for p in $pids; do wait "$p" || status=1; done
exit $status
