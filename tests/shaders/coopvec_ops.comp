#version 450 core
// Cooperative-vector values (tests/unit/test_coopvec.c, test_value_ops):
// construction (from scalars, vectors, one replicated scalar, a
// specialization-constant length), length(), constant and dynamic element
// access, arithmetic on f16, f32 and integer vectors, vector * scalar,
// bitwise operations and shifts, conversions (from another cooperative
// vector and from a uniform scalar), the GLSL.std.450 functions the GLSL
// text lists, function parameters and return values, a Private variable,
// control flow that merges vectors, and a cooperative vector handed to a
// product.  Every invocation writes its slots of `outp` (one uint32 each).
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 48) in;
layout(constant_id = 0) const uint N = 5;
layout(std430, binding = 0) readonly buffer In { float16_t inh[]; };  // 8 per invocation
layout(std430, binding = 1) readonly buffer InF { float inf32[]; };   // 8 per invocation
layout(std430, binding = 2) readonly buffer W { float16_t w[]; };     // 8x8 row-major
layout(std430, binding = 3) buffer Out { uint outp[]; };              // SLOTS per invocation
layout(push_constant) uniform P { float s; int si; } pc;

const uint SLOTS = 96;
coopvecNV<float16_t, 8> priv;

coopvecNV<float16_t, 8> twice_plus(coopvecNV<float16_t, 8> v, float16_t k)
{
    return v * float16_t(2.0) + coopvecNV<float16_t, 8>(k);
}

uint put_h(uint at, float16_t v) { outp[at] = uint(float16BitsToUint16(v)); return at + 1u; }
uint put_f(uint at, float v) { outp[at] = floatBitsToUint(v); return at + 1u; }

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint o = i * SLOTS;
    coopvecNV<float16_t, 8> a;
    coopVecLoadNV(a, inh, i * 16u);
    coopvecNV<float, 8> f;
    coopVecLoadNV(f, inf32, i * 32u);
    coopvecNV<float16_t, 8> b = coopvecNV<float16_t, 8>(f);          // f32 -> f16
    coopvecNV<float, 8> fa = coopvecNV<float, 8>(a);                  // f16 -> f32

    // arithmetic, f16 (slots 0..7) and f32 (8..15)
    coopvecNV<float16_t, 8> h = (a + b) * (a - b) / (b * b + coopvecNV<float16_t, 8>(float16_t(4.0))) - (-a);
    for (int k = 0; k < 8; k++) o = put_h(o, h[k]);
    coopvecNV<float, 8> g = (fa * f + fa) / (f * f + coopvecNV<float, 8>(1.0)) - (-f);
    g *= 0.75;
    for (int k = 0; k < 8; k++) o = put_f(o, g[k]);

    // GLSL.std.450 on f16 (16..) and f32 (..)
    coopvecNV<float16_t, 8> e1 = max(min(a, b), coopvecNV<float16_t, 8>(float16_t(-0.5)));
    coopvecNV<float16_t, 8> e2 = clamp(a, b, b + coopvecNV<float16_t, 8>(float16_t(1.0)));
    coopvecNV<float16_t, 8> e3 = step(a, b);
    coopvecNV<float16_t, 8> e4 = fma(a, b, h);
    coopvecNV<float16_t, 8> e5 = tanh(a) + atan(b);
    coopvecNV<float16_t, 8> e6 = exp(a * float16_t(0.25)) + log(b * b + coopvecNV<float16_t, 8>(float16_t(1.0)));
    for (int k = 0; k < 8; k++) o = put_h(o, e1[k]);
    for (int k = 0; k < 8; k++) o = put_h(o, e2[k]);
    for (int k = 0; k < 8; k++) o = put_h(o, e3[k]);
    for (int k = 0; k < 8; k++) o = put_h(o, e4[k]);
    for (int k = 0; k < 8; k++) o = put_h(o, e5[k]);
    for (int k = 0; k < 8; k++) o = put_h(o, e6[k]);
    coopvecNV<float, 8> g2 = fma(fa, f, g) + tanh(f) - exp(fa * 0.125) + max(f, fa) * step(f, fa);
    for (int k = 0; k < 8; k++) o = put_f(o, g2[k]);   // 64..71

    // integers: conversions, bit operations, shifts (72..79)
    coopvecNV<int32_t, 8> n = coopvecNV<int32_t, 8>(f * 100.0);        // f32 -> s32, truncating
    coopvecNV<uint32_t, 8> u = coopvecNV<uint32_t, 8>(n);
    coopvecNV<uint32_t, 8> c3 = coopvecNV<uint32_t, 8>(3u);
    u = ((u & coopvecNV<uint32_t, 8>(0xff0fu)) | (u >> c3)) ^ ~(u << (c3 - coopvecNV<uint32_t, 8>(1u)));
    u = u * c3 + coopvecNV<uint32_t, 8>(uint(pc.si));
    coopvecNV<int8_t, 8> n8 = coopvecNV<int8_t, 8>(n);                 // wraps
    coopvecNV<int32_t, 8> back = coopvecNV<int32_t, 8>(n8) - n / coopvecNV<int32_t, 8>(7);
    for (int k = 0; k < 8; k++) { outp[o] = u[k] + uint(back[k]); o++; }

    // construction: scalars, vector pieces, a replicated uniform scalar and
    // a specialization-constant length, length(), dynamic index (80..87)
    coopvecNV<float16_t, 8> c1 = coopvecNV<float16_t, 8>(a[7], a[6], f16vec2(b[0], b[1]),
                                                        float16_t(1.0), f16vec3(a[0]));
    coopvecNV<float16_t, N> cn = coopvecNV<float16_t, N>(float16_t(pc.s));  // FConvert of a uniform
    int len = cn.length() + c1.length();
    uint dyn = i % 8u;
    c1[dyn] = cn[i % N];
    c1[int(dyn + 1u) & 7] += float16_t(len);
    for (int k = 0; k < 8; k++) o = put_h(o, c1[k]);

    // function call, Private variable, control flow, product (88..95)
    priv = twice_plus(a, float16_t(0.5));
    coopvecNV<float16_t, 8> m;
    if ((i & 1u) != 0u)
        m = priv;
    else
        m = b - priv;
    for (uint t = 0u; t < (i % 3u); t++)
        m = m * float16_t(0.5);
    coopvecNV<float16_t, 8> r;
    coopVecMatMulNV(r, m, gl_ComponentTypeFloat16NV, w, 0, gl_ComponentTypeFloat16NV, 8, 8,
                    gl_CooperativeVectorMatrixLayoutRowMajorNV, false, 16);
    for (int k = 0; k < 8; k++) o = put_h(o, r[k]);
}
