#version 450
// GLSL.std.450 on f16 (computed in double, rounded once): out[slot * n + i].
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable
#extension GL_EXT_shader_16bit_storage : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float16_t x[]; };
layout(std430, binding = 1) readonly buffer Y { float16_t y[]; };
layout(std430, binding = 2) readonly buffer Z { float16_t z[]; };
layout(std430, binding = 4) writeonly buffer O { float16_t o[]; };
layout(push_constant) uniform P { uint n; } pc;

void main()
{
    uint i = gl_GlobalInvocationID.x, n = pc.n;
    if (i >= n)
        return;
    float16_t a = x[i], b = y[i], c = z[i];
    uint k = 0u;
#define PUT(v) o[(k++) * n + i] = (v)
    PUT(round(a)); PUT(floor(a)); PUT(ceil(a)); PUT(fract(a)); PUT(radians(a));      // 0..4
    PUT(sin(a)); PUT(cos(a)); PUT(tan(a)); PUT(asin(a)); PUT(acos(a)); PUT(atan(a)); // 5..10
    PUT(sinh(a)); PUT(cosh(a)); PUT(tanh(a)); PUT(asinh(a)); PUT(acosh(a)); PUT(atanh(a)); // 11..16
    PUT(atan(a, b)); PUT(pow(a, b)); PUT(exp(a)); PUT(log(a)); PUT(exp2(a)); PUT(log2(a)); // 17..22
    PUT(sqrt(a)); PUT(inversesqrt(a)); PUT(min(a, b)); PUT(max(a, b));               // 23..26
    PUT(mix(a, b, c)); PUT(fma(a, b, c));                                              // 27, 28
    f16vec3 p = f16vec3(a, b, c);
    PUT(length(p)); f16vec3 nm = normalize(p); PUT(nm.x); PUT(nm.y); PUT(nm.z);      // 29..32
    f16vec2 v2 = sin(f16vec2(a, b)); PUT(v2.x); PUT(v2.y);                           // 33, 34
}
