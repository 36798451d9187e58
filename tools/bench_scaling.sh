#!/bin/sh
# Thread scaling and peak memory of the benchmark (issue 16: "scaling from
# 1 to 16 threads ... parallel efficiency per case; peak memory of each bench
# case").  Builds coopvm-bench (RelWithDebInfo, no tests, no glslang: needs
# only cc, cmake, ninja and, for the GEMM anchors, libopenblas-dev), then
#   1. runs the whole benchmark once per thread count (coopvm-bench --threads T
#      --json; OpenBLAS gets the same count, the plain-C anchors one thread);
#   2. runs each case alone at MEM_THREADS threads, one process per case, for
#      its peak resident memory (the bench's peak_rss_kib, from getrusage; and
#      /usr/bin/time -v's "Maximum resident set size" where /usr/bin/time
#      exists);
# and writes to OUTDIR:
#   threads-T.json      the benchmark's JSON at T threads
#   mem-CASE-T.json     the one-case runs (mem-CASE-T.time: /usr/bin/time -v)
#   scaling.tsv         case, threads, engine ms, anchor ms, ratio,
#                       speed-up over 1 thread, parallel efficiency
#   breakdown.tsv       case, threads, where the threads' time went (the
#                       bench's dispatch_profile: serial part, wake-up,
#                       setup, busy, teardown, waiting at the end, threads
#                       that never joined) and busy time over 1 thread's
#   memory.tsv          case, threads, peak RSS KiB (bench), (time -v)
#   summary.txt         both tables, the machine (nproc, lscpu model), the commit
#
# usage: tools/bench_scaling.sh [OUTDIR]        (default: scaling-out)
# environment:
#   THREADS="1 2 4 8 16"   thread counts (speed-up and efficiency are over the first)
#   REPS=5                 timed engine/anchor pairs per case and thread count
#   MEM_THREADS="1 16"     thread counts of the one-case memory runs ("" skips them)
#   CASES=""               case names (default: all the bench knows)
#   SHARED=DIR             the shared bench cases (default: shared/bench, else
#                          ../shared/bench)
#   CASES_DIR=DIR          the project's cases (default: bench/cases)
#   BUILD=build-scaling    build folder; SKIP_BUILD=1 reuses it as it is
#   JOBS=$(nproc)          build jobs
#   BENCH=PATH             run this coopvm-bench instead of building one (no
#                          cmake, cc or ninja needed: tools/bench_package.sh
#                          makes one for a machine without them); its
#                          BUILD_INFO, if beside it, goes into summary.txt
# Relative paths (OUTDIR, SHARED, CASES_DIR, BENCH) are from the repository root.
# Time: on a 16-core machine a few minutes (the build about one, 1 thread the
# longest run); lower REPS or THREADS to shorten it.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-scaling-out}
THREADS=${THREADS:-"1 2 4 8 16"}
REPS=${REPS:-5}
MEM_THREADS=${MEM_THREADS-"1 16"}
CASES=${CASES:-}
CASESDIR=${CASES_DIR:-bench/cases}
PREBUILT=${BENCH:-}
case $PREBUILT in ""|*/*) ;; *) PREBUILT=./$PREBUILT ;; esac
BUILD=${BUILD:-build-scaling}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
if [ -z "${SHARED:-}" ]; then
    if [ -d shared/bench ]; then SHARED=shared/bench; else SHARED=../shared/bench; fi
fi
mkdir -p "$OUT"
start=$(date +%s)

if [ -n "$PREBUILT" ]; then
    [ -x "$PREBUILT" ] || { echo "bench_scaling: BENCH=$PREBUILT is not an executable file" >&2; exit 1; }
elif [ "${SKIP_BUILD:-0}" != 1 ]; then
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVM_BUILD_TESTS=OFF \
        -DCVM_WITH_GLSLANG=OFF > "$OUT/cmake.log" 2>&1 || { cat "$OUT/cmake.log"; exit 1; }
    cmake --build "$BUILD" -j "$JOBS" --target coopvm_bench > "$OUT/build.log" 2>&1 ||
        { tail -50 "$OUT/build.log"; exit 1; }
fi
BENCH=${PREBUILT:-$BUILD/coopvm-bench}
[ -d "$SHARED" ] || echo "bench_scaling: no shared cases at $SHARED (set SHARED=DIR): those cases report 'not run'" >&2
[ -d "$CASESDIR" ] || echo "bench_scaling: no project cases at $CASESDIR (set CASES_DIR=DIR): those cases report 'not run'" >&2

# One case per line of a JSON document: name engine_ms anchor_ms ratio
# (the bench writes each case on one line; null stays null).
cases_of() {
    sed -n 's/.*{"name": "\([^"]*\)".*"engine_ms": \([^,]*\),.*"anchor_ms": \([^,]*\), "ratio": \([^,]*\),.*/\1 \2 \3 \4/p' "$1"
}

first=$(echo "$THREADS" | awk '{print $1}')
for t in $THREADS; do
    echo "bench_scaling: $t thread(s)..." >&2
    # shellcheck disable=SC2086
    "$BENCH" --cases "$CASESDIR" --shared "$SHARED" --reps "$REPS" --threads "$t" --json $CASES \
        > "$OUT/threads-$t.json"
    [ "$t" != "$first" ] || grep -q '"openblas": true' "$OUT/threads-$t.json" ||
        echo "bench_scaling: $BENCH was built without OpenBLAS: the GEMM cases have no anchor" >&2
done

{
    printf 'case\tthreads\tengine_ms\tanchor_ms\tratio\tspeedup\tefficiency\n'
    for t in $THREADS; do
        cases_of "$OUT/threads-$t.json" | while read -r name ems ams ratio; do
            base=$(cases_of "$OUT/threads-$first.json" | awk -v n="$name" '$1 == n {print $2}')
            echo "$name $t $ems $ams $ratio $base $first"
        done
    done | awk '{
        sp = "-"; eff = "-";
        if ($3 != "null" && $6 != "" && $6 != "null" && $3 > 0) {
            sp = sprintf("%.2f", $6 / $3); eff = sprintf("%.2f", ($6 / $3) / ($2 / $7));
        }
        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $5, sp, eff
    }'
} > "$OUT/scaling.tsv"

# Where each case's thread time goes (the bench's dispatch_profile, coopvm.h
# cvm_dispatch_profile, per timed run): shares of threads x dispatch wall
# time, the serial part being the dispatching thread's time outside the
# parallel section times the threads that waited for it; busy_x the busy
# time over the first thread count's (what running together costs each
# workgroup); outside_ms the bench's engine time not in any dispatch.
profile_of() {
    awk '/"name": / {
        n = $0; sub(/.*"name": "/, "", n); sub(/".*/, "", n);
        e = $0; sub(/.*"engine_ms": /, "", e); sub(/[,}].*/, "", e);
        if ($0 !~ /"dispatch_profile": \{/) next;
        p = $0; sub(/.*"dispatch_profile": \{/, "", p); sub(/\}.*/, "", p);
        k = split(p, kv, /, /); delete v;
        for (i = 1; i <= k; i++) { split(kv[i], a, /": /); sub(/^"/, "", a[1]); v[a[1]] = a[2] }
        print n, e, v["dispatches"], v["threads"], v["wall_ms"], v["parallel_ms"], v["thread_ms"],
              v["wake_ms"], v["setup_ms"], v["busy_ms"], v["teardown_ms"], v["tail_ms"], v["absent_ms"]
    }' "$1"
}
{
    printf 'case\tthreads\tengine_ms\tdispatch_ms\toutside_ms\tserial%%\twake%%\tsetup%%\tbusy%%\tteardown%%\ttail%%\tabsent%%\tbusy_x\n'
    for t in $THREADS; do
        profile_of "$OUT/threads-$t.json" | while read -r name ems nd nt wall par thr wake setup busy td tail absent; do
            b1=$(profile_of "$OUT/threads-$first.json" | awk -v n="$name" '$1 == n {print $10}')
            echo "$name $t $ems $nd $nt $wall $par $thr $wake $setup $busy $td $tail $absent ${b1:-0}"
        done
    done | awk '{
        serial = ($4 > 0 ? $5 / $4 : 0) * ($6 - $7); tot = $8 + serial;
        if (tot <= 0) { printf "%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n", $1, $2, $3; next }
        printf "%s\t%s\t%s\t%.3f\t%.3f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%s\n", $1, $2, $3, $6, $3 - $6,
            100 * serial / tot, 100 * $9 / tot, 100 * $10 / tot, 100 * $11 / tot, 100 * $12 / tot,
            100 * $13 / tot, 100 * $14 / tot, ($15 > 0 ? sprintf("%.2f", $11 / $15) : "-")
    }'
} > "$OUT/breakdown.tsv"

printf 'case\tthreads\tpeak_rss_kib_bench\tmax_rss_kib_time_v\n' > "$OUT/memory.tsv"
if [ -n "$MEM_THREADS" ]; then
    all=$CASES
    [ -n "$all" ] || all=$(cases_of "$OUT/threads-$first.json" | awk '{print $1}')
    have_time=0
    [ -x /usr/bin/time ] && have_time=1
    for c in $all; do
        for t in $MEM_THREADS; do
            echo "bench_scaling: memory of $c at $t thread(s)..." >&2
            j="$OUT/mem-$c-$t.json"
            if [ $have_time = 1 ]; then
                /usr/bin/time -v -o "$OUT/mem-$c-$t.time" "$BENCH" --cases "$CASESDIR" --shared "$SHARED" \
                    --reps 1 --threads "$t" --json "$c" > "$j"
                tv=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$OUT/mem-$c-$t.time")
            else
                "$BENCH" --cases "$CASESDIR" --shared "$SHARED" --reps 1 --threads "$t" --json "$c" > "$j"
                tv=-
            fi
            pk=$(sed -n 's/.*"peak_rss_kib": *\([0-9-]*\).*/\1/p' "$j")
            printf '%s\t%s\t%s\t%s\n' "$c" "$t" "${pk:--}" "${tv:--}" >> "$OUT/memory.tsv"
        done
    done
fi

{
    # the commit, and how many tracked files the tree that ran differs in
    # from it (a copied tree can come with an older .git)
    changed=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l | tr -d ' ')
    echo "coopvm bench scaling: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$( [ "${changed:-0}" != 0 ] && echo " with $changed tracked files changed in the working tree")"
    [ -z "$PREBUILT" ] || [ ! -f "$(dirname "$PREBUILT")/BUILD_INFO" ] ||
        echo "binary: $PREBUILT, $(cat "$(dirname "$PREBUILT")/BUILD_INFO")"
    echo "machine: $(nproc 2>/dev/null) CPUs, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
    echo "reps $REPS; threads $THREADS; speed-up and efficiency over $first thread(s); $(($(date +%s) - start)) s in all"
    echo
    column -t -s "$(printf '\t')" "$OUT/scaling.tsv" 2>/dev/null || cat "$OUT/scaling.tsv"
    echo
    echo "where the threads' time goes (percent of threads x dispatch time; busy_x: busy time over $first thread(s)'s)"
    column -t -s "$(printf '\t')" "$OUT/breakdown.tsv" 2>/dev/null || cat "$OUT/breakdown.tsv"
    echo
    echo "peak memory (one case per process: the engine's state plus the anchor's inputs)"
    column -t -s "$(printf '\t')" "$OUT/memory.tsv" 2>/dev/null || cat "$OUT/memory.tsv"
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
