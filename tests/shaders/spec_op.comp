#version 450
// Specialization-constant expressions: glslang emits OpSpecConstantOp for
// them; the engine evaluates them at pipeline creation.
layout(local_size_x = 8) in;
layout(constant_id = 0) const uint A = 3u;
layout(constant_id = 1) const uint B = 5u;
const uint SUM = A + B;
const uint PROD = A * B;
const uint SHIFTED = (A << 2u) | B;
layout(std430, binding = 0) buffer Out { uint y[]; };
void main()
{
    uint i = gl_LocalInvocationIndex;
    y[i] = SUM * 100u + PROD + (i == 0u ? SHIFTED : 0u);
}
