#version 450
// A partitioned operation whose ballot is not a valid partition (each
// invocation's ballot holds only the next invocation, not itself): an error
// (tests/unit/test_partitioned.c).
#extension GL_NV_shader_subgroup_partitioned : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x = 8) in;
layout(set = 0, binding = 0) writeonly buffer Results { uint res[]; };

void main()
{
    uint i = gl_SubgroupInvocationID;
    uvec4 b = uvec4(0u);
    b.x = 1u << ((i + 1u) % 8u);
    res[i] = subgroupPartitionedAddNV(1u, b);
}
