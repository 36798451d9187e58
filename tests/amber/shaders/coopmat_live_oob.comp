#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// The load of coopmat_dead_load.comp that reads past workgroup memory, with
// its value used: the dispatch must stop with an out-of-bounds error.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { float x[]; } inp;
layout(set = 0, binding = 1) buffer Out { float x[]; } outp;
shared float sh[16];
coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> matA;
coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> matC;
void main()
{
    if (gl_LocalInvocationIndex < 16)
        sh[gl_LocalInvocationIndex] = inp.x[gl_LocalInvocationIndex];
    barrier();
    coopMatLoad(matA, sh, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
    // rows 1..3 at elements 16..51: past the 16 floats of workgroup memory
    coopMatLoad(matC, sh, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    matA = matA * 2.0 + matC;
    if (gl_SubgroupID == 0)
        coopMatStore(matA, outp.x, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
}
