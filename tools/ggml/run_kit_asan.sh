#!/bin/bash
# tools/ggml/run_kit_asan.sh BUDGET_S [NORMAL_WORKERS ASAN_WORKERS]   (or NW=, NA= in the environment)
#
# run_kit.sh's kit, run on a many-core machine in one call (issue 34):
# 1. the perf figure: `test-backend-ops perf -o MUL_MAT` at m=4096,
#    k=14336, n=1 and 8 (q4_0; f16 at n=8) on COOPVM_THREADS=16.  ggml's perf
#    loop wants 100 GFLOP per timing on a GPU device, far more than the
#    budget on a CPU, so each case runs 30 s with GGML_VK_PERF_LOGGER and the
#    figure is its warm-up dispatch, timed by the driver's timestamp queries;
# 2. runner.py over jobs.txt on the coopmat2, KHR and scalar paths through
#    the normal driver (coopvm-icd.tar.xz) and, side by side, through a
#    driver built with -DCVM_SANITIZE=ON (coopvm-icd-asan.tar.xz, packed as
#    icd_package.sh packs the normal one), Debian's libasan8 preloaded.
# Environment: PERF=0 skips step 1; NOPS and AOPS (comma-separated op
# names) limit the normal and the sanitized runs to those ops, NONE for no
# run; NORDER and AORDER are runner.py's --order (large, small), NPATHS and
# APATHS its --paths (cm2,cm1,scalar), AJOBS the sanitized run's job list in
# the kit (jobs.txt), TIMEOUT the limit per shard (240 s); NPMAJOR=1 runs
# the normal driver path after path (runner.py --path-major); NTHREADS and
# ATHREADS the COOPVM_THREADS of each process (1), e.g. NW=1 NTHREADS=16
# AOPS=NONE PERF=0 for the wall time per op at 16 threads.
# The kit folder also holds debs/ with libvulkan1, libgomp1, libasan8 and
# libubsan1.  Writes $OUT/log.txt, $OUT/res-results.tsv and $OUT/resa-results.tsv
# and $OUT/results.tar.gz (res/ for the normal driver, resa/ for the
# sanitized one, perf/).  Leave 40 s of the
# call's limit beyond BUDGET_S for unpacking and the tarball.
set -u
START=$(date +%s)
BUDGET=$1 NW=${2:-${NW:-11}} NA=${3:-${NA:-5}}
K=$(cd "$(dirname "$0")" && pwd)
W=${WORK:-/root/gg}
mkdir -p "$W/res" "$W/resa" "$W/perf"
exec > >(tee -a "$OUT/log.txt") 2>&1
# the result tables first, plain, then the rest (gzip: quick enough to end
# inside the call's limit whatever the logs' size)
save() {
    for d in res resa; do cp "$W/$d/results.tsv" "$OUT/$d-results.tsv" 2>/dev/null; done
    (cd "$W" && tar -czf "$OUT/results.tar.gz" res resa perf)
    ls -la "$OUT"
}
trap save EXIT
for f in "$K"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
tar -xJf "$K/ggml.tar.xz" -C "$W"
mkdir -p "$W/icd" "$W/icda"
tar -xJf "$K/coopvm-icd.tar.xz" -C "$W/icd"
tar -xJf "$K/coopvm-icd-asan.tar.xz" -C "$W/icda"
cat "$W/icd/BUILD_INFO" "$W/icda/BUILD_INFO"
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
asan=/usr/lib/x86_64-linux-gnu/libasan.so.8
[ -f "$asan" ] || { echo "no $asan: put Debian's libasan8 in debs/"; exit 1; }
export GGML_VK_VISIBLE_DEVICES=0 VK_DRIVER_FILES="$W/icd/coopvm_icd.json"
PERF=${PERF:-1} NOPS=${NOPS:-} AOPS=${AOPS:-} NORDER=${NORDER:-small} AORDER=${AORDER:-small}
TIMEOUT=${TIMEOUT:-240} NPATHS=${NPATHS:-cm2,cm1,scalar} APATHS=${APATHS:-cm2,cm1,scalar}
AJOBS=${AJOBS:-jobs.txt} NPMAJOR=${NPMAJOR:-0} NTHREADS=${NTHREADS:-1} ATHREADS=${ATHREADS:-1}
pmajor=''
[ "$NPMAJOR" = 1 ] && pmajor=--path-major
[ "$PERF" = 1 ] && for c in "type_a=q4_0,type_b=f32,m=4096,n=1,k=14336" "type_a=q4_0,type_b=f32,m=4096,n=8,k=14336" \
         "type_a=f16,type_b=f32,m=4096,n=8,k=14336"; do
    n=$(echo "$c" | tr -c 'a-z0-9\n' _)
    s=$(date +%s.%N)
    GGML_VK_PERF_LOGGER=1 COOPVM_THREADS=16 timeout 30 stdbuf -oL -eL "$W/bin/test-backend-ops" \
        perf -b Vulkan0 -o MUL_MAT -p "$c" > "$W/perf/out-$n.txt" 2>&1
    echo "perf $c rc $? wall $(awk "BEGIN{print $(date +%s.%N) - $s}")"
    grep -A3 'Vulkan Timings' "$W/perf/out-$n.txt"
done
deadline=$((START + BUDGET - 40))
# each runner killed 20 s past the deadline, whatever its shards do
hard=$((deadline - $(date +%s) + 20)) npid='' apid=''
if [ "$NOPS" != NONE ]; then
    timeout -k 5 "$hard" python3 -u "$K/runner.py" --bin "$W/bin/test-backend-ops" --jobs "$K/jobs.txt" \
        --icd "$W/icd/coopvm_icd.json" --paths "$NPATHS" --workers "$NW" --threads "$NTHREADS" --timeout "$TIMEOUT" \
        --order "$NORDER" --ops "$NOPS" --out "$W/res" --deadline "$deadline" $pmajor > "$W/res/stdout.txt" 2>&1 &
    npid=$!
fi
if [ "$AOPS" != NONE ]; then
    timeout -k 5 "$hard" python3 -u "$K/runner.py" --bin "$W/bin/test-backend-ops" --jobs "$K/$AJOBS" \
        --icd "$W/icda/coopvm_icd.json" --paths "$APATHS" --workers "$NA" --threads "$ATHREADS" --timeout "$TIMEOUT" \
        --order "$AORDER" --ops "$AOPS" --out "$W/resa" --deadline "$deadline" --env "LD_PRELOAD=$asan" \
        --env ASAN_OPTIONS=detect_leaks=0 > "$W/resa/stdout.txt" 2>&1 &
    apid=$!
fi
# the runners by name: a bare `wait` would wait for the tee above too
for p in $npid $apid; do wait "$p"; done
for f in "$W/res/stdout.txt" "$W/resa/stdout.txt"; do [ -f "$f" ] && tail -n 2 "$f"; done
exit 0
