#version 460
// An out-of-bounds store on line 9, for the test that errors name the
// source line (compiled with -g: OpLine, and with -gVS: DebugLine).
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; } o;

void main()
{
    o.data[gl_LocalInvocationIndex * 100u] = 7u;
}
