#!/bin/sh
# coopvm's Vulkan driver beside Mesa's lavapipe (the CPU Vulkan driver every
# Linux distribution ships) on the benchmark cases: each case's vkrun
# manifest (<case>.run, with its `repeat N`) runs on one driver, then on the
# other, ROUNDS times in turn, so that both see the same machine state; each
# run prints the median time of its N dispatches (vkrun's median_ms, submit
# to fence).  The script prints, per case, the median over the rounds for
# each driver and their ratio (coopvm / lavapipe: below 1 is faster), and
# whether the two drivers' outputs are bit-identical (their correctness
# against the outputs recorded on an NVIDIA GPU is the test suite's: ctest
# runs these cases' AmberScripts with their tolerances).  A case lavapipe
# cannot run (cooperative matrices and vectors, which it does not offer)
# says so.
#
# usage: tools/bench_lavapipe.sh [CASE...]        (default: every case)
# environment:
#   BUILD=build              coopvm build holding coopvm_icd.json
#   ROUNDS=5                 runs per driver per case, interleaved
#   SHARED=../shared         the shared folder (bench/ and tools/vkrun/vkrun)
#   LVP_ICD=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
#   THREADS=                 worker threads for both (COOPVM_THREADS and
#                            LP_NUM_THREADS); default: each driver's own
# Needs (Debian 12): mesa-vulkan-drivers (lavapipe), libvulkan1, python3; a
# coopvm build with its Vulkan driver (libvulkan-dev at configure time).
# The cases are those of $SHARED/bench and bench/cases, run in a temporary
# copy (vkrun writes its outputs beside the manifest).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-5}
SHARED=${SHARED:-../shared}
LVP_ICD=${LVP_ICD:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
VKRUN=$SHARED/tools/vkrun/vkrun
CVM_ICD=$(pwd)/$BUILD/coopvm_icd.json
die() { echo "bench_lavapipe: $*" >&2; exit 1; }
[ -f "$CVM_ICD" ] || die "no $CVM_ICD (build coopvm with libvulkan-dev installed; or set BUILD)"
[ -f "$LVP_ICD" ] || die "no lavapipe at $LVP_ICD (Debian: mesa-vulkan-drivers; or set LVP_ICD)"
[ -x "$VKRUN" ] || die "no vkrun at $VKRUN (set SHARED)"
VKRUN=$(cd "$(dirname "$VKRUN")" && pwd)/vkrun
if [ -n "${THREADS:-}" ]; then
    export COOPVM_THREADS="$THREADS" LP_NUM_THREADS="$THREADS"
fi

cases=""
for d in "$SHARED"/bench/*/ bench/cases/*/; do
    [ -d "$d" ] || continue
    c=$(basename "$d")
    [ -f "$d/$c.run" ] || continue
    if [ $# -gt 0 ]; then
        for want in "$@"; do [ "$want" = "$c" ] && cases="$cases $d"; done
    else
        cases="$cases $d"
    fi
done
[ -n "$cases" ] || die "no case found"

work=$(mktemp -d "${TMPDIR:-/tmp}/bench_lavapipe.XXXXXX")
trap 'rm -rf "$work"' EXIT

# one run: prints its median_ms, or "fail: <why>"; the first round keeps
# the outputs (the manifest's `out` files) under $work/out.<driver>/.
run_once() { # icd casedir-copy casedir-orig name keep-as
    out=$(cd "$2" && VK_DRIVER_FILES="$1" "$VKRUN" "$4.run" 2>&1) || {
        echo "fail: $(echo "$out" | grep -v '^info' | tail -1 | sed 's/^.*vkrun[0-9]*\.c:[0-9]* //')"; return; }
    ms=$(echo "$out" | sed -n 's/^median_ms \([0-9.]*\).*/\1/p' | head -1)
    [ -n "$ms" ] || { echo "fail: no median_ms (no 'repeat' in $4.run?)"; return; }
    if [ -n "$5" ]; then
        mkdir -p "$work/out.$5"
        for f in $(sed -n 's/.* out \([^ ]*\).*/\1/p' "$3/$4.run"); do
            cp "$2/$f" "$work/out.$5/$f"
        done
    fi
    echo "$ms"
}

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-28s %12s %12s %8s\n' case "coopvm ms" "lavapipe ms" ratio
for d in $cases; do
    c=$(basename "$d")
    copy="$work/$c"
    rm -rf "$copy"
    cp -r "$d" "$copy"
    tc="" tl="" why=""
    rm -rf "$work/out.coopvm" "$work/out.lavapipe"
    r=0
    while [ "$r" -lt "$ROUNDS" ]; do
        k1="" k2=""; [ "$r" = 0 ] && k1=coopvm && k2=lavapipe
        a=$(run_once "$CVM_ICD" "$copy" "$d" "$c" "$k1")
        case $a in fail:*) why="coopvm: ${a#fail: }"; break ;; esac
        tc="$tc $a"
        b=$(run_once "$LVP_ICD" "$copy" "$d" "$c" "$k2")
        case $b in fail:*) why="lavapipe: ${b#fail: }"; break ;; esac
        tl="$tl $b"
        r=$((r + 1))
    done
    mc=$(echo "$tc" | median)
    if [ -n "$why" ] && [ -z "$tl" ]; then
        printf '%-28s %12s %12s %8s  (%s)\n' "$c" "$mc" - - "$why"
        continue
    fi
    ml=$(echo "$tl" | median)
    ratio=$(awk -v a="$mc" -v b="$ml" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    same="outputs identical"
    diff -r "$work/out.coopvm" "$work/out.lavapipe" >/dev/null 2>&1 || same="outputs differ"
    printf '%-28s %12s %12s %8s  (%s%s)\n' "$c" "$mc" "$ml" "$ratio" "$same" "${why:+; $why}"
done
