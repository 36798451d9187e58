#version 450 core
// A cooperative-matrix shader the compiled tier's scope form does not take
// (test_jit.c): besides the matrix copy, each invocation writes its own
// index, a value that differs between invocations.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer V { float v[]; };
layout(std430, binding = 1) buffer O { uint o[]; };
void main()
{
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, v, gl_WorkGroupID.x * 256u, 16, gl_CooperativeMatrixLayoutRowMajor);
    m = m * 2.0;
    coopMatStore(m, v, gl_WorkGroupID.x * 256u, 16, gl_CooperativeMatrixLayoutColumnMajor);
    o[gl_GlobalInvocationID.x] = gl_LocalInvocationIndex * 3u;
}
