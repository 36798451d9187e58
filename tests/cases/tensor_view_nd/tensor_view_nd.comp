#version 450 core
// 4-D and 5-D tensor layouts and views, which the corpus does not reach
// (tensor_clamp_view stops at 3-D): permuting views with and without their
// own dimensions, explicit view strides, explicit layout strides, a clip
// region, every wrapping clamp mode across several dimensions at once, a view
// smaller than the matrix (indices wrap), and 4-D/5-D stores that drop
// out-of-range elements or are clipped.
//
// src holds 480 words, read both as a 3x4x5x8 and as a 2x3x4x5x4 tensor.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Src { uint32_t src[]; };   // 480 words
layout(std430, binding = 1) writeonly buffer Dst { uint32_t dst[]; };  // 8 results of 16x16
layout(std430, binding = 2) buffer St4 { uint32_t st4[]; };             // 3x4x5x8 store target
layout(std430, binding = 3) buffer St5 { uint32_t st5[]; };             // 2x3x4x5x4 store target

#define MAT coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor

void main()
{
    MAT m;
    uint32_t n1 = uint32_t(int32_t(-1)), n2 = uint32_t(int32_t(-2));
    uint32_t n3 = uint32_t(int32_t(-3)), n4 = uint32_t(int32_t(-4));

    // 0: the whole 3x4x5x8 tensor through a view of dimensions 4x2x8x4
    //    permuted (2,0,3,1); view strides follow from the view dimensions.
    tensorLayoutNV<4> t4 = createTensorLayoutNV(4);
    t4 = setTensorLayoutDimensionNV(t4, 3, 4, 5, 8);
    tensorViewNV<4, true, 2, 0, 3, 1> v4p = createTensorViewNV(4, true, 2, 0, 3, 1);
    v4p = setTensorViewDimensionsNV(v4p, 4, 2, 8, 4);
    coopMatLoadTensorNV(m, src, 0, t4, v4p);
    coopMatStore(m, dst, 0 * 256, 16, ROW_MAJOR);

    // 1: 5-D, Constant clamp, a 2x2x2x4x8 slice that leaves the tensor in the
    //    last two dimensions.
    tensorLayoutNV<5, gl_CooperativeMatrixClampModeConstantNV> t5c =
        createTensorLayoutNV(5, gl_CooperativeMatrixClampModeConstantNV);
    t5c = setTensorLayoutDimensionNV(t5c, 2, 3, 4, 5, 4);
    t5c = setTensorLayoutClampValueNV(t5c, 0xC0FFEE00u);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t5c, 0, 2, 1, 2, 2, 2, 3, 4, 1, 8));
    coopMatStore(m, dst, 1 * 256, 16, ROW_MAJOR);

    // 2: 5-D, a view without dimensions that reverses all five dimensions
    //    (its dimensions and strides come from the slice's spans).
    tensorLayoutNV<5> t5 = createTensorLayoutNV(5);
    t5 = setTensorLayoutDimensionNV(t5, 2, 3, 4, 5, 4);
    tensorViewNV<5, false, 4, 3, 2, 1, 0> v5r = createTensorViewNV(5, false, 4, 3, 2, 1, 0);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t5, 0, 2, 1, 2, 0, 4, 1, 4, 0, 4), v5r);
    coopMatStore(m, dst, 2 * 256, 16, ROW_MAJOR);

    // 3: 5-D, Repeat with negative offsets in three dimensions, through a
    //    permuted view with explicit strides (a reshuffle of 0..255).
    tensorLayoutNV<5, gl_CooperativeMatrixClampModeRepeatNV> t5r =
        createTensorLayoutNV(5, gl_CooperativeMatrixClampModeRepeatNV);
    t5r = setTensorLayoutDimensionNV(t5r, 2, 3, 4, 5, 4);
    tensorViewNV<5, true, 1, 0, 4, 2, 3> v5s = createTensorViewNV(5, true, 1, 0, 4, 2, 3);
    v5s = setTensorViewDimensionsNV(v5s, 2, 4, 2, 4, 4);
    v5s = setTensorViewStrideNV(v5s, 1, 2, 8, 16, 64);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t5r, n1, 2, n2, 4, 1, 2, n3, 4, 2, 4), v5s);
    coopMatStore(m, dst, 3 * 256, 16, ROW_MAJOR);

    // 4: 4-D with explicit layout strides, read through a permuted view with a
    //    clip region into a matrix that keeps its value outside the clip.
    tensorLayoutNV<4> t4s = createTensorLayoutNV(4);
    t4s = setTensorLayoutDimensionNV(t4s, 4, 4, 4, 4);
    t4s = setTensorLayoutStrideNV(t4s, 112, 25, 6, 1);
    tensorViewNV<4, true, 3, 1, 2, 0> v4c = createTensorViewNV(4, true, 3, 1, 2, 0);
    v4c = setTensorViewDimensionsNV(v4c, 4, 4, 4, 4);
    v4c = setTensorViewClipNV(v4c, 2, 10, 3, 12);
    m = MAT(9u);
    coopMatLoadTensorNV(m, src, 0, t4s, v4c);
    coopMatStore(m, dst, 4 * 256, 16, ROW_MAJOR);

    // 5: 4-D, MirrorRepeat with negative offsets and offsets past the end,
    //    through a permuted view with dimensions.
    tensorLayoutNV<4, gl_CooperativeMatrixClampModeMirrorRepeatNV> t4m =
        createTensorLayoutNV(4, gl_CooperativeMatrixClampModeMirrorRepeatNV);
    t4m = setTensorLayoutDimensionNV(t4m, 3, 4, 5, 8);
    tensorViewNV<4, true, 1, 3, 0, 2> v4m = createTensorViewNV(4, true, 1, 3, 0, 2);
    v4m = setTensorViewDimensionsNV(v4m, 2, 2, 8, 8);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t4m, n2, 2, 3, 2, n4, 8, 5, 8), v4m);
    coopMatStore(m, dst, 5 * 256, 16, ROW_MAJOR);

    // 6: 5-D, ClampToEdge below the start of two dimensions and past the
    //    end of a third, no view.
    tensorLayoutNV<5, gl_CooperativeMatrixClampModeClampToEdgeNV> t5e =
        createTensorLayoutNV(5, gl_CooperativeMatrixClampModeClampToEdgeNV);
    t5e = setTensorLayoutDimensionNV(t5e, 2, 3, 4, 5, 4);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t5e, 0, 2, 1, 2, n1, 4, 2, 4, n1, 4));
    coopMatStore(m, dst, 6 * 256, 16, ROW_MAJOR);

    // 7: 5-D, a view of 2x2x2x2x4 = 64 elements, smaller than the matrix:
    //    the index wraps and each element is read four times.
    tensorViewNV<5, true, 0, 2, 1, 4, 3> v5w = createTensorViewNV(5, true, 0, 2, 1, 4, 3);
    v5w = setTensorViewDimensionsNV(v5w, 2, 2, 2, 2, 4);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t5, 0, 2, 1, 2, 1, 2, 2, 2, 0, 4), v5w);
    coopMatStore(m, dst, 7 * 256, 16, ROW_MAJOR);

    // stores of a matrix whose element (r, c) is src[r * 30 + c]
    tensorLayoutNV<2> t2 = createTensorLayoutNV(2);
    t2 = setTensorLayoutDimensionNV(t2, 16, 30);
    coopMatLoadTensorNV(m, src, 0, sliceTensorLayoutNV(t2, 0, 16, 0, 16));

    // 4-D store with out-of-range elements dropped, through a permuted view
    tensorLayoutNV<4, gl_CooperativeMatrixClampModeConstantNV> t4d =
        createTensorLayoutNV(4, gl_CooperativeMatrixClampModeConstantNV);
    t4d = setTensorLayoutDimensionNV(t4d, 3, 4, 5, 8);
    tensorViewNV<4, true, 3, 1, 0, 2> v4d = createTensorViewNV(4, true, 3, 1, 0, 2);
    v4d = setTensorViewDimensionsNV(v4d, 2, 4, 4, 8);
    coopMatStoreTensorNV(m, st4, 0, sliceTensorLayoutNV(t4d, 1, 2, n1, 4, 2, 4, 3, 8), v4d);

    // 5-D clipped store through a view without dimensions
    tensorViewNV<5, false, 0, 2, 1, 4, 3> v5c = createTensorViewNV(5, false, 0, 2, 1, 4, 3);
    v5c = setTensorViewClipNV(v5c, 1, 12, 2, 13);
    coopMatStoreTensorNV(m, st5, 0, sliceTensorLayoutNV(t5, 0, 2, 0, 3, 0, 4, 1, 4, 0, 4), v5c);
}
