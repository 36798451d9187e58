#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_bfloat16 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// The Row|Column sum of a 32x32 bfloat16 matrix, each combine rounded to
// bfloat16 (as the Vulkan CTS's reduce_sum_rowcol tests combine).  Folding
// the 32 row sums left to right rounds a growing sum 31 times; the result
// must stay within the CTS's tolerance of the exact sum.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { bfloat16_t x[]; } inp;
layout(set = 0, binding = 1) buffer Out { float x[]; } outp;
bfloat16_t combineOp(const in bfloat16_t a, const in bfloat16_t b)
{
    return bfloat16_t(float(a) + float(b));
}
void main()
{
    coopmat<bfloat16_t, gl_ScopeSubgroup, 32, 32, gl_MatrixUseAccumulator> m;
    coopmat<bfloat16_t, gl_ScopeSubgroup, 1, 1, gl_MatrixUseAccumulator> s;
    coopMatLoad(m, inp.x, 0, 32, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(s, m, gl_CooperativeMatrixReduceRowAndColumnNV, combineOp);
    coopmat<float, gl_ScopeSubgroup, 1, 1, gl_MatrixUseAccumulator> f =
        coopmat<float, gl_ScopeSubgroup, 1, 1, gl_MatrixUseAccumulator>(s);
    if (gl_SubgroupID == 0)
        coopMatStore(f, outp.x, 0, 1, gl_CooperativeMatrixLayoutRowMajor);
}
