#version 450 core
// Tensor loads and stores of 8x8 uint matrices with every parameter taken
// from a buffer, for randomized comparison with a model built on the
// literal addressing reference (tests/unit/test_tensor_ops.c).  Each
// subgroup reads its 32 parameter words at p[32 * gl_SubgroupID]:
//   0  load clamp mode (0 Undefined .. 4 MirrorRepeat)
//   1,2 load layoutDimension   3,4 load offsets   5,6 load spans
//   7  nonzero: set the load strides 8,9
//   10 load view: 0 none, 1 tensorViewNV<2,false,0,1>, 2 <2,false,1,0>
//   11..14 load clip (row offset, row span, column offset, column span)
//   15,16 store layoutDimension  17,18 store offsets  19,20 store spans
//   21 nonzero: set the store strides 22,23
//   24 store view (as 10)       25..28 store clip   29 load clampValue
// The loaded matrix (Object: all 0xAAAAAAAA) goes to ld[64 * subgroup]
// row-major through a KHR store, then is stored through the store layout
// at st[256 * subgroup].
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer P { uint p[]; };
layout(std430, binding = 1) readonly buffer Src { uint src[]; };
layout(std430, binding = 2) writeonly buffer Ld { uint ld[]; };
layout(std430, binding = 3) writeonly buffer St { uint st[]; };

#define MAT coopmat<uint, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator>

#define LOAD_CASE(MODE)                                                            \
    {                                                                              \
        tensorLayoutNV<2, MODE> t = createTensorLayoutNV(2, MODE);                 \
        t = setTensorLayoutDimensionNV(t, p[b + 1], p[b + 2]);                     \
        if (p[b + 7] != 0u)                                                        \
            t = setTensorLayoutStrideNV(t, p[b + 8], p[b + 9]);                    \
        t = sliceTensorLayoutNV(t, p[b + 3], p[b + 5], p[b + 4], p[b + 6]);        \
        t = setTensorLayoutClampValueNV(t, p[b + 29]);                             \
        if (p[b + 10] == 1u) {                                                     \
            tensorViewNV<2, false, 0, 1> v = createTensorViewNV(2, false, 0, 1);   \
            v = setTensorViewClipNV(v, p[b + 11], p[b + 12], p[b + 13], p[b + 14]); \
            coopMatLoadTensorNV(m, src, 0, t, v);                                  \
        } else if (p[b + 10] == 2u) {                                              \
            tensorViewNV<2, false, 1, 0> v = createTensorViewNV(2, false, 1, 0);   \
            v = setTensorViewClipNV(v, p[b + 11], p[b + 12], p[b + 13], p[b + 14]); \
            coopMatLoadTensorNV(m, src, 0, t, v);                                  \
        } else {                                                                   \
            coopMatLoadTensorNV(m, src, 0, t);                                     \
        }                                                                          \
    }

void main()
{
    uint b = 32u * gl_SubgroupID;
    MAT m = MAT(0xAAAAAAAAu);
    uint mode = p[b];
    if (mode == 0u) LOAD_CASE(gl_CooperativeMatrixClampModeUndefinedNV)
    else if (mode == 1u) LOAD_CASE(gl_CooperativeMatrixClampModeConstantNV)
    else if (mode == 2u) LOAD_CASE(gl_CooperativeMatrixClampModeClampToEdgeNV)
    else if (mode == 3u) LOAD_CASE(gl_CooperativeMatrixClampModeRepeatNV)
    else LOAD_CASE(gl_CooperativeMatrixClampModeMirrorRepeatNV)
    coopMatStore(m, ld, 64u * gl_SubgroupID, 8u, gl_CooperativeMatrixLayoutRowMajor);

    tensorLayoutNV<2> s = createTensorLayoutNV(2);
    s = setTensorLayoutDimensionNV(s, p[b + 15], p[b + 16]);
    if (p[b + 21] != 0u)
        s = setTensorLayoutStrideNV(s, p[b + 22], p[b + 23]);
    s = sliceTensorLayoutNV(s, p[b + 17], p[b + 19], p[b + 18], p[b + 20]);
    if (p[b + 24] == 1u) {
        tensorViewNV<2, false, 0, 1> v = createTensorViewNV(2, false, 0, 1);
        v = setTensorViewClipNV(v, p[b + 25], p[b + 26], p[b + 27], p[b + 28]);
        coopMatStoreTensorNV(m, st, 256u * gl_SubgroupID, s, v);
    } else if (p[b + 24] == 2u) {
        tensorViewNV<2, false, 1, 0> v = createTensorViewNV(2, false, 1, 0);
        v = setTensorViewClipNV(v, p[b + 25], p[b + 26], p[b + 27], p[b + 28]);
        coopMatStoreTensorNV(m, st, 256u * gl_SubgroupID, s, v);
    } else {
        coopMatStoreTensorNV(m, st, 256u * gl_SubgroupID, s);
    }
}
