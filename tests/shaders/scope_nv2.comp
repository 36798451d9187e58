#version 450 core
// The compiled tier's scope form (test_jit.c) on cooperative matrix 2:
// workgroup-scope matrices shared by 64 invocations, tensor layouts and a
// transposing view held in variables (or, optimized, in phis), loads that
// reach past ragged edges (clamp to edge and constant clamp), a per-element
// callback, a row reduction and a tensor store clipped at the edges.
// Every value outside the matrices is uniform across the workgroup.
// Push constants: M, N, K (any, not multiples of the tiles), `spin`
// (nonzero: the loop never ends).
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
layout(std430, binding = 3) buffer R { float r[]; };
layout(push_constant) uniform P { uint M; uint N; uint K; uint spin; } pc;

float scaleByRow(const in uint32_t row, const in uint32_t col, const in float x)
{
    return x * float(row % 5u) - float(col);
}

float maxOf(const in float x, const in float y)
{
    return max(x, y);
}

void main()
{
    uint tm = gl_WorkGroupID.y * 32u, tn = gl_WorkGroupID.x * 32u;
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tA =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeClampToEdgeNV> tB =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeClampToEdgeNV);
    tensorLayoutNV<2> tC = createTensorLayoutNV(2);
    tA = setTensorLayoutDimensionNV(tA, pc.M, pc.K);
    tB = setTensorLayoutDimensionNV(tB, pc.N, pc.K);
    tC = setTensorLayoutDimensionNV(tC, pc.M, pc.N);
    tensorViewNV<2, false, 1, 0> vT = createTensorViewNV(2, false, 1, 0);

    coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator>(0.0);
    uint k = 0u;
    while (k < pc.K) {
        coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(tA, tm, 32, k, 16));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(tB, tn, 32, k, 16), vT);
        acc = coopMatMulAdd(ma, mb, acc);
        k += 16u;
        if (pc.spin != 0u)
            k = 0u;
    }
    if ((gl_WorkGroupID.x & 1u) != 0u)
        coopMatPerElementNV(acc, acc, scaleByRow);
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tC, tm, 32, tn, 32));
    coopmat<float, gl_ScopeWorkgroup, 32, 1, gl_MatrixUseAccumulator> rmax;
    coopMatReduceNV(rmax, acc, gl_CooperativeMatrixReduceRowNV, maxOf);
    coopMatStore(rmax, r, (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 32u, 1,
                 gl_CooperativeMatrixLayoutRowMajor);
}
