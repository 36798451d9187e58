#version 460
// debugPrintfEXT where invocations diverge: both sides of an if, a nested
// if, a loop whose trip count differs per invocation, a switch, an early
// return, and a subgroup reduction printed after the branches reconverge.
#extension GL_EXT_debug_printf : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 8) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; } o;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    if ((i & 1u) == 0u) {
        debugPrintfEXT("even %u in wg %u\n", i, g);
        if (i >= 4u)
            debugPrintfEXT("even and high %u\n", i);
    } else {
        debugPrintfEXT("odd %u: %d\n", i, int(i) * -3);
    }
    for (uint k = 0u; k < i % 3u; k++)
        debugPrintfEXT("loop %u iteration %u\n", i, k);
    uint total = subgroupAdd(i + 10u * g);
    debugPrintfEXT("wg %u subgroup sum %u\n", g, total);
    switch (i) {
    case 3u:
        debugPrintfEXT("three in wg %u\n", g);
        break;
    case 5u:
        o.data[g * 8u + i] = 99u;
        return;
    default:
        break;
    }
    debugPrintfEXT("after %u\n", i);
    o.data[g * 8u + i] = i;
}
