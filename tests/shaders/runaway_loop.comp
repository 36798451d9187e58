#version 450
// Loops forever when n is 0: the instruction budget must end it.
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Out { uint y[]; };
layout(push_constant) uniform P { uint n; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint k = 0u;
    while (k != 1000u) {
        k += pc.n;
        y[i] = k;
    }
}
