#version 450
// The shader of tests/vulkan/test_icd.c; icd_api.spvasm is glslangValidator -V
// --target-env vulkan1.3 of it, disassembled by coopvm dis.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 4) in;
layout(constant_id = 0) const uint mul = 1;
layout(set = 0, binding = 0) buffer In { uint v[]; } src;
layout(set = 0, binding = 1) buffer Out { uint v[]; } dst;
layout(push_constant) uniform P { uint add; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst.v[i] = src.v[i] * mul + pc.add + gl_SubgroupSize * 65536u;
}
