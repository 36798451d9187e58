#version 450
#extension GL_EXT_shared_memory_block : require
// SPV_KHR_workgroup_memory_explicit_layout: all Workgroup Blocks share one
// storage, so what one view writes the other reads (issue 14: aliased
// workgroup variables read back zeros).
layout(local_size_x = 16) in;

shared Words { uint w[16]; };
shared Quads { uvec4 q[4]; };

layout(std430, set = 0, binding = 0) buffer Data {
    uint data[16];
};

void main()
{
    uint i = gl_LocalInvocationIndex;
    w[i] = data[i] * 3u + 1u;
    barrier();
    data[i] = q[i / 4u][i % 4u];
}
