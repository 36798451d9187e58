#version 450 core
// Which size turns a tensor element index into a byte offset when the
// buffer's element type differs from the matrix component type. The matrix-2
// text says the size of the matrix's component type; this case records what
// hardware does for an 8-bit matrix over a 32-bit buffer and a 32-bit matrix
// over a 16-bit buffer, on loads and on stores, with slices that start inside
// the tensor.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer W32 { uint32_t w32[]; };   // 512 words
layout(std430, binding = 1) readonly buffer W16 { uint16_t w16[]; };   // 1024 halves
layout(std430, binding = 2) writeonly buffer D8 { uint8_t d8[]; };     // 16x16 bytes
layout(std430, binding = 3) writeonly buffer D32 { uint32_t d32[]; };  // 16x16 words
layout(std430, binding = 4) buffer S32 { uint32_t s32[]; };            // store target, 512 words
layout(std430, binding = 5) buffer S16 { uint16_t s16[]; };            // store target, 1024 halves

#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#ifndef PART
#define PART 15
#endif

void main()
{
    tensorLayoutNV<2> t = createTensorLayoutNV(2);
    t = setTensorLayoutDimensionNV(t, 20, 24);
    coopmat<uint8_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m8 =
        coopmat<uint8_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(uint8_t(0x5A));
    coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m32 =
        coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0xA5A5A5A5u);

#if PART & 1   // an 8-bit matrix from the 32-bit buffer
    coopMatLoadTensorNV(m8, w32, 4, sliceTensorLayoutNV(t, 1, 16, 3, 16));
    coopMatStore(m8, d8, 0, 16, ROW_MAJOR);
#endif
#if PART & 2   // a 32-bit matrix from the 16-bit buffer
    coopMatLoadTensorNV(m32, w16, 8, sliceTensorLayoutNV(t, 2, 16, 5, 16));
    coopMatStore(m32, d32, 0, 16, ROW_MAJOR);
#endif
#if PART & 4   // the 8-bit matrix into the 32-bit buffer
    coopMatStoreTensorNV(m8, s32, 4, sliceTensorLayoutNV(t, 1, 16, 3, 16));
#endif
#if PART & 8   // the 32-bit matrix into the 16-bit buffer
    coopMatStoreTensorNV(m32, s16, 8, sliceTensorLayoutNV(t, 2, 16, 5, 16));
#endif
}
