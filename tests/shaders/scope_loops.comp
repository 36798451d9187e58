#version 450 core
// The scope form's divergent loops (exec/jit/jit_scope.c mark_divergent):
// in a cooperative-matrix shader, loops whose trip count differs between
// invocations -- a for loop, a do-while (its exit at the latch), one that
// no invocation enters and one with an if/else inside -- each run with the
// invocations still in it, the values they leave with merged after it
// (phis, once spirv-opt has run: scope_loops.opt.spv).
// tests/jit/scope_loops*.amber; EXPECT lines from scope_loops.py.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer V { float v[]; };   // a 16x16 matrix per workgroup
layout(std430, binding = 1) buffer O { uint o[]; };    // 4 words per invocation
layout(std430, binding = 2) buffer P { uint k; };
void main()
{
    uint li = gl_LocalInvocationIndex, gi = gl_GlobalInvocationID.x;
    uint base = gl_WorkGroupID.x * 256u;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, v, base, 16, gl_CooperativeMatrixLayoutRowMajor);
    uint s = 0u;
    for (uint i = 0u; i < li % 7u; i++)
        s += i * k + 1u;
    uint t = li;
    do {
        t = t * 3u + 1u;
    } while (t < 100u);
    uint z = 5u;
    for (uint i = li; i < li / 128u; i++)   // entered by none
        z += i;
    uint w = 0u;
    for (uint i = 0u; i < (li & 3u) + 1u; i++) {
        if (((i + li) & 1u) == 0u)
            w += 10u;
        else
            w += 1u;
    }
    m = m * float(k);
    coopMatStore(m, v, base, 16, gl_CooperativeMatrixLayoutRowMajor);
    o[gi * 4u + 0u] = s;
    o[gi * 4u + 1u] = t;
    o[gi * 4u + 2u] = z;
    o[gi * 4u + 3u] = w;
}
