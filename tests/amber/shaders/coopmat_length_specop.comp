#version 450 core
#pragma use_vulkan_memory_model
#extension GL_NV_cooperative_matrix : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// The length of an NV matrix whose size is a specialization constant is
// itself one (OpSpecConstantOp CooperativeMatrixLengthNV): the elements one
// invocation owns, M*N / subgroup size for these sizes, as at run time (it
// was M*N: the Vulkan CTS's NV length tests stored 128 into int8).
layout(local_size_x = 32) in;
layout(constant_id = 0) const int M = 1;
layout(constant_id = 1) const int N = 1;
layout(set = 0, binding = 0) buffer Out { uint x[]; } outp;
void main()
{
    fcoopmatNV<32, gl_ScopeSubgroup, M, N> m;
    if (gl_LocalInvocationIndex == 0) {
        outp.x[0] = uint(m.length()) * gl_SubgroupSize;
        outp.x[1] = uint(M * N);
    }
}
