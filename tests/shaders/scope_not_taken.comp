#version 450 core
// A cooperative-matrix shader the compiled tier's scope form does not take
// (tests/tiers.cmake, test_jit.c): a loop inside a branch on a value that
// differs between invocations.  The interpreter runs it.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer V { float v[]; };   // a 16x16 matrix
layout(std430, binding = 1) buffer O { uint o[]; };    // a word per invocation
void main()
{
    uint li = gl_LocalInvocationIndex;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, v, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    m = m * 2.0;
    coopMatStore(m, v, 0, 16, gl_CooperativeMatrixLayoutColumnMajor);
    uint s = 0u;
    if (li < 16u)
        for (uint i = 0u; i < li; i++)
            s += i;
    o[li] = s;
}
