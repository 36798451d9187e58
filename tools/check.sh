#!/bin/sh
# The test command: builds coopvm twice (optimised, and with the address and
# undefined-behaviour sanitizers), warnings as errors (-DCVM_WERROR=ON, off
# by default), and runs every test (unit tests, grammar freshness, the
# conformance corpus) in both builds; then, where clang with
# its libFuzzer runtime is installed, runs each fuzz harness of tests/fuzz
# from its seeds for CVM_FUZZ_SECONDS (default 20) and fails on any finding.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVM_REQUIRE_TESTS=ON \
  -DCVM_WERROR=ON
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCVM_SANITIZE=ON -DCVM_REQUIRE_TESTS=ON \
  -DCVM_WERROR=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"

if command -v clang >/dev/null 2>&1 &&
   echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
     clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; then
  CC=clang cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCVM_FUZZ=ON \
    -DCVM_WITH_GLSLANG=OFF -DCVM_WERROR=ON
  cmake --build build-fuzz -j "$jobs" --target fuzz_module fuzz_module_unvalidated \
    fuzz_validate fuzz_disassemble fuzz_assemble fuzz_amber fuzz_coopvec_convert
  tools/fuzz.sh build-fuzz "${CVM_FUZZ_SECONDS:-20}" build-fuzz/fuzz-run module \
    module_unvalidated validate disassemble assemble amber coopvec_convert
else
  echo "check.sh: no clang with libFuzzer (Debian: clang libclang-rt-14-dev): fuzz harnesses not run"
fi
