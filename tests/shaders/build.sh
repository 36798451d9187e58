#!/bin/sh
# Rebuilds the test shaders (glslangValidator 12 and SPIRV-Tools; not needed
# by the build, the .spv files are committed).
set -e
cd "$(dirname "$0")"
for s in glsl_f32 glsl_f16 glsl_int atomic_float; do
  [ -f $s.comp ] && glslangValidator -V --target-env vulkan1.3 -o $s.spv $s.comp >/dev/null
done
# subgroup_ops: glslang 12 has no subgroupRotate, so slots 21 and 22 are
# written as ShuffleDown by 5 and 6 and rewritten here into
# OpGroupNonUniformRotateKHR by 5, and by 3 with ClusterSize 4.
glslangValidator -V --target-env vulkan1.3 -o subgroup_ops.tmp.spv subgroup_ops.comp >/dev/null
spirv-dis subgroup_ops.tmp.spv | sed \
  -e 's/^\(.*\)OpCapability GroupNonUniformQuad$/&\n\1OpCapability GroupNonUniformRotateKHR\n\1OpExtension "SPV_KHR_subgroup_rotate"/' \
  -e 's/OpGroupNonUniformShuffleDown \(%uint %uint_3 %[0-9a-z_]*\) %uint_5/OpGroupNonUniformRotateKHR \1 %uint_5/' \
  -e 's/OpGroupNonUniformShuffleDown \(%uint %uint_3 %[0-9a-z_]*\) %uint_6/OpGroupNonUniformRotateKHR \1 %uint_3 %uint_4/' \
  > subgroup_ops.tmp.spvasm
spirv-as --target-env vulkan1.3 -o subgroup_ops.spv subgroup_ops.tmp.spvasm
rm -f subgroup_ops.tmp.spv subgroup_ops.tmp.spvasm
# atomic_ops: GLSL has no increment, decrement or subtract atomics; the
# atomicAdd by 12345u, 23456u and 34567u become OpAtomicIIncrement,
# OpAtomicIDecrement and OpAtomicISub by 34567.
glslangValidator -V --target-env vulkan1.3 -o atomic_ops.tmp.spv atomic_ops.comp >/dev/null
spirv-dis atomic_ops.tmp.spv | sed \
  -e 's/OpAtomicIAdd \(%uint %[0-9a-z_]* %uint_1 %uint_0\) %uint_12345/OpAtomicIIncrement \1/' \
  -e 's/OpAtomicIAdd \(%uint %[0-9a-z_]* %uint_1 %uint_0\) %uint_23456/OpAtomicIDecrement \1/' \
  -e 's/OpAtomicIAdd \(%uint %[0-9a-z_]* %uint_1 %uint_0\) %uint_34567/OpAtomicISub \1 %uint_34567/' \
  > atomic_ops.tmp.spvasm
spirv-as --target-env vulkan1.3 -o atomic_ops.spv atomic_ops.tmp.spvasm
rm -f atomic_ops.tmp.spv atomic_ops.tmp.spvasm
# tensor_tiles: needs GL_NV_cooperative_matrix2 (glslang 14 or later).
glslangValidator -V --target-env vulkan1.3 -o tensor_tiles.spv tensor_tiles.comp >/dev/null
for s in *.spv; do spirv-val --target-env vulkan1.3 $s; done
# Shaders that need a current glslang (cooperative matrix 2): built with
# glslang from KhronosGroup/glslang main (16.x), outside this repository.
GLSLANG_NEW=${GLSLANG_NEW:-glslangValidator}
for s in callback_context coopmat_int_scale coopmat_vector_pointee subgroup_partitioned subgroup_partitioned_bad amd_int16 leaf_calls tensor_undefined_state; do
  $GLSLANG_NEW -V --target-env vulkan1.3 -o $s.spv $s.comp >/dev/null
done
# scope_khr, scope_nv2 (the compiled tier's scope form, test_jit): also
# through spirv-opt -O from a current SPIRV-Tools (cooperative matrix
# capabilities), which keeps matrices, tensor layouts and views in phis;
# scope_lanes: a shader the scope form does not take.
SPIRV_OPT_NEW=${SPIRV_OPT_NEW:-spirv-opt}
for s in scope_khr scope_nv2 scope_lanes; do
  $GLSLANG_NEW -V --target-env vulkan1.3 -o $s.spv $s.comp >/dev/null
done
for s in scope_khr scope_nv2; do
  $SPIRV_OPT_NEW -O $s.spv -o $s.opt.spv
done
# uniform_flow: also through spirv-opt -O (test_uniform runs both)
glslangValidator -V --target-env vulkan1.3 -o uniform_flow.spv uniform_flow.comp >/dev/null
spirv-opt -O uniform_flow.spv -o uniform_flow.opt.spv
# leaf_calls_wide: leaf_calls with dequantQ4's byte index computed as
# ((j & 48) >> 1) * 2 + 1 instead of j & 15, and dequantCoords' as the block's
# first code byte zero-extended (both read past their blocks; the range
# analysis of the compiled tier's AND, shift, product, sum and zero-extension
# rules; test_leaf_calls), through coopvm's own dis/as.
{ sed -n 1,8p leaf_calls_wide.spvasm
  ../../build/coopvm dis leaf_calls.spv | awk '/^%dequantQ4_1_u1_2__u1_2__ = OpFunction/ { f = 1 }
    /^%dequantCoords_1_u1_2__u1_2__ = OpFunction/ { g = 1 }
    f && /%186 = OpBitwiseAnd %uint %184 %uint_15/ {
      print "        %rng0 = OpBitwiseAnd %uint %184 %uint_48"
      print "        %rng1 = OpShiftRightLogical %uint %rng0 %uint_1"
      print "        %rng2 = OpIMul %uint %rng1 %uint_2"
      print "        %186 = OpIAdd %uint %rng2 %uint_1"
      f = 0; next }
    g && /%215 = OpBitwiseAnd %uint %214 %uint_15/ {
      print "        %rng3 = OpAccessChain %_ptr_PhysicalStorageBuffer_uchar %b_11 %int_0 %int_1 %int_0"
      print "        %rng4 = OpLoad %uchar %rng3 Aligned 1"
      print "        %215 = OpUConvert %uint %rng4"
      g = 0; next }
    { print }'
} > leaf_calls_wide.tmp.spvasm && mv leaf_calls_wide.tmp.spvasm leaf_calls_wide.spvasm
../../build/coopvm as leaf_calls_wide.spvasm -o leaf_calls_wide.spv
