#version 450 core
// A KHR cooperative-matrix GEMM whose buffers are reached only through
// device addresses held in a uniform block, the way
// vk_cooperative_matrix_perf's shmem.comp takes its operands: no storage
// buffer is declared. D = A * B + C with A (M x K, row-major), B (K x N,
// column-major), C and D (M x N, row-major); one 16x16 tile of D per
// subgroup, K walked in steps of 16. Inputs are small integers: every
// product and sum is exact.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
#extension GL_KHR_shader_subgroup_basic : enable
layout(local_size_x = 64) in;   // two subgroups: two tiles of D per workgroup

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer HalfBuf { float16_t x[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer FloatBufIn { float x[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer FloatBufOut { float x[]; };

layout(set = 0, binding = 0, std140) uniform Params {
    HalfBuf a;
    HalfBuf b;
    FloatBufIn c;
    FloatBufOut d;
    uint32_t M, N, K;
    float alpha;
} params;

const uint T = 16;

void main()
{
    uint32_t tilesN = params.N / T;
    uint32_t tile = gl_WorkGroupID.x * 2u + gl_SubgroupID;
    uint32_t ti = tile / tilesN, tj = tile % tilesN;
    coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc;
    coopMatLoad(acc, params.c.x, ti * T * params.N + tj * T, params.N, gl_CooperativeMatrixLayoutRowMajor);
    for (uint32_t k = 0u; k < params.K; k += T) {
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> mb;
        coopMatLoad(ma, params.a.x, ti * T * params.K + k, params.K, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, params.b.x, tj * T * params.K + k, params.K, gl_CooperativeMatrixLayoutColumnMajor);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    acc = acc * params.alpha;
    coopMatStore(acc, params.d.x, ti * T * params.N + tj * T, params.N, gl_CooperativeMatrixLayoutRowMajor);
}
