#version 450 core
// The scope form's divergent selections (exec/jit/jit_scope.c
// mark_divergent): a cooperative-matrix shader with if/else on values that
// differ between invocations, nested, one arm empty, an arm no invocation
// takes, a subgroup-uniform branch around matrix stores (the second
// subgroup stores nothing), a uniform variable and a buffer element with a
// uniform index read inside an arm, and values merged after the branches
// (phis, once spirv-opt has run: scope_branches.opt.spv).
// tests/jit/scope_branches*.amber; EXPECT lines from scope_branches.py.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_shader_subgroup_basic : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer V { float v[]; };   // a 16x16 matrix per workgroup
layout(std430, binding = 1) buffer O { uint o[]; };    // 4 words per invocation
layout(std430, binding = 2) buffer P { uint k; uint bias[]; };
void main()
{
    uint li = gl_LocalInvocationIndex, gi = gl_GlobalInvocationID.x;
    uint base = gl_WorkGroupID.x * 256u;
    uint scale = k + 1u;                    // a uniform variable
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, v, base, 16, gl_CooperativeMatrixLayoutRowMajor);
    uint a = li;
    if ((li & 1u) == 0u) {
        a = a * scale + bias[2];            // uniform index into a buffer, in an arm
        if (li < 8u)
            a += 1000u;
        else
            a += 2000u;
    } else {
        if (li > 100u)                      // taken by none
            a = 7u;
    }
    uint b = 0u;
    if (li % 3u == 0u)
        b = a + scale;                      // the false arm empty
    if (gl_SubgroupID == 0u) {
        m = m * 2.0;
        coopMatStore(m, v, base, 16, gl_CooperativeMatrixLayoutColumnMajor);
    }
    o[gi * 4u + 0u] = a;
    o[gi * 4u + 1u] = b;
    o[gi * 4u + 2u] = scale;
}
