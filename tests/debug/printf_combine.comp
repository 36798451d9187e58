#version 460
// debugPrintfEXT inside a CombineFunc: a Row reduction of an 8x8 subgroup
// matrix (values 100 * row + col) prints each combine that folds in an
// element of row 3 (y is that element in the default, left-to-right order).  coopvm
// names the first element of the row, (3, 0), and runs the calls in the
// context of that element's owner (invocation (8 * 3 + 0) / 2 = 12).
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_debug_printf : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer Src { uint32_t src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint32_t dst[]; };

uint32_t combine(const in uint32_t x, const in uint32_t y)
{
    if (y / 100u == 3u)
        debugPrintfEXT("combine %u %u\n", x, y);
    return x + y;
}

void main()
{
    coopmat<uint32_t, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator> m, r;
    coopMatLoad(m, src, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, combine);
    coopMatStore(r, dst, 0, 8, gl_CooperativeMatrixLayoutRowMajor);
}
