#version 450 core
// bench_gemm_nv2_workgroup with bf16 operands: C (M x N, f32) = A (M x K,
// bf16) * B^T (B: N x K bf16, read through a transposing view), f32
// accumulator, workgroup-scope 64x64 tiles over 128 invocations.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_bfloat16 : enable
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint M = 192;
layout(constant_id = 1) const uint N = 128;
layout(constant_id = 2) const uint K = 160;
layout(std430, binding = 0) readonly buffer A { bfloat16_t a[]; };
layout(std430, binding = 1) readonly buffer B { bfloat16_t b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };

void main()
{
    uint tm = gl_WorkGroupID.y * 64u, tn = gl_WorkGroupID.x * 64u;
    tensorLayoutNV<2> tA = createTensorLayoutNV(2);
    tensorLayoutNV<2> tB = createTensorLayoutNV(2);
    tensorLayoutNV<2> tC = createTensorLayoutNV(2);
    tA = setTensorLayoutDimensionNV(tA, M, K);
    tB = setTensorLayoutDimensionNV(tB, N, K);
    tC = setTensorLayoutDimensionNV(tC, M, N);
    tensorViewNV<2, false, 1, 0> vT = createTensorViewNV(2, false, 1, 0);

    coopmat<float, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0; k < K; k += 32u) {
        coopmat<bfloat16_t, gl_ScopeWorkgroup, 64, 32, gl_MatrixUseA> ma;
        coopmat<bfloat16_t, gl_ScopeWorkgroup, 32, 64, gl_MatrixUseB> mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(tA, tm, 64, k, 32));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(tB, tn, 64, k, 32), vT);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tC, tm, 64, tn, 64));
}
