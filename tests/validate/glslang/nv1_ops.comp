#version 450 core
// SPV_NV_cooperative_matrix as glslang emits it: spec-constant shapes, loads
// from a buffer (half, int8 as uvec4) and shared memory, MulAdd in float and
// int8, a matrix parameter, an array of matrices, per-element access, stores.
// Built by build.sh; validated by test_validate (every module under tests/).
#pragma use_vulkan_memory_model
#extension GL_NV_cooperative_matrix : enable
#extension GL_NV_integer_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int M = 16;
layout(constant_id = 2) const int N = 16;
layout(constant_id = 3) const int K = 16;
layout(set=0, binding=0) coherent buffer A { float16_t a[]; };
layout(set=0, binding=1) buffer B { int8_t b[]; };
layout(set=0, binding=2) buffer C { float c[]; };
layout(set=0, binding=3) buffer D { int32_t d[]; };
layout(set=0, binding=4) buffer E { uvec4 e[]; };
shared float16_t sh[256];
fcoopmatNV<32, gl_ScopeSubgroup, M, N> f(fcoopmatNV<32, gl_ScopeSubgroup, M, N> m) { return m * 0.5; }
void main() {
  fcoopmatNV<16, gl_ScopeSubgroup, M, K> ma;
  fcoopmatNV<16, gl_ScopeSubgroup, K, N> mb;
  fcoopmatNV<32, gl_ScopeSubgroup, M, N> mc = fcoopmatNV<32, gl_ScopeSubgroup, M, N>(0.0);
  coopMatLoadNV(ma, a, 0, K, false);
  sh[gl_LocalInvocationID.x] = a[gl_LocalInvocationID.x];
  barrier();
  coopMatLoadNV(mb, sh, 0, N, true);
  mc = coopMatMulAddNV(ma, mb, mc);
  mc = f(mc) - mc;
  mc = mc / fcoopmatNV<32, gl_ScopeSubgroup, M, N>(3.0);
  fcoopmatNV<32, gl_ScopeSubgroup, M, N> arr[2];
  arr[0] = mc; arr[1] = -mc;
  mc = arr[int(gl_LocalInvocationID.y) & 1];
  for (int i = 0; i < mc.length(); ++i) mc[i] = mc[i] + float(i);
  coopMatStoreNV(mc, c, 0, N, false);
  icoopmatNV<8, gl_ScopeSubgroup, M, K> ia;
  icoopmatNV<8, gl_ScopeSubgroup, K, N> ib;
  icoopmatNV<32, gl_ScopeSubgroup, M, N> ic = icoopmatNV<32, gl_ScopeSubgroup, M, N>(1);
  coopMatLoadNV(ia, b, 0, K, false);
  coopMatLoadNV(ib, e, 0, N / 16, false);
  ic = coopMatMulAddNV(ia, ib, ic);
  ic = ic - icoopmatNV<32, gl_ScopeSubgroup, M, N>(2);
  coopMatStoreNV(ic, d, 0, N, false);
  fcoopmatNV<16, gl_ScopeSubgroup, M, N> h16 = fcoopmatNV<16, gl_ScopeSubgroup, M, N>(mc);
  coopMatStoreNV(h16, a, 64, N, false);
}
