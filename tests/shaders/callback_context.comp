#version 450 core
// Whose Private variables a cooperative-matrix callback sees (test_callback_context.c).
// `lane` is NOT uniform over the scope instance: each per-element call reads
// the value of the invocation it runs for, so the result depends on which
// invocation that is (the checking mode must report it); `calls` is written
// by the callback, and each invocation stores its own count afterwards.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint32_t WORKGROUP_SCOPE = 0;
layout(constant_id = 1) const uint32_t READ_LANE = 1;    // 0: the result reads no Private state
layout(std430, binding = 0) writeonly buffer Res { uint32_t res[]; };   // 2 x 256 or 1 x 256
layout(std430, binding = 1) writeonly buffer Calls { uint32_t ncalls[]; }; // 64

uint32_t lane;
uint32_t calls;

uint32_t tagSg(const in uint32_t row, const in uint32_t col, const in uint32_t e)
{
    calls++;
    return (READ_LANE != 0u ? lane * 1000u : 0u) + row * 16u + col;
}

void main()
{
    lane = gl_LocalInvocationIndex;
    calls = 0u;
    if (WORKGROUP_SCOPE == 0u) {
        coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m =
            coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0u);
        coopMatPerElementNV(m, m, tagSg);
        coopMatStore(m, res, (gl_LocalInvocationIndex / 32u) * 256u, 16, gl_CooperativeMatrixLayoutRowMajor);
    } else {
        coopmat<uint32_t, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseAccumulator> m =
            coopmat<uint32_t, gl_ScopeWorkgroup, 16, 16, gl_MatrixUseAccumulator>(0u);
        coopMatPerElementNV(m, m, tagSg);
        coopMatStore(m, res, 0, 16, gl_CooperativeMatrixLayoutRowMajor);
    }
    ncalls[gl_LocalInvocationIndex] = calls;
}
