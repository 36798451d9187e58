#version 460
// debugPrintfEXT in straight-line code, with the formats the Khronos
// validation layer's DebugPrintf reads (docs/debug_printf.md): d i u x X o,
// a A e E f F g G, flags, width and precision, %% and vectors %vN, and the
// 64-bit %lu %lx %ul.  Two workgroups of four invocations; every message
// ends in a newline so that the layer's stdout output splits into lines.
#extension GL_EXT_debug_printf : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; } o;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    int s = int(i) - 2;
    float f = float(i) * 1.25 - 0.5 + float(g);
    debugPrintfEXT("int %d %i %u %x %X %o|\n", s, s, i + 7u, 255u + i, 3054u * (i + 1u), 8u + i);
    debugPrintfEXT("float %f %F %e %E %g %G %a %A|\n", f, f, f * 1000.0, f, f * 1e-5, f * 1e7, f, f);
    debugPrintfEXT("width [%5d] [%-5d] [%05u] [%8.3f] [%-10.2e] [%+d] [%.0f] 100%%\n", s, s, i, f, f, s, f);
    debugPrintfEXT("vec %v2f | %v3u | %v4x | %1.2v4f\n", vec2(f, -f), uvec3(i, g, i + g),
                   uvec4(10u, 11u + i, 255u, 4096u), vec4(1.2, 2.2, 3.2, f));
    uint64_t big = 0x2000000000000001ul + uint64_t(i);
    debugPrintfEXT("long %lu 0x%lx %ul wg %u\n", big, big, big, g);
    o.data[g * 4u + i] = i;
}
