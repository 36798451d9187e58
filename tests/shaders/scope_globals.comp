#version 450 core
// The compiled tier's scope form (test_jit.c) on a shader shaped like
// ggml's flash attention: indices kept in Private globals that a
// per-element callback also reads, a Function variable with an
// initializer (spirv-opt's return flag of an inlined switch), and a block
// that only a specialization constant keeps out of reach, which reads each
// invocation's own index (ggml's shared-memory table of iq4_nl).  With
// MODE = 0 (the default) nothing the tier runs differs between
// invocations; MODE = 1 reaches that block and keeps the shader on the
// interpreter.  Push constants: M, N, K as in scope_nv2.comp.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint MODE = 0;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
layout(push_constant) uniform P { uint M; uint N; uint K; uint spin; } pc;

shared float table[16];
uint tm, tn, rowScale;

uint blockElems(uint mode)
{
    switch (mode) {
    case 0u: return 1u;
    case 1u: return 4u;
    case 7u: return 32u;
    }
    return 2u;
}

bool needsTable(uint mode)
{
    switch (mode) {
    case 1u: return true;
    case 7u: return true;
    }
    return false;
}

float scaled(const in uint32_t row, const in uint32_t col, const in float x)
{
    return x * float((tm + row) % rowScale) + float(tn + col) + table[col % 16u];
}

void main()
{
    tm = gl_WorkGroupID.y * 32u;
    tn = gl_WorkGroupID.x * 32u;
    rowScale = 3u + blockElems(MODE);
    if (needsTable(MODE)) {
        for (uint i = gl_LocalInvocationIndex; i < 16u; i += gl_WorkGroupSize.x)
            table[i] = float(i);
    } else {
        for (uint i = 0u; i < 16u; i++)
            table[i] = 0.5 * float(i & 1u);
    }
    barrier();
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tA =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tB =
        createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
    tensorLayoutNV<2> tC = createTensorLayoutNV(2);
    tA = setTensorLayoutDimensionNV(tA, pc.M, pc.K);
    tB = setTensorLayoutDimensionNV(tB, pc.K, pc.N);
    tC = setTensorLayoutDimensionNV(tC, pc.M, pc.N);
    coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeWorkgroup, 32, 32, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0u; k < pc.K; k += 16u) {
        coopmat<float16_t, gl_ScopeWorkgroup, 32, 16, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeWorkgroup, 16, 32, gl_MatrixUseB> mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(tA, tm, 32, k, 16));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(tB, k, 16, tn, 32));
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatPerElementNV(acc, acc, scaled);
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tC, tm, 32, tn, 32));
}
