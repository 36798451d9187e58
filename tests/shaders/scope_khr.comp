#version 450 core
// The compiled tier's scope form (test_jit.c): a KHR cooperative matrix
// GEMM whose every value outside the matrices is uniform across the
// workgroup: a loop with a uniform bound, a uniform if and switch, an
// element-wise matrix operation, conversions, a round trip through
// Workgroup memory between barriers, and uniform scalar results.  Two or
// more subgroups per workgroup compute the same tile (scope instances).
// Push constants: K, `extra` added to A's offset (past the end: out of
// bounds), `spin` (nonzero: the loop never ends), alpha.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
layout(std430, binding = 3) buffer O { uint o[]; };
layout(push_constant) uniform P { uint K; uint extra; uint spin; float alpha; } pc;
shared float16_t sh[256];

void main()
{
    uint tm = gl_WorkGroupID.y * 16u, tn = gl_WorkGroupID.x * 16u;
    uint N = gl_NumWorkGroups.x * 16u, M = gl_NumWorkGroups.y * 16u;
    uint K = pc.K;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    uint k = 0u, count = 0u;
    while (k < K) {
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
        coopMatLoad(ma, a, tm * K + k + pc.extra, K, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, b, tn * K + k, K, gl_CooperativeMatrixLayoutColumnMajor);
        if (((k / 16u) & 1u) == 0u)
            acc = coopMatMulAdd(ma, mb, acc);
        else
            acc = coopMatMulAdd(ma, mb, acc * 0.5);
        k += 16u;
        count++;
        if (pc.spin != 0u)
            k = 0u;
    }
    switch ((gl_WorkGroupID.x + gl_WorkGroupID.y) % 3u) {
    case 0u:
        acc = acc * pc.alpha;
        break;
    case 1u:
        acc = -acc;
        break;
    default:
        break;
    }
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> h =
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(acc);
    coopMatStore(h, sh, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    barrier();
    coopMatLoad(h, sh, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);
    barrier();
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> t =
        coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(h);
    coopMatStore(acc, c, tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(t, c, M * N + tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
    o[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = count * 1000u + N;
}
