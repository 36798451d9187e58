#version 450 core
// Callbacks that are leaves (cvm_function.leaf: one block of pure
// instructions, loads, and stores to its own dense Function variables,
// ending in OpReturnValue) and some that are not, through every reduction
// mode, per-element operations and DecodeFuncs of a block-quantized tensor
// load.
// tests/unit/test_leaf_calls.c runs it on the fast paths (leaves run their
// instructions over whole batches) and the reference paths (every call
// interpreted) and compares the outputs bit for bit.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_EXT_debug_printf : enable
#extension GL_EXT_buffer_reference : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };   // 16x16 per subgroup; 64x32
layout(std430, binding = 1) readonly buffer InI { uint xi[]; };  // 16x16 per subgroup
layout(std430, binding = 2) writeonly buffer Out { float o[]; };  // 10 results of 256 per
                                                                  // subgroup (4); 2 of 2048
layout(std430, binding = 3) writeonly buffer OutI { uint oi[]; }; // 3 results of 256
layout(push_constant) uniform P { float s; } pc;
// 32x64 weights in blocks of 32 along a row: an f16 scale, 16 bytes of
// 4-bit codes (element j in byte j % 16, the low nibble for j < 16)
struct BlockQ4 { float16_t d; uint8_t q[16]; };
layout(std430, binding = 4) readonly buffer Q { BlockQ4 qa[]; };
layout(std430, binding = 5) writeonly buffer OutH { float16_t oh[]; }; // 6 results of 2048
layout(buffer_reference, std430, buffer_reference_align = 2) buffer BlockRef { BlockQ4 blk; };
float16_t pscale; // Private

float maxOf(const in float a, const in float b) { return max(a, b); }
float minOf(const in float a, const in float b) { return min(a, b); }
float sumOf(const in float a, const in float b) { return a + b; }
float mulSub(const in float a, const in float b) { return a * b - a; }
float firstOf(const in float a, const in float b) { return a; }
float halfOf(const in float a, const in float b) { return 0.5; }
uint usum(const in uint a, const in uint b) { return a + b; }
uint umaxOf(const in uint a, const in uint b) { return max(a, b); }
uint uxor(const in uint a, const in uint b) { return (a ^ b) + 7u; }
float expScaled(const in uint32_t r, const in uint32_t c, const in float v, const in float m,
                const in float s)
{
    return exp(v - m) * s;
}
float divide(const in uint32_t r, const in uint32_t c, const in float v, const in float l)
{
    return v / l;
}
float affine(const in uint32_t r, const in uint32_t c, const in float v, const in float s)
{
    return v * s + 1.0;
}
// not leaves: a conversion of a coordinate, and a branch
float withCol(const in uint32_t r, const in uint32_t c, const in float v) { return v + float(c); }
// not a leaf either: its DebugPrintf is an OpExtInst of another set
float printedSum(const in float a, const in float b)
{
    debugPrintfEXT("%f", a);
    return a + b;
}
float clampNeg(const in float a, const in float b)
{
    if (a < 0.0)
        return b;
    return a + b;
}

// DecodeFuncs.  Leaves: loads through the block pointer, dense Function
// variables (j, code), a value of all lanes (the push constant).
float16_t dequantQ4(const in BlockRef b, const in uint32_t blockCoords[2],
                    const in uint32_t coordInBlock[2])
{
    uint j = coordInBlock[1];
    uint code = (uint(b.blk.q[j & 15u]) >> ((j >> 4) * 4u)) & 15u;
    return float16_t(float(int(code) - 8)) * b.blk.d;
}
float16_t dequantCoords(const in BlockRef b, const in uint32_t blockCoords[2],
                        const in uint32_t coordInBlock[2])
{
    uint j = coordInBlock[1];
    int code = int((uint(b.blk.q[j & 15u]) >> ((j >> 4) * 4u)) & 15u);
    code -= int(blockCoords[0] & 7u) + int(blockCoords[1]);
    return float16_t(float(code)) * b.blk.d;
}
float16_t dequantConst(const in BlockRef b, const in uint32_t blockCoords[2],
                       const in uint32_t coordInBlock[2])
{
    return float16_t(pc.s);
}
// not leaves: a local array indexed by a value (its variable is not dense),
// and a Private variable (the caller's context)
float16_t dequantArray(const in BlockRef b, const in uint32_t blockCoords[2],
                       const in uint32_t coordInBlock[2])
{
    uint t[2] = uint[2](uint(b.blk.q[coordInBlock[1] & 15u]), blockCoords[0]);
    return float16_t(float(t[coordInBlock[1] & 1u]));
}
float16_t dequantPrivate(const in BlockRef b, const in uint32_t blockCoords[2],
                         const in uint32_t coordInBlock[2])
{
    return float16_t(float(coordInBlock[1])) * pscale + b.blk.d;
}

void main()
{
    uint sg = gl_SubgroupID;
    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;
    coopmat<uint, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mi;
    coopMatLoad(m, x, sg * 256u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoad(mi, xi, sg * 256u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    uint ob = sg * 2560u, obi = sg * 768u;

    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> r;
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, maxOf);
    coopMatStore(r, o, ob + 0u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceColumnNV, minOf);
    coopMatStore(r, o, ob + 256u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowAndColumnNV, sumOf);
    coopMatStore(r, o, ob + 512u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopmat<float, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator> q;
    coopMatReduceNV(q, m, gl_CooperativeMatrixReduce2x2NV, mulSub);
    coopMatStore(q, o, ob + 768u, 8u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, firstOf);
    coopMatStore(r, o, ob + 1024u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceColumnNV, halfOf);
    coopMatStore(r, o, ob + 1280u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, clampNeg);
    coopMatStore(r, o, ob + 1536u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(r, m, gl_CooperativeMatrixReduceRowNV, printedSum); // not stored

    coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mx, p;
    coopMatReduceNV(mx, m, gl_CooperativeMatrixReduceRowNV, maxOf);
    coopMatPerElementNV(p, m, expScaled, mx, pc.s);
    coopMatStore(p, o, ob + 1792u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatPerElementNV(p, m, divide, mx);
    coopMatStore(p, o, ob + 2048u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatPerElementNV(p, m, withCol);
    coopMatStore(p, o, ob + 2304u, 16u, gl_CooperativeMatrixLayoutRowMajor);

    coopmat<uint, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> ri;
    coopMatReduceNV(ri, mi, gl_CooperativeMatrixReduceRowNV, usum);
    coopMatStore(ri, oi, obi + 0u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(ri, mi, gl_CooperativeMatrixReduceColumnNV, umaxOf);
    coopMatStore(ri, oi, obi + 256u, 16u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(ri, mi, gl_CooperativeMatrixReduceRowAndColumnNV, uxor);
    coopMatStore(ri, oi, obi + 512u, 16u, gl_CooperativeMatrixLayoutRowMajor);

    // a workgroup-scope 64x32 matrix: 2048 calls, more than one batch
    coopmat<float, gl_ScopeWorkgroup, 64, 32, gl_MatrixUseAccumulator> big, bigr;
    coopMatLoad(big, x, 0u, 32u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatPerElementNV(bigr, big, affine, pc.s);
    coopMatStore(bigr, o, 10240u, 32u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatReduceNV(bigr, big, gl_CooperativeMatrixReduceRowNV, sumOf);
    coopMatStore(bigr, o, 12288u, 32u, gl_CooperativeMatrixLayoutRowMajor);

    // 32x64 weights decoded: 2048 calls a decoder, at workgroup scope
    pscale = float16_t(gl_LocalInvocationIndex) * float16_t(0.25);
    tensorLayoutNV<2> tq = createTensorLayoutNV(2);
    tq = setTensorLayoutBlockSizeNV(tq, 1, 32);
    tq = setTensorLayoutDimensionNV(tq, 32, 64);
    coopmat<float16_t, gl_ScopeWorkgroup, 32, 64, gl_MatrixUseA> w;
    coopMatLoadTensorNV(w, qa, 0, tq, dequantQ4);
    coopMatStore(w, oh, 0u, 64u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoadTensorNV(w, qa, 0, tq, dequantCoords);
    coopMatStore(w, oh, 2048u, 64u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoadTensorNV(w, qa, 0, tq, dequantConst);
    coopMatStore(w, oh, 4096u, 64u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoadTensorNV(w, qa, 0, tq, dequantArray);
    coopMatStore(w, oh, 6144u, 64u, gl_CooperativeMatrixLayoutRowMajor);
    coopMatLoadTensorNV(w, qa, 0, tq, dequantPrivate);
    coopMatStore(w, oh, 8192u, 64u, gl_CooperativeMatrixLayoutRowMajor);
    // a 16x48 window at (8, 8): blocks entered part way
    tensorLayoutNV<2> ts = sliceTensorLayoutNV(tq, 8, 16, 8, 48);
    coopmat<float16_t, gl_ScopeWorkgroup, 16, 48, gl_MatrixUseA> ws;
    coopMatLoadTensorNV(ws, qa, 0, ts, dequantCoords);
    coopMatStore(ws, oh, 10240u, 48u, gl_CooperativeMatrixLayoutRowMajor);
}
