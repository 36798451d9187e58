#version 450 core
// bench_gemm_nv2_workgroup with s8 operands and an s32 accumulator: C (M x
// N, int32) = A (M x K, int8) * B^T (B: N x K int8, read through a
// transposing view); workgroup-scope 64x64 tiles over 128 invocations.
// Every sum is exact (|C| <= K * 128 * 128 = 2^24 for K = 1024).
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint M = 192;
layout(constant_id = 1) const uint N = 128;
layout(constant_id = 2) const uint K = 160;
layout(std430, binding = 0) readonly buffer A { int8_t a[]; };
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };
layout(std430, binding = 2) writeonly buffer C { int32_t c[]; };

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

    coopmat<int32_t, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseAccumulator> acc =
        coopmat<int32_t, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseAccumulator>(0);
    for (uint k = 0; k < K; k += 32u) {
        coopmat<int8_t, gl_ScopeWorkgroup, 64, 32, gl_MatrixUseA> ma;
        coopmat<int8_t, gl_ScopeWorkgroup, 32, 64, gl_MatrixUseB> mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(tA, tm, 64, k, 32));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(tB, tn, 64, k, 32), vT);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tC, tm, 64, tn, 64));
}
