#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// Cooperative-matrix loads whose values nothing reads, from out of bounds
// of workgroup memory (as the Vulkan CTS's workgroup-storage tests load a
// matC they never use): they must not stop the dispatch.  The live load
// beside them must still be run.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { float x[]; } inp;
layout(set = 0, binding = 1) buffer Out { float x[]; } outp;
shared float sh[16];
coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> matA;
coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> matC; // stored, never read
void main()
{
    if (gl_LocalInvocationIndex < 16)
        sh[gl_LocalInvocationIndex] = inp.x[gl_LocalInvocationIndex];
    barrier();
    coopMatLoad(matA, sh, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
    // rows 1..3 at elements 16..51: past the 16 floats of workgroup memory
    coopMatLoad(matC, sh, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    // a tensor load reads the matrix it loads into (its Object operand):
    // the value goes round a Function variable and is still never used
    coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> matT;
    tensorLayoutNV<2> t = createTensorLayoutNV(2);
    t = setTensorLayoutDimensionNV(t, 4, 16); // rows 16 elements apart
    t = sliceTensorLayoutNV(t, 0, 4, 0, 4);   // the span of the matrix
    for (int i = 0; i < 2; i++)
        coopMatLoadTensorNV(matT, sh, 0, t);
    // copied into an array that nothing reads (element stores through
    // access chains), as the CTS's composite_array tests copy matC
    coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator> matD, arr[2];
    coopMatLoad(matD, sh, 4, 16, gl_CooperativeMatrixLayoutRowMajor);
    arr[1] = matD;
    arr[0] = coopmat<float, gl_ScopeSubgroup, 4, 4, gl_MatrixUseAccumulator>(0.0);
    matA = matA * 2.0 + matA;
    if (gl_SubgroupID == 0)
        coopMatStore(matA, outp.x, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
}
