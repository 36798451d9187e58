#version 450
// Writes y[i + offset]: an offset from the push constants moves the last
// invocations past the end of the buffer.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Out { uint y[]; };
layout(push_constant) uniform P { uint offset; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    y[i + pc.offset] = i;
}
