#version 450
// GLSL.std.450 on f32: out[slot * n + i] for invocation i, inputs x, y, z.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Y { float y[]; };
layout(std430, binding = 2) readonly buffer Z { float z[]; };
layout(std430, binding = 3) readonly buffer U { uint u[]; };
layout(std430, binding = 4) writeonly buffer O { float o[]; };
layout(std430, binding = 5) writeonly buffer OU { uint ou[]; };
layout(push_constant) uniform P { uint n; } pc;

void main()
{
    uint i = gl_GlobalInvocationID.x, n = pc.n;
    if (i >= n)
        return;
    float a = x[i], b = y[i], c = z[i];
    uint k = 0u;
#define PUT(v) o[(k++) * n + i] = (v)
    PUT(round(a)); PUT(roundEven(a)); PUT(trunc(a)); PUT(abs(a)); PUT(sign(a));      // 0..4
    PUT(floor(a)); PUT(ceil(a)); PUT(fract(a)); PUT(radians(a)); PUT(degrees(a));    // 5..9
    PUT(sin(a)); PUT(cos(a)); PUT(tan(a)); PUT(asin(a)); PUT(acos(a)); PUT(atan(a)); // 10..15
    PUT(sinh(a)); PUT(cosh(a)); PUT(tanh(a)); PUT(asinh(a)); PUT(acosh(a)); PUT(atanh(a)); // 16..21
    PUT(atan(a, b)); PUT(pow(a, b)); PUT(exp(a)); PUT(log(a)); PUT(exp2(a)); PUT(log2(a)); // 22..27
    PUT(sqrt(a)); PUT(inversesqrt(a)); PUT(min(a, b)); PUT(max(a, b));               // 28..31
    PUT(clamp(a, min(b, c), max(b, c))); PUT(mix(a, b, c)); PUT(step(a, b));          // 32..34
    PUT(smoothstep(min(b, c), max(b, c), a)); PUT(fma(a, b, c));                      // 35, 36
    PUT(ldexp(a, int(u[i] % 61u) - 30));                                               // 37
    int e; float m = frexp(a, e); PUT(m); PUT(float(e));                               // 38, 39
    float w; float fr = modf(a, w); PUT(fr); PUT(w);                                    // 40, 41
    vec3 p = vec3(a, b, c), q = vec3(b, c, a);
    PUT(length(p)); PUT(distance(p, q));                                                // 42, 43
    vec3 cr = cross(p, q); PUT(cr.x); PUT(cr.y); PUT(cr.z);                           // 44..46
    vec3 nm = normalize(p); PUT(nm.x); PUT(nm.y); PUT(nm.z);                          // 47..49
    vec3 ff = faceforward(p, q, vec3(c, a, b)); PUT(ff.x); PUT(ff.y); PUT(ff.z);      // 50..52
    vec3 rf = reflect(p, q); PUT(rf.x); PUT(rf.y); PUT(rf.z);                         // 53..55
    vec3 rr = refract(p, normalize(q), fract(c)); PUT(rr.x); PUT(rr.y); PUT(rr.z);     // 56..58
    vec2 us2 = unpackSnorm2x16(u[i]), uu2 = unpackUnorm2x16(u[i]), uh2 = unpackHalf2x16(u[i]);
    PUT(us2.x); PUT(us2.y); PUT(uu2.x); PUT(uu2.y); PUT(uh2.x); PUT(uh2.y);           // 59..64
    vec4 us4 = unpackSnorm4x8(u[i]), uu4 = unpackUnorm4x8(u[i]);
    PUT(us4.x); PUT(us4.y); PUT(us4.z); PUT(us4.w); PUT(uu4.x); PUT(uu4.y); PUT(uu4.z); PUT(uu4.w); // 65..72
    vec4 v4 = vec4(a, b, c, a * b);
    ou[0u * n + i] = packSnorm4x8(v4); ou[1u * n + i] = packUnorm4x8(v4);
    ou[2u * n + i] = packSnorm2x16(v4.xy); ou[3u * n + i] = packUnorm2x16(v4.zw);
    ou[4u * n + i] = packHalf2x16(v4.xy);
}
