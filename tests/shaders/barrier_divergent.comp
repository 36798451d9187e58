#version 450
// A workgroup barrier reached by only half the invocations: the engine must
// stop with CVM_ERROR_DIVERGENT_COLLECTIVE instead of hanging.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint y[]; };
shared uint s[64];
void main()
{
    uint i = gl_LocalInvocationIndex;
    s[i] = i;
    if (i < 32u)
        barrier();
    y[i] = s[63u - i];
}
