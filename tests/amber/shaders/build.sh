#!/bin/sh
# Rebuilds the .spvasm of the .comp shaders with glslang and SPIRV-Tools (not
# needed by the build or the tests: the .spvasm files are committed, and
# gen.py copies them into the scripts).  hints_init.spvasm is written by hand.
set -e
cd "$(dirname "$0")"
for s in matrix_layout matrix_stride matrix_ops matrix_ops_f64 workgroup_alias descriptor_arrays; do
  glslangValidator -V --target-env vulkan1.3 -o $s.tmp.spv $s.comp >/dev/null
  spirv-dis $s.tmp.spv > $s.spvasm
  rm -f $s.tmp.spv
done
# The cooperative-matrix shaders need a glslang that knows GL_KHR_cooperative_matrix
# and GL_NV_cooperative_matrix2 (Debian's does not; they were built with glslang
# from KhronosGroup/glslang 90afccf), and are disassembled by coopvm dis, which
# knows their instructions: GLSLANG=... COOPVM=.../build/coopvm sh build.sh
if [ -n "$GLSLANG" ] && [ -n "$COOPVM" ]; then
  for s in coopmat_dead_load coopmat_live_oob coopmat_store_stride0 coopmat_store_stride0_rows coopmat_splat_nonuniform coopmat_reduce_bf16 coopmat_length_specop; do
    "$GLSLANG" -V --target-env vulkan1.3 -o $s.tmp.spv $s.comp >/dev/null
    "$COOPVM" dis $s.tmp.spv > $s.spvasm
    rm -f $s.tmp.spv
  done
fi
