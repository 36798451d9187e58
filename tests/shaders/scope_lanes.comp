#version 450 core
// The scope form with values of each invocation (exec/jit/jit.h
// cvm_jit_scope_lanes): a cooperative-matrix shader whose other values
// differ between invocations, run by their handlers over the workgroup:
// built-ins, a Function array of each invocation, the invocation's own
// elements of a matrix (OpCooperativeMatrixLengthKHR, the same in every
// invocation here), a value carried through a loop (a phi once
// spirv-opt has run: scope_lanes.opt.spv), a subgroup reduction and
// atomics.  tests/jit/scope_lanes*.amber; with a partial last subgroup
// (SPECIALIZE 0 = 48) Length differs between subgroups and the loop over
// it is a branch on a value of each invocation: interpreted.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) buffer V { float v[]; };  // a 16x16 matrix per subgroup
layout(std430, binding = 1) buffer O { uint o[]; };   // 8 words per invocation
layout(std430, binding = 2) buffer C { uint c[]; };   // a counter per workgroup
void main()
{
    uint li = gl_LocalInvocationIndex, gi = gl_GlobalInvocationID.x;
    uint tile = (gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID) * 256u;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, v, tile, 16, gl_CooperativeMatrixLayoutRowMajor);
    float mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = float(li * 8u + uint(i)) * 0.5;
    for (int i = 0; i < m.length(); i++)
        m[i] = m[i] * 2.0 + mine[i % 8];
    coopMatStore(m, v, tile, 16, gl_CooperativeMatrixLayoutColumnMajor);
    uint acc = gi;
    for (uint k = 0u; k < 5u; k++)
        acc = acc * 3u + k + uint(mine[k]);
    uint s = subgroupAdd(li);
    uint turn = atomicAdd(c[gl_WorkGroupID.x], 1u);
    o[gi * 8u + 0u] = li * 3u;
    o[gi * 8u + 1u] = acc;
    o[gi * 8u + 2u] = s;
    o[gi * 8u + 3u] = turn;
    o[gi * 8u + 4u] = uint(m.length());
    o[gi * 8u + 5u] = floatBitsToUint(mine[li % 8u]);
}
