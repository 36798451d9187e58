#version 450 core
// Workgroup-scope matrices of flexible sizes (M = 48, N = 80, K = 32,
// P = 16 over 64 invocations; the H200 asks for multiples of 16 at this
// workgroup size, and of 32 rows at 128), through every kind of
// cooperative matrix 2 operation that the corpus runs only at subgroup scope:
// a per-element op with a matrix, a float and an integer extra operand, an
// f32 -> f16 convert, a transpose to MatrixB, and an Accumulator -> MatrixA
// Use conversion feeding a second multiply.
//
// Inputs are small integers, so every product and sum is exact whatever the
// order of accumulation.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
const uint M = 48, N = 80, K = 32, P = 16;
layout(constant_id = 0) const float SCALE = 3.0;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };     // M x K, integers in [-2, 2]
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };     // K x N, integers in [-2, 2]
layout(std430, binding = 2) readonly buffer C { float c[]; };         // M x N, integers in [-16, 16]
layout(std430, binding = 3) readonly buffer B2 { float16_t b2[]; };   // N x P, integers in [-1, 1]
layout(std430, binding = 4) writeonly buffer R { float r[]; };        // M x N: the per-element result
layout(std430, binding = 5) writeonly buffer T { float16_t t[]; };    // N x M: its transpose, in f16
layout(std430, binding = 6) writeonly buffer D { float d[]; };        // M x P: its product with b2

#define WG(T, R, C, U) coopmat<T, gl_ScopeWorkgroup, R, C, U>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor

float mix4(const in uint32_t row, const in uint32_t col, const in float e,
           const in float other, const in float s, const in uint32_t k)
{
    return e * s + float(row) - float(2u * col) + other + float(k);
}

void main()
{
    WG(float16_t, M, K, gl_MatrixUseA) ma;
    WG(float16_t, K, N, gl_MatrixUseB) mb;
    WG(float, M, N, gl_MatrixUseAccumulator) acc = WG(float, M, N, gl_MatrixUseAccumulator)(0.0);
    coopMatLoad(ma, a, 0, K, ROW_MAJOR);
    coopMatLoad(mb, b, 0, N, ROW_MAJOR);
    acc = coopMatMulAdd(ma, mb, acc);

    WG(float, M, N, gl_MatrixUseAccumulator) mc;
    coopMatLoad(mc, c, 0, N, ROW_MAJOR);
    WG(float, M, N, gl_MatrixUseAccumulator) pe;
    coopMatPerElementNV(pe, acc, mix4, mc, SCALE, 5u);
    coopMatStore(pe, r, 0, N, ROW_MAJOR);

    WG(float16_t, M, N, gl_MatrixUseAccumulator) peh = WG(float16_t, M, N, gl_MatrixUseAccumulator)(pe);
    WG(float16_t, N, M, gl_MatrixUseB) tr;
    coopMatTransposeNV(tr, peh);
    coopMatStore(tr, t, 0, M, ROW_MAJOR);

    WG(float16_t, M, N, gl_MatrixUseA) pa = WG(float16_t, M, N, gl_MatrixUseA)(peh);
    WG(float16_t, N, P, gl_MatrixUseB) mb2;
    coopMatLoad(mb2, b2, 0, P, ROW_MAJOR);
    WG(float, M, P, gl_MatrixUseAccumulator) dd = WG(float, M, P, gl_MatrixUseAccumulator)(0.0);
    dd = coopMatMulAdd(pa, mb2, dd);
    coopMatStore(dd, d, 0, P, ROW_MAJOR);
}
