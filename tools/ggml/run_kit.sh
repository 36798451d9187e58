#!/bin/bash
# ggml-kit/run.sh BUDGET_S "RUNNER ARGS" : ggml's test-backend-ops (carried, built elsewhere) through a carried coopvm ICD
set -u; START=$(date +%s); BUDGET=$1; shift
R=$(cd "$(dirname "$0")" && pwd); W=/root/gg; mkdir -p $W/res
exec > >(tee -a "$OUT/log.txt") 2>&1
trap '(cd $W && tar -cJf "$OUT/results.tar.xz" res); ls -la $OUT' EXIT
for f in "$R"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -x $W/bin/test-backend-ops ] || tar -xJf "$R/ggml.tar.xz" -C $W
[ -f $W/icd/coopvm_icd.json ] || { mkdir -p $W/icd && tar -xJf "$R/coopvm-icd.tar.xz" -C $W/icd; }
cat $W/icd/BUILD_INFO; nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
export LD_LIBRARY_PATH=$W/lib
eval python3 -u "$R/runner.py" --bin $W/bin/test-backend-ops --jobs "$R/jobs.txt" --icd $W/icd/coopvm_icd.json \
  --out $W/res --deadline $((START + BUDGET - 30)) "$@"
