#version 450
// SPV_AMD_gpu_shader_int16 through GL_AMD_gpu_shader_int16: Frexp of f16
// values with 16-bit integer exponents (glslang writes FrexpStruct, scalar
// and vector), and OpSpecConstantOp UConvert to 16 bits
// (tests/unit/test_amd_int16.c).
#extension GL_AMD_gpu_shader_int16 : require
#extension GL_AMD_gpu_shader_half_float : require

layout(local_size_x = 8) in;
layout(constant_id = 0) const uint SC = 70000u;
const uint16_t SC16 = uint16_t(SC);

layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer OutF { float m[]; };
layout(set = 0, binding = 2) writeonly buffer OutI { int e[]; };

void main()
{
    uint i = gl_LocalInvocationIndex;
    int16_t e1;
    float m1 = float(frexp(float16_t(x[i]), e1));
    i16vec2 e2;
    f16vec2 m2 = frexp(f16vec2(x[i] * 3.0, -x[i] / 1024.0), e2);
    m[3 * i + 0] = m1;
    m[3 * i + 1] = m2.x;
    m[3 * i + 2] = m2.y;
    e[4 * i + 0] = int(e1);
    e[4 * i + 1] = int(e2.x);
    e[4 * i + 2] = int(e2.y);
    e[4 * i + 3] = int(SC16);
}
