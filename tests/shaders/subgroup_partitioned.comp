#version 450
// SPV_NV_shader_subgroup_partitioned through GL_NV_shader_subgroup_partitioned:
// partitions of integer and float values (active invocations only), and the
// partitioned reduce, inclusive and exclusive scans (tests/unit/test_partitioned.c).
#extension GL_NV_shader_subgroup_partitioned : require
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x = 48) in;

layout(set = 0, binding = 0) readonly buffer Keys { uint key[]; };
layout(set = 0, binding = 1) readonly buffer Floats { float fv[]; };
layout(set = 0, binding = 2) writeonly buffer Parts { uvec4 part[]; };
layout(set = 0, binding = 3) writeonly buffer Results { uint res[]; };
layout(set = 0, binding = 4) writeonly buffer FResults { float fres[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint k = key[i];
    float f = fv[i];
    uvec4 p = subgroupPartitionNV(k);
    part[3 * i + 0] = p;
    res[5 * i + 0] = subgroupPartitionedAddNV(k * 3u + 1u, p);
    res[5 * i + 1] = subgroupPartitionedInclusiveMaxNV(k ^ i, p);
    res[5 * i + 2] = subgroupPartitionedExclusiveAddNV(i, p);
    res[5 * i + 3] = subgroupPartitionedXorNV(i * 7u, p);
    res[5 * i + 4] = subgroupPartitionedInclusiveMinNV(i * 5u % 11u, p);
    uvec4 pf = subgroupPartitionNV(f);
    part[3 * i + 1] = pf;
    fres[2 * i + 0] = subgroupPartitionedAddNV(f * 2.0, pf);
    fres[2 * i + 1] = subgroupPartitionedExclusiveMulNV(float(i % 3u) + 1.0, pf);
    uvec4 pd = uvec4(0xffffffffu);
    if (i % 5u != 2u)
        pd = subgroupPartitionNV(k);
    part[3 * i + 2] = pd;
}
