#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of uniform and storage blocks indexed dynamically and
// non-uniformly (shaderUniformBufferArrayDynamicIndexing,
// VK_EXT_descriptor_indexing), bound with BUFFER_ARRAY, one of them a
// uniform_dynamic buffer with a dynamic offset.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform U { uint u; } ubos[3];
layout(set = 0, binding = 1) buffer S { uint s[]; } ssbos[2];
layout(set = 0, binding = 2) buffer Out { uint o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex;
    uint k = i % 3u;
    o[i] = ubos[nonuniformEXT(k)].u * 100u + ssbos[nonuniformEXT(i & 1u)].s[i] + ubos[1].u;
}
