#version 450 core
// SPV_QCOM_cooperative_matrix_conversion beyond qcom_rows: two 32-wide
// subgroups per workgroup, each building its own matrices from
// per-invocation arrays (rows of MatrixA and of the accumulator, columns of
// MatrixB), with fewer rows (16) and columns (24, 16) than invocations, so
// the arrays of the invocations past them must be ignored.
//   int8:  A s8 16x32 from packed uint32 rows, B s8 32x24 from s8 columns,
//          C s32 16x24 from int rows; D = A*B + C stored through the KHR
//          store, and its rows extracted in the packed (uint32) form.
//   float: A f32 16x8 from packed uint32 rows (float bits), B f32 8x16 from
//          columns cut out of a longer per-invocation array at a run-time
//          start index (extractSubArrayQCOM); E = A*B stored through the KHR
//          store, converted to an f16 accumulator and its rows extracted
//          packed (two f16 a word) and unpacked, the latter bit-cast to
//          uint32 (bitcastQCOM): both must give the same words.
// Invocations past the 16 rows take part in every collective instruction
// but write nothing (their extracted arrays are undefined).
#pragma use_vulkan_memory_model
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_shader_8bit_storage : enable
#extension GL_QCOM_cooperative_matrix_conversion : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint32_t a[]; };   // 8 words an invocation
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };     // 32 an invocation
layout(std430, binding = 2) readonly buffer C { int32_t c[]; };    // 24 an invocation
layout(std430, binding = 3) writeonly buffer D { int32_t d[]; };   // 16x24 a subgroup
layout(std430, binding = 4) writeonly buffer R { uint32_t r[]; };  // 24 a row
layout(std430, binding = 5) readonly buffer FA { uint32_t fa[]; }; // 8 words an invocation
layout(std430, binding = 6) readonly buffer FB { float fb[]; };    // 32 an invocation
layout(std430, binding = 7) readonly buffer ST { int32_t st[]; };  // 1 an invocation
layout(std430, binding = 8) writeonly buffer E { float e[]; };     // 16x16 a subgroup
layout(std430, binding = 9) writeonly buffer H { uint32_t h[]; };  // 8 a row
layout(std430, binding = 10) writeonly buffer H2 { uint32_t h2[]; }; // 8 a row

void main()
{
    uint sub = gl_WorkGroupID.x * 2u + gl_SubgroupID;
    uint lane = gl_SubgroupInvocationID;
    uint inv = sub * 32u + lane;

    uint32_t arow[8];
    for (int i = 0; i < 8; i++)
        arow[i] = a[inv * 8u + i];
    int8_t bcol[32];
    for (int i = 0; i < 32; i++)
        bcol[i] = b[inv * 32u + i];
    int32_t crow[24];
    for (int i = 0; i < 24; i++)
        crow[i] = c[inv * 24u + i];
    coopmat<int8_t, gl_ScopeSubgroup, 16, 32, gl_MatrixUseA> ma;
    coopmat<int8_t, gl_ScopeSubgroup, 32, 24, gl_MatrixUseB> mb;
    coopmat<int32_t, gl_ScopeSubgroup, 16, 24, gl_MatrixUseAccumulator> mc;
    vectorToCoopmatQCOM(arow, ma);
    vectorToCoopmatQCOM(bcol, mb);
    vectorToCoopmatQCOM(crow, mc);
    mc = coopMatMulAdd(ma, mb, mc);
    coopMatStore(mc, d, sub * 384u, 24u, gl_CooperativeMatrixLayoutRowMajor);
    uint32_t drow[24];
    coopmatToVectorQCOM(mc, drow);
    if (lane < 16u)
        for (int i = 0; i < 24; i++)
            r[(sub * 16u + lane) * 24u + i] = drow[i];

    uint32_t farow[8];
    for (int i = 0; i < 8; i++)
        farow[i] = fa[inv * 8u + i];
    float fbl[32];
    for (int i = 0; i < 32; i++)
        fbl[i] = fb[inv * 32u + i];
    float fbcol[8];
    extractSubArrayQCOM(fbl, st[inv], fbcol);
    coopmat<float, gl_ScopeSubgroup, 16, 8, gl_MatrixUseA> fma;
    coopmat<float, gl_ScopeSubgroup, 8, 16, gl_MatrixUseB> fmb;
    vectorToCoopmatQCOM(farow, fma);
    vectorToCoopmatQCOM(fbcol, fmb);
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> fe =
        coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
    fe = coopMatMulAdd(fma, fmb, fe);
    coopMatStore(fe, e, sub * 256u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> he =
        coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(fe);
    uint32_t hrow[8];
    coopmatToVectorQCOM(he, hrow);
    float16_t hhalf[16];
    coopmatToVectorQCOM(he, hhalf);
    uint32_t hbits[8];
    bitcastQCOM(hhalf, hbits);
    if (lane < 16u) {
        for (int i = 0; i < 8; i++) {
            h[(sub * 16u + lane) * 8u + i] = hrow[i];
            h2[(sub * 16u + lane) * 8u + i] = hbits[i];
        }
    }
}
