#version 450 core
// A block-quantized GEMM in the style of llama.cpp's coopmat2 matrix
// multiply (mul_mm_cm2): the weights A (M x K) are stored in blocks of 32
// along K, each an f16 scale and 16 bytes of 4-bit codes, and reach the
// cooperative matrix through a DecodeFunc; X is an f16 N x K matrix read
// through a transposing view.  C (M x N, f32) = dequant(A) * X^T, with
// workgroup-scope 64x64 tiles over 128 invocations, as
// bench_gemm_nv2_workgroup (whose time this case is measured against).
// Block layout (18 bytes): scale d (f16), then codes q[0..31], element j in
// byte j % 16, its low nibble for j < 16 and its high nibble otherwise;
// weight = (q - 8) * d.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint M = 192;
layout(constant_id = 1) const uint N = 128;
layout(constant_id = 2) const uint K = 160;

struct BlockQ4 { float16_t d; uint8_t q[16]; };
layout(std430, binding = 0) readonly buffer A { BlockQ4 a[]; };
layout(std430, binding = 1) readonly buffer X { float16_t x[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer BlockRef { BlockQ4 blk; };

float16_t dequantQ4(const in BlockRef b, const in uint32_t blockCoords[2],
                    const in uint32_t coordInBlock[2])
{
    uint j = coordInBlock[1];
    uint code = (uint(b.blk.q[j & 15u]) >> ((j >> 4) * 4u)) & 15u;
    return float16_t(float(int(code) - 8)) * b.blk.d;
}

void main()
{
    uint tm = gl_WorkGroupID.y * 64u, tn = gl_WorkGroupID.x * 64u;
    tensorLayoutNV<2> tA = createTensorLayoutNV(2);
    tA = setTensorLayoutBlockSizeNV(tA, 1, 32);
    tA = setTensorLayoutDimensionNV(tA, M, K);
    tensorLayoutNV<2> tX = createTensorLayoutNV(2);
    tX = setTensorLayoutDimensionNV(tX, N, K);
    tensorLayoutNV<2> tC = createTensorLayoutNV(2);
    tC = setTensorLayoutDimensionNV(tC, M, N);
    tensorViewNV<2, false, 1, 0> vT = createTensorViewNV(2, false, 1, 0);

    coopmat<float, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeWorkgroup, 64, 64, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0; k < K; k += 32u) {
        coopmat<float16_t, gl_ScopeWorkgroup, 64, 32, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeWorkgroup, 32, 64, gl_MatrixUseB> mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(tA, tm, 64, k, 32), dequantQ4);
        coopMatLoadTensorNV(mb, x, 0, sliceTensorLayoutNV(tX, tn, 64, k, 32), vT);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tC, tm, 64, tn, 64));
}
