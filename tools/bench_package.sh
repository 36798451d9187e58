#!/bin/sh
# A coopvm-bench to carry to a machine without a toolchain (issue 16: the
# scaling runs on a 16-core machine with no network, no cmake and no
# compiler).  Builds coopvm-bench (RelWithDebInfo, no tests, no glslang) with
# LLVM 14's ORC JIT, OpenBLAS, libstdc++ and libgcc linked statically, so that
# it needs only glibc (BUILD_INFO says which version); checks that the compiled
# tier and the OpenBLAS anchor are in and that it needs no other shared
# library; strips it, and writes to OUTDIR:
#   coopvm-bench-pkg.tar.xz  coopvm-bench, BUILD_INFO (commit, date, versions),
#                            tools/bench_scaling.sh (this tree's)
#   shared-bench.tar.xz      the shared bench cases, as bench/...
# The project's own cases are not in them: bench_scaling.sh takes them from
# the repository it runs in (CASES_DIR=DIR otherwise), which should be at the
# commit BUILD_INFO names.
#
# On the machine, from the repository root, with the two archives in X:
#   mkdir -p /tmp/cvs && tar -xJf X/coopvm-bench-pkg.tar.xz -C /tmp/cvs && tar -xJf X/shared-bench.tar.xz -C /tmp/cvs && BENCH=/tmp/cvs/coopvm-bench SHARED=/tmp/cvs/bench tools/bench_scaling.sh "$OUT"
# (with a repository whose tools/bench_scaling.sh predates BENCH, run
# /tmp/cvs/tools/bench_scaling.sh instead, adding CASES_DIR=$PWD/bench/cases;
# where tar cannot run xz, `python3 -m tarfile -e ARCHIVE /tmp/cvs` extracts).
#
# usage: tools/bench_package.sh [OUTDIR]        (default: bench-package;
#                                                relative paths are from the
#                                                repository root)
# environment:
#   SHARED=DIR                 the shared bench cases (default: shared/bench,
#                              else ../shared/bench)
#   BUILD=build-package        build folder
#   JOBS=$(nproc)              build jobs
#   CC=cc                      the C compiler (gcc: libstdc++.a, libgcc)
#   LLVM_CONFIG=llvm-config-14
#   OPENBLAS_LIB=FILE          the static OpenBLAS (default: where
#                              libopenblas.a leads, pthread flavour)
# Needs (Debian 12): cmake ninja-build gcc g++ llvm-14-dev libopenblas-dev
# zlib1g-dev libncurses-dev (libtinfo.a) gfortran's libgfortran (pulled in by
# libopenblas-dev), binutils, xz-utils.  Time: the build of LLVM-linked
# coopvm-bench, a few minutes on 2 cores; xz about one more.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-bench-package}
BUILD=${BUILD:-build-package}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
CC=${CC:-cc}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-14}
if [ -z "${SHARED:-}" ]; then
    if [ -d shared/bench ]; then SHARED=shared/bench; else SHARED=../shared/bench; fi
fi
die() { echo "bench_package: $*" >&2; exit 1; }

for tool in cmake ninja "$CC" readelf strip tar xz; do
    command -v "$tool" >/dev/null 2>&1 || die "no $tool on PATH"
done
[ -d "$SHARED" ] || die "no shared bench cases at $SHARED (set SHARED=DIR)"
command -v "$LLVM_CONFIG" >/dev/null 2>&1 || die "no $LLVM_CONFIG (Debian: llvm-14-dev; or set LLVM_CONFIG)"

# A static library the compiler finds (gcc -print-file-name answers the bare
# name when it finds none), with the package that has it.
static_lib() {
    f=$("$CC" -print-file-name="$1")
    if [ "$f" = "$1" ] || [ ! -f "$f" ]; then die "no $1 for $CC (Debian: $2)"; fi
    readlink -f "$f"
}
llvm_libs=$("$LLVM_CONFIG" --link-static --libfiles orcjit native) ||
    die "$LLVM_CONFIG --link-static --libfiles failed: no static LLVM libraries (Debian: llvm-14-dev)"
for f in $llvm_libs; do [ -f "$f" ] || die "$LLVM_CONFIG names $f, which is missing"; done
libz=$(static_lib libz.a zlib1g-dev)
libtinfo=$(static_lib libtinfo.a libncurses-dev)
libstdcxx=$(static_lib libstdc++.a "libstdc++-12-dev")
# libopenblas.a is an alternatives link: the file it leads to, which says
# which flavour it is (the pthread one needs no OpenMP runtime)
openblas=${OPENBLAS_LIB:-$(static_lib libopenblas.a libopenblas-dev)}
[ -f "$openblas" ] || die "OPENBLAS_LIB=$openblas is not a file"
case $openblas in
    *openmp*) die "$openblas is OpenBLAS's OpenMP flavour (libgomp is no part of glibc): set OPENBLAS_LIB to the pthread one" ;;
esac
# OpenBLAS's LAPACK half is Fortran: libgfortran, static where there is one
# (gcc links it only if a used object needs it; it needs libquadmath)
gfortran="-lgfortran"
f=$("$CC" -print-file-name=libgfortran.a)
q=$("$CC" -print-file-name=libquadmath.a)
if [ -f "$f" ] && [ -f "$q" ]; then gfortran="$f;$q"; elif [ -f "$f" ]; then gfortran=$f; fi

mkdir -p "$OUT"
# shellcheck disable=SC2086 # one line of paths, ';' between them
llvm_list=$(echo $llvm_libs | tr ' ' ';')
echo "bench_package: configuring $BUILD (LLVM $("$LLVM_CONFIG" --version), $openblas)" >&2
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVM_BUILD_TESTS=OFF \
    -DCVM_WITH_GLSLANG=OFF -DCMAKE_C_COMPILER="$CC" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
    "-DCVM_LLVM_LIB:STRING=$llvm_list;$libz;$libtinfo;$libstdcxx;-lpthread;-ldl;-lrt;-lm" \
    "-DCVM_OPENBLAS_LIB:STRING=$openblas;$gfortran;-lpthread" \
    "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc -Wl,--gc-sections" \
    > "$OUT/cmake.log" 2>&1 || { cat "$OUT/cmake.log"; die "cmake failed"; }
grep -q "coopvm: compiled tier through LLVM" "$OUT/cmake.log" ||
    { cat "$OUT/cmake.log"; die "cmake did not take LLVM (no 'compiled tier through LLVM'): see $OUT/cmake.log"; }
grep -q "coopvm-bench: OpenBLAS found" "$OUT/cmake.log" ||
    { cat "$OUT/cmake.log"; die "cmake did not take OpenBLAS (cblas.h missing? libopenblas-dev): see $OUT/cmake.log"; }
echo "bench_package: building coopvm-bench in $BUILD ($JOBS jobs)..." >&2
cmake --build "$BUILD" -j "$JOBS" --target coopvm_bench > "$OUT/build.log" 2>&1 ||
    { tail -50 "$OUT/build.log"; die "build failed: see $OUT/build.log"; }
bin="$BUILD/coopvm-bench"

# Only glibc's libraries, and the JIT and the anchor inside.
needed=$(readelf -dW "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//')
for lib in $needed; do
    case $lib in
        libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*.so.*) ;;
        *) die "$bin needs $lib, which is no part of glibc (NEEDED: $needed)" ;;
    esac
done
syms=$(readelf -sW "$bin")
echo "$syms" | grep -q ' LLVMOrcCreateLLJIT$' || die "$bin has no LLVMOrcCreateLLJIT: the JIT is not in"
echo "$syms" | grep -q ' cblas_sgemm$' || die "$bin has no cblas_sgemm: OpenBLAS is not in"
glibc=$(readelf -VW "$bin" | sed -n 's/.*Name: GLIBC_\([0-9.]*\).*/\1/p' | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)

stage=$(mktemp -d "${TMPDIR:-/tmp}/bench_package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/pkg/tools" "$stage/shared"
strip -s -o "$stage/pkg/coopvm-bench" "$bin"
"$stage/pkg/coopvm-bench" --help > /dev/null || die "the stripped coopvm-bench does not run here"
cp tools/bench_scaling.sh "$stage/pkg/tools/"

commit=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
changed=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l | tr -d ' ')
[ "${changed:-0}" = 0 ] || commit="$commit with $changed tracked files changed"
os=$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}/\1/p' /etc/os-release 2>/dev/null | head -1)
echo "coopvm-bench from coopvm commit $commit, built $(date -u '+%Y-%m-%d %H:%M UTC') on ${os:-?}" \
    "with $("$CC" --version | head -1): LLVM $("$LLVM_CONFIG" --version) (orcjit native)," \
    "OpenBLAS $(basename "$openblas"), libstdc++/libgcc static; NEEDED only $needed;" \
    "needs glibc >= ${glibc:-?}" > "$stage/pkg/BUILD_INFO"

rm -f "$OUT/coopvm-bench-pkg.tar.xz" "$OUT/shared-bench.tar.xz"
echo "bench_package: compressing..." >&2
(cd "$stage/pkg" && tar -cf - coopvm-bench BUILD_INFO tools/bench_scaling.sh) | xz -9 > "$OUT/coopvm-bench-pkg.tar.xz"
# the shared cases under the name bench/ whatever SHARED's last component
ln -s "$(cd "$SHARED" && pwd)" "$stage/shared/bench"
(cd "$stage/shared" && tar -chf - bench) | xz -9 > "$OUT/shared-bench.tar.xz"

cat "$stage/pkg/BUILD_INFO"
for f in "$stage/pkg/coopvm-bench" "$OUT/coopvm-bench-pkg.tar.xz" "$OUT/shared-bench.tar.xz"; do
    echo "$(wc -c < "$f" | tr -d ' ') bytes  $(basename "$f")"
done
