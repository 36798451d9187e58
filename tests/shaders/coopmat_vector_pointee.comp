#version 450 core
// Cooperative-matrix load and store through vector pointees whose rows are
// shorter than one vector or end inside one (test_coopmat_khr.c): the sizes
// 1x1, 1x3, 3x1 that a flexible-dimension granularity of 1 lets the Vulkan
// CTS use. SPV_KHR_cooperative_matrix: row r starts at Pointer[r * Stride],
// in units of the pointee (an f16vec2 or f16vec4), and its N elements are
// contiguous from there; the rest of a vector a row does not cover is not
// touched by a store. With ThroughShared, the same through f16vec2 and
// f16vec4 arrays in workgroup memory (src copied in first, dst copied out).
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x_id = 6) in;
layout(constant_id = 0) const int M = 1;
layout(constant_id = 1) const int N = 1;
layout(constant_id = 2) const uint LoadOffset = 0;   // in f16vec2
layout(constant_id = 3) const uint LoadStride = 1;   // in f16vec2
layout(constant_id = 4) const uint StoreOffset = 0;  // in f16vec4
layout(constant_id = 5) const uint StoreStride = 1;  // in f16vec4
layout(std430, binding = 0) readonly buffer Src { f16vec2 src[]; };
layout(std430, binding = 1) buffer Dense { float16_t dense[]; };  // M x N, row-major, stride N
layout(std430, binding = 2) buffer Dst { f16vec4 dst[]; };
layout(constant_id = 7) const bool ThroughShared = false;
shared f16vec2 shSrc[32];
shared f16vec4 shDst[16];

void main()
{
    coopmat<float16_t, gl_ScopeSubgroup, M, N, gl_MatrixUseA> m;
    if (ThroughShared) {
        // the workgroup is one subgroup of at least 4 invocations
        for (uint i = gl_LocalInvocationID.x; i < 32; i += gl_WorkGroupSize.x)
            shSrc[i] = src[i];
        for (uint i = gl_LocalInvocationID.x; i < 16; i += gl_WorkGroupSize.x)
            shDst[i] = dst[i];
        barrier();
        coopMatLoad(m, shSrc, LoadOffset, LoadStride, gl_CooperativeMatrixLayoutRowMajor);
        coopMatStore(m, dense, 0, N, gl_CooperativeMatrixLayoutRowMajor);
        coopMatStore(m, shDst, StoreOffset, StoreStride, gl_CooperativeMatrixLayoutRowMajor);
        barrier();
        for (uint i = gl_LocalInvocationID.x; i < 16; i += gl_WorkGroupSize.x)
            dst[i] = shDst[i];
    } else {
        coopMatLoad(m, src, LoadOffset, LoadStride, gl_CooperativeMatrixLayoutRowMajor);
        coopMatStore(m, dense, 0, N, gl_CooperativeMatrixLayoutRowMajor);
        coopMatStore(m, dst, StoreOffset, StoreStride, gl_CooperativeMatrixLayoutRowMajor);
    }
}
