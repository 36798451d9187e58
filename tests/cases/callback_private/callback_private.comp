#version 450 core
// Cooperative-matrix callbacks that read module-scope Private variables which
// main() sets before each call, the way llama.cpp's split-k flash attention
// (split_k_index, iq3) and MoE matmul (_ne1, i) do: per-element functions,
// decode functions and reduce combine functions, at subgroup and at
// workgroup scope, inside a loop that changes the values every iteration.
//
// The texts do not say whose Private variables a callback sees; a GPU runs
// the callback as part of an invocation of the scope instance, so only
// values that are uniform over the scope instance give a defined result:
// wgBase is uniform over the workgroup, sgBase over each subgroup (read only
// by subgroup-scope callbacks), combineBias over the workgroup (set from a
// uniform buffer).
//
// All values are unsigned integers, so every result is exact. A combine
// f(x, y) = x + y + c is commutative and associative: folding L elements
// gives their sum plus (L - 1) * c whatever the reduction tree.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
#extension GL_KHR_shader_subgroup_basic : enable
layout(local_size_x = 64) in;   // two subgroups of 32

layout(std430, binding = 0) readonly buffer Src { uint32_t src[]; };    // 32 x 32
layout(std430, binding = 1) readonly buffer Blk { uint32_t blk[]; };    // 32 x 32 in 1x4 blocks
layout(std430, binding = 2) readonly buffer Params { uint32_t bias[]; }; // per workgroup
layout(std430, binding = 3) writeonly buffer Dst { uint32_t dst[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Block { uint32_t q[4]; };

uint32_t wgBase;      // uniform over the workgroup
uint32_t sgBase;      // uniform over a subgroup
uint32_t combineBias; // uniform over the workgroup

#define SG(R, C) coopmat<uint32_t, gl_ScopeSubgroup, R, C, gl_MatrixUseAccumulator>
#define WG(R, C) coopmat<uint32_t, gl_ScopeWorkgroup, R, C, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor

uint32_t elemSg(const in uint32_t row, const in uint32_t col, const in uint32_t e)
{
    return e * 3u + wgBase + sgBase + (row << 8) + col;
}

uint32_t elemWg(const in uint32_t row, const in uint32_t col, const in uint32_t e)
{
    return e * 5u + wgBase + (col << 8) + row;
}

uint32_t decodeSg(const in Block b, const in uint32_t blockCoord[2], const in uint32_t coordInBlock[2])
{
    return b.q[coordInBlock[1]] + wgBase + sgBase + (blockCoord[1] << 12);
}

uint32_t decodeWg(const in Block b, const in uint32_t blockCoord[2], const in uint32_t coordInBlock[2])
{
    return b.q[coordInBlock[1]] * 7u + wgBase + (blockCoord[0] << 12);
}

uint32_t combine(const in uint32_t x, const in uint32_t y)
{
    return x + y + combineBias;
}

// Words per workgroup and iteration: 2*256 + 1024 + 2*256 + 1024 + 2*256 + 1024.
const uint32_t SECTION = 4608u;

void main()
{
    const uint32_t sg = gl_SubgroupID;
    combineBias = bias[gl_WorkGroupID.x];
    tensorLayoutNV<2> tl = createTensorLayoutNV(2);
    tl = setTensorLayoutBlockSizeNV(tl, 1, 4);
    tl = setTensorLayoutDimensionNV(tl, 32, 32);

    for (uint32_t it = 0u; it < 3u; it++) {
        wgBase = gl_WorkGroupID.x * 100000u + it * 1000u;
        sgBase = sg * 10000000u + it;
        uint32_t out0 = (gl_WorkGroupID.x * 3u + it) * SECTION;

        // Per-element at subgroup scope: subgroup sg works on rows 16*sg.. of src.
        SG(16, 16) ms;
        coopMatLoad(ms, src, sg * 16u * 32u, 32, ROW_MAJOR);
        SG(16, 16) ps;
        coopMatPerElementNV(ps, ms, elemSg);
        coopMatStore(ps, dst, out0 + sg * 256u, 16, ROW_MAJOR);

        // Per-element at workgroup scope.
        WG(32, 32) mw;
        coopMatLoad(mw, src, 0, 32, ROW_MAJOR);
        WG(32, 32) pw;
        coopMatPerElementNV(pw, mw, elemWg);
        coopMatStore(pw, dst, out0 + 512u, 32, ROW_MAJOR);

        // Decode at subgroup scope: subgroup sg loads block rows 8*sg+it...
        SG(16, 16) ds;
        coopMatLoadTensorNV(ds, blk, 0, sliceTensorLayoutNV(tl, 8u * sg + it, 16, 4u * it, 16), decodeSg);
        coopMatStore(ds, dst, out0 + 1536u + sg * 256u, 16, ROW_MAJOR);

        // Decode at workgroup scope.
        WG(32, 32) dw;
        coopMatLoadTensorNV(dw, blk, 0, tl, decodeWg);
        coopMatStore(dw, dst, out0 + 2048u, 32, ROW_MAJOR);

        // Reduce at subgroup scope (each row folded) and at workgroup scope
        // (the whole matrix).
        SG(16, 16) rs;
        coopMatReduceNV(rs, ps, gl_CooperativeMatrixReduceRowNV, combine);
        coopMatStore(rs, dst, out0 + 3072u + sg * 256u, 16, ROW_MAJOR);
        WG(32, 32) rw;
        coopMatReduceNV(rw, mw, gl_CooperativeMatrixReduceRowAndColumnNV, combine);
        coopMatStore(rw, dst, out0 + 3584u, 32, ROW_MAJOR);
    }
}
