#version 460
// Copies a 32 x 48 f32 matrix in 16 x 16 cooperative-matrix tiles (row-major,
// stride 48): the shader whose result check_diff_image.py compares with a
// deliberately wrong expectation.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

void main()
{
    for (uint r = 0u; r < 2u; r++) {
        for (uint c = 0u; c < 3u; c++) {
            coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
            coopMatLoad(m, src, r * 16u * 48u + c * 16u, 48, gl_CooperativeMatrixLayoutRowMajor);
            coopMatStore(m, dst, r * 16u * 48u + c * 16u, 48, gl_CooperativeMatrixLayoutRowMajor);
        }
    }
}
