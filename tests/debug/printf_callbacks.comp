#version 460
// debugPrintfEXT inside cooperative-matrix callbacks (SPV_NV_cooperative_matrix2):
// a DecodeFunc of a tensor load (16x16 uint32 in 1x4 blocks) that prints the
// diagonal elements it decodes, and a per-element function that prints the
// anti-diagonal.  One subgroup of 32 per workgroup, two workgroups.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
#extension GL_EXT_debug_printf : enable
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer Blk { uint32_t blk[]; };  // 16 x 16, row-major
layout(std430, binding = 1) writeonly buffer Dst { uint32_t dst[]; }; // 2 x 16 x 16
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Block { uint32_t q[4]; };

#define ACC(R, C) coopmat<uint32_t, gl_ScopeSubgroup, R, C, gl_MatrixUseAccumulator>

// Element (r, c) is block (r, c / 4), slot c % 4.
uint32_t decode(const in Block b, const in uint32_t blockCoord[2], const in uint32_t coordInBlock[2])
{
    uint32_t v = b.q[coordInBlock[1]];
    if (blockCoord[0] == blockCoord[1] * 4u + coordInBlock[1])
        debugPrintfEXT("decode block (%u,%u) slot %u: %u\n", blockCoord[0], blockCoord[1],
                       coordInBlock[1], v);
    return v * 2u;
}

uint32_t addk(const in uint32_t row, const in uint32_t col, const in uint32_t e, const in uint32_t k)
{
    if (row + col == 15u)
        debugPrintfEXT("per-element (%u,%u): %u + %u\n", row, col, e, k);
    return e + k;
}

void main()
{
    tensorLayoutNV<2> tl = createTensorLayoutNV(2);
    tl = setTensorLayoutBlockSizeNV(tl, 1, 4);
    tl = setTensorLayoutDimensionNV(tl, 16, 16);
    ACC(16, 16) m;
    coopMatLoadTensorNV(m, blk, 0, tl, decode);
    ACC(16, 16) p;
    coopMatPerElementNV(p, m, addk, gl_WorkGroupID.x * 1000u);
    coopMatStore(p, dst, gl_WorkGroupID.x * 256u, 16, gl_CooperativeMatrixLayoutRowMajor);
}
