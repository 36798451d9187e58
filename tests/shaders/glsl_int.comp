#version 450
// GLSL.std.450 integer instructions, Determinant/MatrixInverse, PackDouble.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { int a[]; };
layout(std430, binding = 1) readonly buffer B { int b[]; };
layout(std430, binding = 2) readonly buffer C { int c[]; };
layout(std430, binding = 3) readonly buffer M { float m[]; };
layout(std430, binding = 4) writeonly buffer O { int o[]; };
layout(std430, binding = 5) writeonly buffer OF { float of[]; };
layout(push_constant) uniform P { uint n; } pc;

void main()
{
    uint i = gl_GlobalInvocationID.x, n = pc.n;
    if (i >= n)
        return;
    int x = a[i], y = b[i], z = c[i];
    uint ux = uint(x), uy = uint(y), uz = uint(z);
    uint k = 0u;
#define PUT(v) o[(k++) * n + i] = int(v)
    PUT(abs(x)); PUT(sign(x)); PUT(min(x, y)); PUT(max(x, y)); PUT(min(ux, uy)); PUT(max(ux, uy)); // 0..5
    PUT(clamp(x, min(y, z), max(y, z))); PUT(clamp(ux, min(uy, uz), max(uy, uz)));               // 6, 7
    PUT(findLSB(x)); PUT(findMSB(x)); PUT(findMSB(ux));                                          // 8..10
    ivec2 v = max(ivec2(x, y), ivec2(z, x)); PUT(v.x); PUT(v.y);                                // 11, 12
    uint j = i * 16u;
    mat2 m2 = mat2(m[j], m[j + 1u], m[j + 2u], m[j + 3u]);
    mat3 m3 = mat3(m[j], m[j + 1u], m[j + 2u], m[j + 3u], m[j + 4u], m[j + 5u], m[j + 6u], m[j + 7u], m[j + 8u]);
    mat4 m4 = mat4(m[j], m[j + 1u], m[j + 2u], m[j + 3u], m[j + 4u], m[j + 5u], m[j + 6u], m[j + 7u],
                   m[j + 8u], m[j + 9u], m[j + 10u], m[j + 11u], m[j + 12u], m[j + 13u], m[j + 14u], m[j + 15u]);
    uint f = 0u;
    of[(f++) * n + i] = determinant(m2); of[(f++) * n + i] = determinant(m3); of[(f++) * n + i] = determinant(m4);
    mat4 inv = inverse(m4);
    for (int cc = 0; cc < 4; cc++)
        for (int r = 0; r < 4; r++)
            of[(f++) * n + i] = inv[cc][r];
}
