#version 450 core
// Reductions whose result has another size than the source, which the corpus
// does not reach (reduce_convert keeps the size except for 2x2): Row into
// fewer and more columns, Column into fewer and more rows, Row|Column into
// smaller, larger and non-square results, 2x2 of non-square matrices, in f32
// and f16, at subgroup and at workgroup scope.
//
// Inputs are small integers, so every sum is exact whatever the order in
// which the implementation combines elements.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };          // 32x32, integers in [-16, 16]
layout(std430, binding = 1) readonly buffer H { float16_t h[]; };      // 16x16, integers in [-4, 4]
layout(std430, binding = 2) writeonly buffer O { float o[]; };         // f32 results, row-major
layout(std430, binding = 3) writeonly buffer OH { float16_t oh[]; };   // f16 results, row-major

float fadd(const in float x, const in float y) { return x + y; }
float fmax2(const in float x, const in float y) { return max(x, y); }
float fmin2(const in float x, const in float y) { return min(x, y); }
float16_t hadd(const in float16_t x, const in float16_t y) { return x + y; }
float16_t hmax2(const in float16_t x, const in float16_t y) { return max(x, y); }
float16_t hmin2(const in float16_t x, const in float16_t y) { return min(x, y); }

#define SG(T, R, C) coopmat<T, gl_ScopeSubgroup, R, C, gl_MatrixUseAccumulator>
#define WG(T, R, C) coopmat<T, gl_ScopeWorkgroup, R, C, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#define ROW gl_CooperativeMatrixReduceRowNV
#define COL gl_CooperativeMatrixReduceColumnNV
#define ALL gl_CooperativeMatrixReduceRowAndColumnNV
#define QUAD gl_CooperativeMatrixReduce2x2NV

// f32 result offsets in o (elements)
const uint S0 = 0, S1 = S0 + 16 * 8, S2 = S1 + 16 * 32, S3 = S2 + 8 * 16, S4 = S3 + 32 * 16;
const uint S5 = S4 + 8 * 8, S6 = S5 + 32 * 16, S7 = S6 + 16 * 16, S8 = S7 + 16 * 8;
const uint W0 = S8 + 8 * 16, W1 = W0 + 32 * 16, W2 = W1 + 16 * 32, W3 = W2 + 16 * 32;
const uint O_END = W3 + 16 * 16;   // 4160
// f16 result offsets in oh
const uint H0 = 0, H1 = H0 + 16 * 32, H2 = H1 + 8 * 16, H3 = H2 + 8 * 16;
const uint OH_END = H3 + 8 * 8;    // 832

void main()
{
    // Subgroup scope: the first subgroup only (a subgroup-uniform branch).
    if (gl_SubgroupID == 0u) {
        SG(float, 16, 16) m;
        coopMatLoad(m, a, 0, 32, ROW_MAJOR);              // rows 0..15, columns 0..15

        SG(float, 16, 8) s0;   coopMatReduceNV(s0, m, ROW, fadd);
        coopMatStore(s0, o, S0, 8, ROW_MAJOR);
        SG(float, 16, 32) s1;  coopMatReduceNV(s1, m, ROW, fmax2);
        coopMatStore(s1, o, S1, 32, ROW_MAJOR);
        SG(float, 8, 16) s2;   coopMatReduceNV(s2, m, COL, fadd);
        coopMatStore(s2, o, S2, 16, ROW_MAJOR);
        SG(float, 32, 16) s3;  coopMatReduceNV(s3, m, COL, fmin2);
        coopMatStore(s3, o, S3, 16, ROW_MAJOR);
        SG(float, 8, 8) s4;    coopMatReduceNV(s4, m, ALL, fadd);
        coopMatStore(s4, o, S4, 8, ROW_MAJOR);
        SG(float, 32, 16) s5;  coopMatReduceNV(s5, m, ALL, fmax2);
        coopMatStore(s5, o, S5, 16, ROW_MAJOR);

        SG(float, 32, 32) big;
        coopMatLoad(big, a, 0, 32, ROW_MAJOR);
        SG(float, 16, 16) s6;  coopMatReduceNV(s6, big, ALL, fadd);
        coopMatStore(s6, o, S6, 16, ROW_MAJOR);

        SG(float, 32, 16) tall;
        coopMatLoad(tall, a, 16, 32, ROW_MAJOR);          // rows 0..31, columns 16..31
        SG(float, 16, 8) s7;   coopMatReduceNV(s7, tall, QUAD, fadd);
        coopMatStore(s7, o, S7, 8, ROW_MAJOR);
        SG(float, 16, 32) wide;
        coopMatLoad(wide, a, 16 * 32, 32, ROW_MAJOR);     // rows 16..31, columns 0..31
        SG(float, 8, 16) s8;   coopMatReduceNV(s8, wide, QUAD, fmax2);
        coopMatStore(s8, o, S8, 16, ROW_MAJOR);

        SG(float16_t, 16, 16) mh;
        coopMatLoad(mh, h, 0, 16, ROW_MAJOR);
        SG(float16_t, 16, 32) h0; coopMatReduceNV(h0, mh, ROW, hadd);
        coopMatStore(h0, oh, H0, 32, ROW_MAJOR);
        SG(float16_t, 8, 16) h1;  coopMatReduceNV(h1, mh, ALL, hadd);
        coopMatStore(h1, oh, H1, 16, ROW_MAJOR);
        SG(float16_t, 8, 16) h2;  coopMatReduceNV(h2, mh, COL, hmin2);
        coopMatStore(h2, oh, H2, 16, ROW_MAJOR);
        SG(float16_t, 8, 8) h3;   coopMatReduceNV(h3, mh, QUAD, hmax2);
        coopMatStore(h3, oh, H3, 8, ROW_MAJOR);
    }

    // Workgroup scope: all 64 invocations share each matrix.
    WG(float, 32, 32) w;
    coopMatLoad(w, a, 0, 32, ROW_MAJOR);
    WG(float, 32, 16) w0;  coopMatReduceNV(w0, w, ROW, fadd);
    coopMatStore(w0, o, W0, 16, ROW_MAJOR);
    WG(float, 16, 32) w1;  coopMatReduceNV(w1, w, ALL, fmin2);
    coopMatStore(w1, o, W1, 32, ROW_MAJOR);
    WG(float, 16, 32) w2;  coopMatReduceNV(w2, w, COL, fmax2);
    coopMatStore(w2, o, W2, 32, ROW_MAJOR);
    WG(float, 16, 16) w3;  coopMatReduceNV(w3, w, QUAD, fadd);
    coopMatStore(w3, o, W3, 16, ROW_MAJOR);
}
