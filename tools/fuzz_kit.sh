#!/bin/sh
# Long fuzz runs on a machine with many cores and no build tools (issue 33:
# 10^7 executions per harness; the device's 16 cores).
#
#   tools/fuzz_kit.sh pack KIT [harness...]
#       builds the libFuzzer harnesses of tests/fuzz (clang, CVM_FUZZ: ASan,
#       UBSan and the fuzzer) with LLVM 14, libstdc++ and libgcc linked
#       statically, so that they need only glibc, in $BUILD (default
#       build-fuzz-kit); strips the named ones (default: the three module
#       harnesses) into KIT/bins.tar.xz and writes the commit to
#       KIT/COMMIT.  With xz -9, all eight take about 32 MB: beside the
#       repository's 33 MB that is over the device's 64 MiB carry, so pack
#       at most seven there (seven without fuzz_module: 22.7 MB at b873d6d).
#   tools/fuzz_kit.sh run KIT SECONDS HARNESS:JOBS...
#       on the machine, from a copy of the repository holding KIT: runs each
#       harness with JOBS parallel jobs for SECONDS from the project's seeds
#       (as tools/fuzz.sh picks them) and KIT/corp-<harness>.tar.xz when a
#       previous run left one; writes to $OUT (default KIT/out) the summary
#       (executions summed over the jobs, inputs saved, reports), each
#       harness's corpus as corp-<harness>.tar.xz (copy them into KIT for the
#       next run) and the logs and any saved input in fuzzlogs.tar.xz.
#
# A finding is an input under <harness>/crashes in fuzzlogs.tar.xz (a
# kept-input-<pid> there is the last input of a module harness's process
# that reported an error, for a crash whose report broke before libFuzzer
# saved it, as the SEGV at pc 0x11 does): replay it
# with the unstripped binary of $BUILD (same commit) to symbolize it.
# Needs for pack (Debian 12): clang-14, cmake, ninja-build, llvm-14-dev,
# zlib1g-dev, libstdc++-12-dev, binutils, xz-utils.
set -eu
cd "$(dirname "$0")/.."
die() { echo "fuzz_kit: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $0 pack KIT [harness...] | run KIT SECONDS HARNESS:JOBS..."
mode=$1 kit=$2
shift 2

case $mode in
pack)
    BUILD=${BUILD:-build-fuzz-kit}
    CC=${CC:-clang}
    LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-14}
    harnesses=${*:-module module_unvalidated module_tiers}
    command -v "$LLVM_CONFIG" >/dev/null 2>&1 || die "no $LLVM_CONFIG (Debian: llvm-14-dev)"
    static_lib() {
        f=$("$CC" -print-file-name="$1")
        if [ "$f" = "$1" ] || [ ! -f "$f" ]; then die "no $1 for $CC (Debian: $2)"; fi
        readlink -f "$f"
    }
    llvm_libs=$("$LLVM_CONFIG" --link-static --libfiles orcjit native) || die "no static LLVM libraries"
    libz=$(static_lib libz.a zlib1g-dev)
    libstdcxx=$(static_lib libstdc++.a libstdc++-12-dev)
    mkdir -p "$kit" "$BUILD"
    # LLVM asks terminfo only whether a terminal has colours: "no terminal"
    # (tools/icd_package.sh), so that the binaries need no libtinfo
    stub=$(cd "$BUILD" && pwd)/tinfo_stub.o
    printf '%s\n' 'int setupterm(const char *t, int fd, int *err) { (void)t; (void)fd; if (err) *err = -1; return -1; }' \
        'int tigetnum(const char *c) { (void)c; return -2; }' \
        'void *set_curterm(void *t) { (void)t; return 0; }' 'int del_curterm(void *t) { (void)t; return 0; }' |
        "$CC" -x c -O2 -c -o "$stub" - || die "could not compile the terminfo stub"
    # shellcheck disable=SC2086 # one line of paths
    llvm_list=$(echo $llvm_libs | tr ' ' ';')
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVM_FUZZ=ON \
        -DCVM_WITH_GLSLANG=OFF -DCMAKE_C_COMPILER="$CC" \
        "-DCVM_LLVM_LIB:STRING=$llvm_list;$libz;$stub;$libstdcxx;-lpthread;-ldl;-lrt;-lm" \
        "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" > "$BUILD/kit-cmake.log" 2>&1 ||
        { cat "$BUILD/kit-cmake.log"; die "cmake failed"; }
    targets=""
    for h in $harnesses; do targets="$targets fuzz_$h"; done
    # shellcheck disable=SC2086
    cmake --build "$BUILD" -j "${JOBS:-$(nproc)}" --target $targets > "$BUILD/kit-build.log" 2>&1 ||
        { tail -40 "$BUILD/kit-build.log"; die "build failed: see $BUILD/kit-build.log"; }
    tmp=$(mktemp -d)
    for h in $harnesses; do strip --strip-all -o "$tmp/fuzz_$h" "$BUILD/tests/fuzz_$h"; done
    # -9: a 64 MiB window, so that the harnesses (mostly the same LLVM)
    # compress together
    (cd "$tmp" && XZ_OPT=${XZ_OPT:--9 -T2} tar -cJf bins.tar.xz fuzz_*) && mv "$tmp/bins.tar.xz" "$kit/bins.tar.xz"
    rm -rf "$tmp"
    git rev-parse HEAD > "$kit/COMMIT"
    [ -z "$(git status --porcelain --untracked-files=no)" ] || echo "(the tree has changes: COMMIT is not all of it)" >> "$kit/COMMIT"
    ls -l "$kit/bins.tar.xz"
    ;;
run)
    [ $# -ge 2 ] || die "usage: $0 run KIT SECONDS HARNESS:JOBS..."
    secs=$1
    shift
    kit=$(cd "$kit" && pwd)
    out=${OUT:-$kit/out}
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    work=$(mktemp -d)
    # a kept input is written before every execution: in memory, where the
    # machine has a tmpfs
    keep=$work
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then keep=$(mktemp -d -p /dev/shm); fi
    mkdir -p "$work/bin"
    xz -dc "$kit/bins.tar.xz" | tar -x -C "$work/bin"
    echo "commit: $(cat "$kit/COMMIT" 2>/dev/null); $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    for hj in "$@"; do
        h=${hj%:*} j=${hj#*:}
        [ -x "$work/bin/fuzz_$h" ] || die "the kit has no fuzz_$h"
        case $h in
            assemble|amber) dict=-dict=$PWD/tests/fuzz/spirv_text.dict ;;
            coopvec_convert) dict= ;;
            *) dict=-dict=$PWD/tests/fuzz/spirv_binary.dict ;;
        esac
        mkdir -p "$work/$h/corpus" "$work/$h/crashes" "$keep/$h/keep"
        tools/fuzz.sh --seeds "$h" "$work/$h/seeds"
        [ ! -f "$kit/corp-$h.tar.xz" ] || xz -dc "$kit/corp-$h.tar.xz" | tar -x -C "$work/$h"
        # shellcheck disable=SC2086 # $dict: one option or none
        # the module harnesses write each input to keep/input-<pid> first
        # (fuzz_module.c): a crash that breaks the report still leaves it
        (cd "$work/$h" && CVM_FUZZ_KEEP_INPUT="$keep/$h/keep" "$work/bin/fuzz_$h" -jobs="$j" -workers="$j" -max_total_time="$secs" \
            -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 $dict -print_final_stats=1 \
            -artifact_prefix="$work/$h/crashes/" corpus seeds > main.log 2>&1) &
    done
    wait
    for hj in "$@"; do
        h=${hj%:*}
        # the kept input of each process that reported an error
        cat "$work/$h"/fuzz-*.log | sed -n 's/^==\([0-9]*\)== *ERROR.*/\1/p' | sort -u |
            while read -r pid; do
                [ ! -f "$keep/$h/keep/input-$pid" ] ||
                    cp "$keep/$h/keep/input-$pid" "$work/$h/crashes/kept-input-$pid"
            done
        n=$(cat "$work/$h"/fuzz-*.log | grep '^stat::number_of_executed_units' | awk '{s += $2} END {print s + 0}')
        saved=$(find "$work/$h/crashes" -type f | wc -l)
        reports=$(cat "$work/$h"/fuzz-*.log | grep -c '^==[0-9]*== *ERROR\|^SUMMARY: \|runtime error: \|fuzz contract\|ALARM: ' || true)
        echo "$h: executions $n, inputs saved $saved, reports $reports, corpus $(find "$work/$h/corpus" -type f | wc -l)"
        tar -cJf "$out/corp-$h.tar.xz" -C "$work/$h" corpus
    done | tee "$out/summary.txt"
    (cd "$work" && tar -cJf "$out/fuzzlogs.tar.xz" ./*/fuzz-*.log ./*/main.log ./*/crashes)
    rm -rf "$work" "$keep"
    ;;
*)
    die "no mode $mode: pack or run"
    ;;
esac
