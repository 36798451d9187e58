#version 450 core
// Integer cooperative matrices times a scalar (OpMatrixTimesScalar on int32
// and uint32 components; test_coopmat_khr.c): the product is taken modulo
// 2^32 like OpIMul, also where it needs more than 53 bits.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer I32 { int32_t i32[]; };   // 2 x 256, scaled in place
layout(std430, binding = 1) buffer U32 { uint32_t u32[]; };  // 2 x 256
layout(push_constant) uniform P { int32_t si; uint32_t su; } pc;
#define MAT(T) coopmat<T, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>

void main()
{
    uint32_t off = gl_SubgroupID * 256u;
    MAT(int32_t) mi;
    coopMatLoad(mi, i32, off, 16, gl_CooperativeMatrixLayoutRowMajor);
    mi = mi * pc.si;
    coopMatStore(mi, i32, off, 16, gl_CooperativeMatrixLayoutRowMajor);
    MAT(uint32_t) mu;
    coopMatLoad(mu, u32, off, 16, gl_CooperativeMatrixLayoutRowMajor);
    mu = mu * pc.su;
    coopMatStore(mu, u32, off, 16, gl_CooperativeMatrixLayoutRowMajor);
}
