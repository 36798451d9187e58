#version 450 core
// decode_block2d again, with a DecodeVectorFunc beside each DecodeFunc: V = 8
// and 4 and 2 over the 4x8 blocks of the 2-D tensor, 4 and 2 over the 2x2x4
// blocks of the 3-D tensor. No hardware exposes the decode-vector extension
// yet; the implementation may call either decoder for any group, so the
// output must equal decode_block2d's exactly.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
#extension GL_NV_cooperative_matrix_decode_vector : enable
#extension GL_EXT_long_vector : enable
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


// The vector decoders: V neighbours along the block's last dimension, starting
// at coordInBlock[last], which the caller guarantees is a multiple of V.
#define DECODE2_V(V)                                                                        \
vector<uint32_t, V> decode2x##V(const in Block b, const in uint32_t blockCoord[2],          \
                                const in uint32_t coordInBlock[2])                          \
{                                                                                           \
    uint32_t word = b.q[coordInBlock[0]];                                                   \
    uint32_t base = b.tag + (blockCoord[0] << 20) + (blockCoord[1] << 12) + (coordInBlock[0] << 8); \
    vector<uint32_t, V> r;                                                                  \
    for (uint32_t i = 0u; i < V; i++) {                                                     \
        uint32_t c = coordInBlock[1] + i;                                                   \
        r[i] = base + (c << 4) + ((word >> (4u * c)) & 15u);                                \
    }                                                                                       \
    return r;                                                                               \
}
DECODE2_V(2)
DECODE2_V(4)
DECODE2_V(8)

#define DECODE3_V(V)                                                                        \
vector<uint32_t, V> decode3x##V(const in Block b, const in uint32_t blockCoord[3],          \
                                const in uint32_t coordInBlock[3])                          \
{                                                                                           \
    uint32_t word = b.q[2u * coordInBlock[0] + coordInBlock[1]];                            \
    uint32_t base = b.tag + (blockCoord[0] << 24) + (blockCoord[1] << 18) + (blockCoord[2] << 12) + \
                    (coordInBlock[0] << 10) + (coordInBlock[1] << 8);                       \
    vector<uint32_t, V> r;                                                                  \
    for (uint32_t i = 0u; i < V; i++) {                                                     \
        uint32_t c = coordInBlock[2] + i;                                                   \
        r[i] = base + (c << 4) + ((word >> (4u * c)) & 15u);                                \
    }                                                                                       \
    return r;                                                                               \
}
DECODE3_V(2)
DECODE3_V(4)

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
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2, 4, 16, 8, 16), decode2, decode2x8);
    coopMatStore(m, dst, 0 * 256, 16, ROW_MAJOR);
    // 1: a slice that starts inside a block in both dimensions
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2, 6, 16, 13, 16), decode2, decode2x8);
    coopMatStore(m, dst, 1 * 256, 16, ROW_MAJOR);

    // 2: Constant clamp over the bottom-right corner
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> t2c =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    t2c = setTensorLayoutBlockSizeNV(t2c, 4, 8);
    t2c = setTensorLayoutDimensionNV(t2c, 40, 72);
    t2c = setTensorLayoutClampValueNV(t2c, 0xFFFF0000u);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2c, 30, 16, 64, 16), decode2, decode2x4);
    coopMatStore(m, dst, 2 * 256, 16, ROW_MAJOR);

    // 3: ClampToEdge before the top-left corner
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeClampToEdgeNV> t2e =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeClampToEdgeNV);
    t2e = setTensorLayoutBlockSizeNV(t2e, 4, 8);
    t2e = setTensorLayoutDimensionNV(t2e, 40, 72);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2e, n3, 16, n5, 16), decode2, decode2x4);
    coopMatStore(m, dst, 3 * 256, 16, ROW_MAJOR);

    // 4: a transposing view (no dimensions of its own)
    tensorViewNV<2, false, 1, 0> vt = createTensorViewNV(2, false, 1, 0);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2, 8, 16, 24, 16), vt, decode2, decode2x8);
    coopMatStore(m, dst, 4 * 256, 16, ROW_MAJOR);

    // 5: MirrorRepeat past the right edge and above the top
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeMirrorRepeatNV> t2m =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeMirrorRepeatNV);
    t2m = setTensorLayoutBlockSizeNV(t2m, 4, 8);
    t2m = setTensorLayoutDimensionNV(t2m, 40, 72);
    coopMatLoadTensorNV(m, wq, 0, sliceTensorLayoutNV(t2m, n6, 16, 60, 16), decode2, decode2x2);
    coopMatStore(m, dst, 5 * 256, 16, ROW_MAJOR);

    // 6: 3-D, Constant clamp, columns past the last dimension's end
    tensorLayoutNV<3, gl_CooperativeMatrixClampModeConstantNV> t3c =
        createTensorLayoutNV(3, gl_CooperativeMatrixClampModeConstantNV);
    t3c = setTensorLayoutBlockSizeNV(t3c, 2, 2, 4);
    t3c = setTensorLayoutDimensionNV(t3c, 4, 6, 16);
    t3c = setTensorLayoutClampValueNV(t3c, 0x12345678u);
    coopMatLoadTensorNV(m, wq, BASE3, sliceTensorLayoutNV(t3c, 0, 4, 1, 4, 2, 16), decode3, decode3x4);
    coopMatStore(m, dst, 6 * 256, 16, ROW_MAJOR);

    // 7: 3-D, Repeat with negative offsets
    tensorLayoutNV<3, gl_CooperativeMatrixClampModeRepeatNV> t3r =
        createTensorLayoutNV(3, gl_CooperativeMatrixClampModeRepeatNV);
    t3r = setTensorLayoutBlockSizeNV(t3r, 2, 2, 4);
    t3r = setTensorLayoutDimensionNV(t3r, 4, 6, 16);
    coopMatLoadTensorNV(m, wq, BASE3, sliceTensorLayoutNV(t3r, n1, 4, 3, 4, n6, 16), decode3, decode3x2);
    coopMatStore(m, dst, 7 * 256, 16, ROW_MAJOR);

    // 8: 3-D through a permuted view with dimensions
    tensorLayoutNV<3> t3 = createTensorLayoutNV(3);
    t3 = setTensorLayoutBlockSizeNV(t3, 2, 2, 4);
    t3 = setTensorLayoutDimensionNV(t3, 4, 6, 16);
    tensorViewNV<3, true, 2, 0, 1> v3 = createTensorViewNV(3, true, 2, 0, 1);
    v3 = setTensorViewDimensionsNV(v3, 4, 4, 16);
    coopMatLoadTensorNV(m, wq, BASE3, sliceTensorLayoutNV(t3, 0, 4, 2, 4, 0, 16), v3, decode3, decode3x4);
    coopMatStore(m, dst, 8 * 256, 16, ROW_MAJOR);
}
