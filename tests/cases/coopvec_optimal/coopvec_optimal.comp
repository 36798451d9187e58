#version 450 core
// Cooperative-vector products the corpus does not reach: an E4M3 matrix in
// the inferencing-optimal layout with an f16 bias, fed once with inputs E4M3
// can hold and once with inputs it cannot (the Vulkan text lets an
// implementation keep their f16 precision); an f16 matrix in the
// inferencing-optimal layout, transposed; an s8 matrix in the
// training-optimal layout with s8 inputs; and an s8 column-major matrix with
// f32 inputs converted to s8 (round to nearest even, saturating).  Values are
// chosen so that every sum is exact whatever the order of the additions.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer XA { float16_t xa[]; };  // n x 16, E4M3-exact
layout(std430, binding = 1) readonly buffer XB { float16_t xb[]; };  // n x 16, f16 precision
layout(std430, binding = 2) readonly buffer XH { float16_t xh[]; };  // n x 32
layout(std430, binding = 3) readonly buffer XI { int8_t xi[]; };     // n x 32
layout(std430, binding = 4) readonly buffer XF { float xf[]; };      // n x 32
layout(std430, binding = 5) readonly buffer WE { uint8_t we[]; };    // 24x16 E4M3, inferencing-optimal
layout(std430, binding = 6) readonly buffer WH { float16_t wh[]; };  // 32x24 f16 (used transposed), inferencing-optimal
layout(std430, binding = 7) readonly buffer WI { int8_t wi[]; };     // 24x32 s8, training-optimal
layout(std430, binding = 8) readonly buffer WC { int8_t wc[]; };     // 24x32 s8, column-major, stride 32
layout(std430, binding = 9) readonly buffer BH { float16_t bh[]; };  // 3 x 24 f16 biases
layout(std430, binding = 10) readonly buffer BI { int32_t bi[]; };   // 2 x 24 s32 biases
layout(std430, binding = 11) writeonly buffer O1 { float16_t o1[]; };// n x 24
layout(std430, binding = 12) writeonly buffer O2 { float16_t o2[]; };// n x 24
layout(std430, binding = 13) writeonly buffer O3 { float16_t o3[]; };// n x 24
layout(std430, binding = 14) writeonly buffer O4 { int32_t o4[]; };  // n x 24
layout(std430, binding = 15) writeonly buffer O5 { int32_t o5[]; };  // n x 24

void main()
{
    uint i = gl_GlobalInvocationID.x;
    coopvecNV<float16_t, 16> a, b;
    coopVecLoadNV(a, xa, i * 32u);
    coopVecLoadNV(b, xb, i * 32u);
    coopvecNV<float16_t, 24> r1, r2;
    coopVecMatMulAddNV(r1, a, gl_ComponentTypeFloatE4M3NV, we, 0, gl_ComponentTypeFloatE4M3NV,
                       bh, 0, gl_ComponentTypeFloat16NV, 24, 16,
                       gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, false, 0);
    coopVecMatMulAddNV(r2, b, gl_ComponentTypeFloatE4M3NV, we, 0, gl_ComponentTypeFloatE4M3NV,
                       bh, 48, gl_ComponentTypeFloat16NV, 24, 16,
                       gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, false, 0);
    coopVecStoreNV(r1, o1, i * 48u);
    coopVecStoreNV(r2, o2, i * 48u);

    coopvecNV<float16_t, 32> h;
    coopVecLoadNV(h, xh, i * 64u);
    coopvecNV<float16_t, 24> r3;
    coopVecMatMulAddNV(r3, h, gl_ComponentTypeFloat16NV, wh, 0, gl_ComponentTypeFloat16NV,
                       bh, 96, gl_ComponentTypeFloat16NV, 24, 32,
                       gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, true, 0);
    coopVecStoreNV(r3, o3, i * 48u);

    coopvecNV<int8_t, 32> q;
    coopVecLoadNV(q, xi, i * 32u);
    coopvecNV<int32_t, 24> r4;
    coopVecMatMulAddNV(r4, q, gl_ComponentTypeSignedInt8NV, wi, 0, gl_ComponentTypeSignedInt8NV,
                       bi, 0, gl_ComponentTypeSignedInt32NV, 24, 32,
                       gl_CooperativeVectorMatrixLayoutTrainingOptimalNV, false, 0);
    coopVecStoreNV(r4, o4, i * 96u);

    coopvecNV<float, 32> f;
    coopVecLoadNV(f, xf, i * 128u);
    coopvecNV<int32_t, 24> r5;
    coopVecMatMulAddNV(r5, f, gl_ComponentTypeSignedInt8NV, wc, 0, gl_ComponentTypeSignedInt8NV,
                       bi, 96, gl_ComponentTypeSignedInt32NV, 24, 32,
                       gl_CooperativeVectorMatrixLayoutColumnMajorNV, false, 32);
    coopVecStoreNV(r5, o5, i * 96u);
}
