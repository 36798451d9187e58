#version 450
// Shared memory and a uniform barrier: each invocation reads what another
// wrote before the barrier.
layout(local_size_x = 96) in;
layout(std430, binding = 0) buffer Out { uint y[]; };
shared uint s[96];
void main()
{
    uint i = gl_LocalInvocationIndex;
    s[i] = i * 7u + gl_WorkGroupID.x;
    barrier();
    y[gl_GlobalInvocationID.x] = s[95u - i];
}
