#!/bin/sh
# A coopvm Vulkan ICD to carry to a machine without LLVM (issue 30: the Vulkan
# CTS run with the compiled tier on a machine that has no libLLVM).  Builds
# libvulkan_coopvm.so (RelWithDebInfo, no tests, no glslang) with LLVM 14's
# ORC JIT, libstdc++ and libgcc linked statically, so that it needs only
# glibc; checks that the compiled tier is in and that it needs no other shared
# library; strips it, and writes OUTDIR/coopvm-icd.tar.xz holding
#   libvulkan_coopvm.so, coopvm_icd.json (library_path relative to it),
#   BUILD_INFO (commit, date, versions).
# On the machine:  mkdir -p X && tar -xJf coopvm-icd.tar.xz -C X &&
#                  VK_DRIVER_FILES=X/coopvm_icd.json COOPVM_JIT=always APP
# (the deqp kit takes it as COOPVM_ICD=X/coopvm_icd.json).
#
# With SANITIZE=1 the library is built with -DCVM_SANITIZE=ON (ASan and
# UBSan, gcc's) into coopvm-icd-asan.tar.xz: it needs, besides glibc,
# libasan.so.8 and libubsan.so.1 (Debian: libasan8, libubsan1), libasan
# preloaded into the application (LD_PRELOAD), and keeps its symbols
# (strip --strip-debug) so that a report names functions.
#
# usage: tools/icd_package.sh [OUTDIR]     (default: icd-package)
# environment: BUILD=build-icd-package (build-icd-package-asan with
#              SANITIZE=1), JOBS=$(nproc), CC=cc, LLVM_CONFIG=llvm-config-14,
#              SANITIZE=0
# Needs (Debian 12): cmake ninja-build gcc g++ llvm-14-dev libvulkan-dev
# zlib1g-dev, binutils, xz-utils.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-icd-package}
SANITIZE=${SANITIZE:-0}
if [ "$SANITIZE" = 1 ]; then
    BUILD=${BUILD:-build-icd-package-asan} san=ON name=coopvm-icd-asan strip_opt=--strip-debug
else
    BUILD=${BUILD:-build-icd-package} san=OFF name=coopvm-icd strip_opt=-s
fi
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
CC=${CC:-cc}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-14}
die() { echo "icd_package: $*" >&2; exit 1; }
for tool in cmake ninja "$CC" readelf strip tar xz; do
    command -v "$tool" >/dev/null 2>&1 || die "no $tool on PATH"
done
command -v "$LLVM_CONFIG" >/dev/null 2>&1 || die "no $LLVM_CONFIG (Debian: llvm-14-dev; or set LLVM_CONFIG)"
static_lib() {
    f=$("$CC" -print-file-name="$1")
    if [ "$f" = "$1" ] || [ ! -f "$f" ]; then die "no $1 for $CC (Debian: $2)"; fi
    readlink -f "$f"
}
llvm_libs=$("$LLVM_CONFIG" --link-static --libfiles orcjit native) ||
    die "$LLVM_CONFIG --link-static --libfiles failed: no static LLVM libraries (Debian: llvm-14-dev)"
libz=$(static_lib libz.a zlib1g-dev)

libstdcxx=$(static_lib libstdc++.a "libstdc++-12-dev")
mkdir -p "$OUT"
# LLVM asks terminfo only whether a terminal has colours, and Debian's
# libtinfo.a is not position-independent, so a shared object cannot take it:
# answer "no terminal" instead (setupterm fails, so the rest is never called).
tinfo_stub=$(cd "$OUT" && pwd)/tinfo_stub.o
printf '%s\n' 'int setupterm(const char *t, int fd, int *err) { (void)t; (void)fd; if (err) *err = -1; return -1; }' \
    'int tigetnum(const char *c) { (void)c; return -2; }' \
    'void *set_curterm(void *t) { (void)t; return 0; }' 'int del_curterm(void *t) { (void)t; return 0; }' |
    "$CC" -x c -O2 -fPIC -fvisibility=hidden -c -o "$tinfo_stub" - || die "could not compile the terminfo stub"
# shellcheck disable=SC2086 # one line of paths, ';' between them
llvm_list=$(echo $llvm_libs | tr ' ' ';')
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVM_BUILD_TESTS=OFF -DCVM_SANITIZE="$san" \
    -DCVM_WITH_GLSLANG=OFF -DCMAKE_C_COMPILER="$CC" \
    "-DCVM_LLVM_LIB:STRING=$llvm_list;$libz;$tinfo_stub;$libstdcxx;-lpthread;-ldl;-lrt;-lm" \
    "-DCMAKE_SHARED_LINKER_FLAGS=-static-libstdc++ -static-libgcc -Wl,--gc-sections -Wl,--exclude-libs,ALL" \
    > "$OUT/cmake.log" 2>&1 || { cat "$OUT/cmake.log"; die "cmake failed"; }
grep -q "coopvm: compiled tier through LLVM" "$OUT/cmake.log" ||
    { cat "$OUT/cmake.log"; die "cmake did not take LLVM: see $OUT/cmake.log"; }
grep -q "coopvm: Vulkan ICD" "$OUT/cmake.log" ||
    { cat "$OUT/cmake.log"; die "cmake makes no Vulkan ICD (libvulkan-dev?): see $OUT/cmake.log"; }
cmake --build "$BUILD" -j "$JOBS" --target vulkan_coopvm > "$OUT/build.log" 2>&1 ||
    { tail -50 "$OUT/build.log"; die "build failed: see $OUT/build.log"; }
lib="$BUILD/libvulkan_coopvm.so"
needed=$(readelf -dW "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//')
for l in $needed; do
    case $l in
        libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*.so.*) ;;
        libasan.so.*|libubsan.so.*) [ "$SANITIZE" = 1 ] || die "$lib needs $l without SANITIZE=1" ;;
        *) die "$lib needs $l, which is no part of glibc (NEEDED: $needed)" ;;
    esac
done
readelf -sW "$lib" | grep -q ' LLVMOrcCreateLLJIT$' || die "$lib has no LLVMOrcCreateLLJIT: the JIT is not in"
glibc=$(readelf -VW "$lib" | sed -n 's/.*Name: GLIBC_\([0-9.]*\).*/\1/p' | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)
stage=$(mktemp -d "${TMPDIR:-/tmp}/icd_package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
strip $strip_opt -o "$stage/libvulkan_coopvm.so" "$lib"
sed 's#"library_path": *"[^"]*"#"library_path": "./libvulkan_coopvm.so"#' "$BUILD/coopvm_icd.json" > "$stage/coopvm_icd.json"
grep -q '"./libvulkan_coopvm.so"' "$stage/coopvm_icd.json" || die "could not rewrite library_path in $BUILD/coopvm_icd.json"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
changed=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l | tr -d ' ')
[ "${changed:-0}" = 0 ] || commit="$commit with $changed tracked files changed"
echo "coopvm ICD from commit $commit, built $(date -u '+%Y-%m-%d %H:%M UTC') with $("$CC" --version | head -1):" \
    "LLVM $("$LLVM_CONFIG" --version) (orcjit native), CVM_SANITIZE=$san, libstdc++/libgcc static; NEEDED only $needed;" \
    "needs glibc >= ${glibc:-?}" > "$stage/BUILD_INFO"
(cd "$stage" && tar -cf - libvulkan_coopvm.so coopvm_icd.json BUILD_INFO) | xz -6 > "$OUT/$name.tar.xz"
cat "$stage/BUILD_INFO"
echo "$(wc -c < "$stage/libvulkan_coopvm.so" | tr -d ' ') bytes libvulkan_coopvm.so; $(wc -c < "$OUT/$name.tar.xz" | tr -d ' ') bytes $name.tar.xz"
