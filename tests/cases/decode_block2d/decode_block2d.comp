#version 450 core
// Decode functions over blocks of more than one dimension, which the corpus
// does not reach (decode_q4_gemm's blocks are 1x32): a 2-D tensor in 4x8
// blocks and a 3-D tensor in 2x2x4 blocks, loaded block-aligned, unaligned,
// through a transposing view, and under every clamp mode (a Constant-clamped
// element takes the clamp value without a decode call).
//
// Every block is five words: a tag, then four words of 4-bit codes. The
// decoded value is a u32 that mixes the tag, the code, blockCoord and
// coordInBlock, so a wrong block pointer, a wrong coordinate or a wrong code
// each shows in the output.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
layout(local_size_x = 32) in;
// words 0..449: the 2-D tensor, 40x72 in 4x8 blocks (10x9 blocks, row-major);
// words 452..571: the 3-D tensor, 4x6x16 in 2x2x4 blocks (2x3x4 blocks).
layout(std430, binding = 0) readonly buffer Wq { uint32_t wq[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint32_t dst[]; };  // 9 results of 16x16
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Block { uint32_t tag; uint32_t q[4]; };

const uint32_t BASE3 = 452u;   // 1808 bytes: the 3-D tensor starts 16-byte aligned

// 2-D block of 4x8 codes: row r of the block is word q[r], column c its nibble c.
uint32_t decode2(const in Block b, const in uint32_t blockCoord[2], const in uint32_t coordInBlock[2])
{
    uint32_t code = (b.q[coordInBlock[0]] >> (4u * coordInBlock[1])) & 15u;
    return b.tag + (blockCoord[0] << 20) + (blockCoord[1] << 12) +
           (coordInBlock[0] << 8) + (coordInBlock[1] << 4) + code;
}

// 3-D block of 2x2x4 codes: word q[2*i + j], nibble k.
uint32_t decode3(const in Block b, const in uint32_t blockCoord[3], const in uint32_t coordInBlock[3])
{
    uint32_t code = (b.q[2u * coordInBlock[0] + coordInBlock[1]] >> (4u * coordInBlock[2])) & 15u;
    return b.tag + (blockCoord[0] << 24) + (blockCoord[1] << 18) + (blockCoord[2] << 12) +
           (coordInBlock[0] << 10) + (coordInBlock[1] << 8) + (coordInBlock[2] << 4) + code;
}

#define MAT coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor

void main()
{
    MAT m;
    uint32_t n3 = uint32_t(int32_t(-3)), n5 = uint32_t(int32_t(-5));
    uint32_t n1 = uint32_t(int32_t(-1)), n6 = uint32_t(int32_t(-6));

    tensorLayoutNV<2> t2 = createTensorLayoutNV(2);
    t2 = setTensorLayoutBlockSizeNV(t2, 4, 8);
    t2 = setTensorLayoutDimensionNV(t2, 40, 72);

    // 0: block-aligned slice
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2, 4, 16, 8, 16), decode2);
    coopMatStore(m, dst, 0 * 256, 16, ROW_MAJOR);
    // 1: a slice that starts inside a block in both dimensions
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2, 6, 16, 13, 16), decode2);
    coopMatStore(m, dst, 1 * 256, 16, ROW_MAJOR);

    // 2: Constant clamp over the bottom-right corner
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t2c =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    t2c = setTensorLayoutBlockSizeNV(t2c, 4, 8);
    t2c = setTensorLayoutDimensionNV(t2c, 40, 72);
    t2c = setTensorLayoutClampValueNV(t2c, 0xFFFF0000u);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2c, 30, 16, 64, 16), decode2);
    coopMatStore(m, dst, 2 * 256, 16, ROW_MAJOR);

    // 3: ClampToEdge before the top-left corner
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeClampToEdgeNV> t2e =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeClampToEdgeNV);
    t2e = setTensorLayoutBlockSizeNV(t2e, 4, 8);
    t2e = setTensorLayoutDimensionNV(t2e, 40, 72);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2e, n3, 16, n5, 16), decode2);
    coopMatStore(m, dst, 3 * 256, 16, ROW_MAJOR);

    // 4: a transposing view (no dimensions of its own)
    tensorViewNV<2, false, 1, 0> vt = createTensorViewNV(2, false, 1, 0);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2, 8, 16, 24, 16), vt, decode2);
    coopMatStore(m, dst, 4 * 256, 16, ROW_MAJOR);

    // 5: MirrorRepeat past the right edge and above the top
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeMirrorRepeatNV> t2m =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeMirrorRepeatNV);
    t2m = setTensorLayoutBlockSizeNV(t2m, 4, 8);
    t2m = setTensorLayoutDimensionNV(t2m, 40, 72);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2m, n6, 16, 60, 16), decode2);
    coopMatStore(m, dst, 5 * 256, 16, ROW_MAJOR);

    // 6: 3-D, Constant clamp, columns past the last dimension's end
    tensorLayoutNV<3, gl_CooperativeMatrixClampModeConstantNV> t3c =
        createTensorLayoutNV(3, gl_CooperativeMatrixClampModeConstantNV);
    t3c = setTensorLayoutBlockSizeNV(t3c, 2, 2, 4);
    t3c = setTensorLayoutDimensionNV(t3c, 4, 6, 16);
    t3c = setTensorLayoutClampValueNV(t3c, 0x12345678u);
    coopMatLoadTensorNV(m, wq, BASE3, sliceTensorLayoutNV(t3c, 0, 4, 1, 4, 2, 16), decode3);
    coopMatStore(m, dst, 6 * 256, 16, ROW_MAJOR);

    // 7: 3-D, Repeat with negative offsets
    tensorLayoutNV<3, gl_CooperativeMatrixClampModeRepeatNV> t3r =
        createTensorLayoutNV(3, gl_CooperativeMatrixClampModeRepeatNV);
    t3r = setTensorLayoutBlockSizeNV(t3r, 2, 2, 4);
    t3r = setTensorLayoutDimensionNV(t3r, 4, 6, 16);
    coopMatLoadTensorNV(m, wq, BASE3, sliceTensorLayoutNV(t3r, n1, 4, 3, 4, n6, 16), decode3);
    coopMatStore(m, dst, 7 * 256, 16, ROW_MAJOR);

    // 8: 3-D through a permuted view with dimensions
    tensorLayoutNV<3> t3 = createTensorLayoutNV(3);
    t3 = setTensorLayoutBlockSizeNV(t3, 2, 2, 4);
    t3 = setTensorLayoutDimensionNV(t3, 4, 6, 16);
    tensorViewNV<3, true, 2, 0, 1> v3 = createTensorViewNV(3, true, 2, 0, 1);
    v3 = setTensorViewDimensionsNV(v3, 4, 4, 16);
    coopMatLoadTensorNV(m, wq, BASE3, sliceTensorLayoutNV(t3, 0, 4, 2, 4, 0, 16), v3, decode3);
    coopMatStore(m, dst, 8 * 256, 16, ROW_MAJOR);
}
