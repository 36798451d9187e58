#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
// Stores with Stride 0.  KHR: "'Stride' must be greater than 0 when passed
// to OpCooperativeMatrixStoreKHR", but a store of one row (column) uses no
// Stride in any address: Pointer[0 * Stride].  The Vulkan CTS's
// multicomponent store to workgroup memory passes 0 there (a 1x1 matrix
// into a vec4 array).  NV puts no bound on Stride: every row goes to the
// same place, in order, and the last stays.  The 0 is read from the input
// (x[16]), as the CTS computes it from specialization constants: a
// constant 0 is refused by the validator.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { float x[]; } inp;
layout(set = 0, binding = 1) buffer Out { float x[]; } outp;
layout(set = 0, binding = 2) buffer OutV { vec4 x[]; } outv;
void main()
{
    coopmat<float, gl_ScopeSubgroup, 1, 4, gl_MatrixUseAccumulator> row;
    coopmat<float, gl_ScopeSubgroup, 4, 1, gl_MatrixUseAccumulator> col;
    coopmat<float, gl_ScopeSubgroup, 1, 1, gl_MatrixUseAccumulator> one;
    fcoopmatNV<32, gl_ScopeSubgroup, 4, 4> nv;
    coopMatLoad(row, inp.x, 0, 4, gl_CooperativeMatrixLayoutRowMajor);   // x[0..3]
    coopMatLoad(col, inp.x, 4, 1, gl_CooperativeMatrixLayoutColumnMajor); // x[4..7]
    coopMatLoad(one, inp.x, 9, 1, gl_CooperativeMatrixLayoutRowMajor);   // x[9]
    coopMatLoadNV(nv, inp.x, 0, 4, false);                                // x[0..15]
    uint z = uint(inp.x[16]);
    if (gl_SubgroupID == 0) {
        coopMatStore(row * 2.0, outp.x, 0, z, gl_CooperativeMatrixLayoutRowMajor);
        coopMatStore(col * 3.0, outp.x, 4, z, gl_CooperativeMatrixLayoutColumnMajor);
        coopMatStoreNV(nv, outp.x, 8, z, false);
        coopMatStore(one, outv.x, 1, z, gl_CooperativeMatrixLayoutRowMajor);
    }
}
