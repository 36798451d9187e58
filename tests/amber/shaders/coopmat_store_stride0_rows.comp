#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// A KHR store of two rows with Stride 0: the rows would overlap, and the
// text forbids it ("'Stride' must be greater than 0"): the dispatch stops.
// The 0 is read from the input (x[8]).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { float x[]; } inp;
layout(set = 0, binding = 1) buffer Out { float x[]; } outp;
void main()
{
    coopmat<float, gl_ScopeSubgroup, 2, 4, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, inp.x, 0, 4, gl_CooperativeMatrixLayoutRowMajor);
    coopMatStore(m, outp.x, 0, uint(inp.x[8]), gl_CooperativeMatrixLayoutRowMajor);
}
