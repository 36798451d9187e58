#version 450 core
// Tensor loads whose addressing the texts leave undefined or cannot
// evaluate, one per value of specialization constant 0 (CASE), so that the
// engine's error names the state at fault (tests/unit/test_tensor_ops.c;
// found running glslang's spv.coopmat2_tensor.comp and
// spv.coopmat2_decode_vector_b.comp):
//   0 a fresh layout: span 0 (the index is divided by the span)
//   1 blockSize 0 in dimension 1
//   2 a view with hasDimensions true and no dimensions set: viewDimension 0
//   3 clamp mode Repeat with layoutDimension 0 (c % 0)
//   4 a view of 3 dimensions without its own ("hasDimensions" false) over a
//     layout of 2: the span it would use has 2 entries
//   5 a valid load (every element of src, 8x8, row-major)
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint CASE = 5u;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };

#define MAT coopmat<uint, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator>

void main()
{
    MAT m = MAT(0u);
    tensorLayoutNV<2> t = createTensorLayoutNV(2);
    if (CASE == 0u) {
        coopMatLoadTensorNV(m, src, 0, t);
    } else if (CASE == 1u) {
        t = setTensorLayoutDimensionNV(t, 8, 8);
        t = setTensorLayoutBlockSizeNV(t, 1, 0);
        coopMatLoadTensorNV(m, src, 0, t);
    } else if (CASE == 2u) {
        t = setTensorLayoutDimensionNV(t, 8, 8);
        tensorViewNV<2, true, 0, 1> v = createTensorViewNV(2, true, 0, 1);
        coopMatLoadTensorNV(m, src, 0, t, v);
    } else if (CASE == 3u) {
        tensorLayoutNV<2, gl_CooperativeMatrixClampModeRepeatNV> r =
            createTensorLayoutNV(2, gl_CooperativeMatrixClampModeRepeatNV);
        r = sliceTensorLayoutNV(r, 0, 8, 0, 8);
        coopMatLoadTensorNV(m, src, 0, r);
    } else if (CASE == 4u) {
        t = setTensorLayoutDimensionNV(t, 8, 8);
        tensorViewNV<3, false, 0, 1, 2> v = createTensorViewNV(3, false, 0, 1, 2);
        coopMatLoadTensorNV(m, src, 0, t, v);
    } else {
        t = setTensorLayoutDimensionNV(t, 8, 8);
        coopMatLoadTensorNV(m, src, 0, t);
    }
    coopMatStore(m, dst, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
}
