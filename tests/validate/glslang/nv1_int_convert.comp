#version 450 core
// SPV_NV_cooperative_matrix as glslang emits it (GL_NV_cooperative_matrix,
// GL_NV_integer_cooperative_matrix): a change of signedness is an OpBitcast
// of the matrix, integer matrices are scaled with OpMatrixTimesScalar.
// Built by build.sh; validated by test_validate (every module under tests/).
#pragma use_vulkan_memory_model
#extension GL_NV_cooperative_matrix : enable
#extension GL_NV_integer_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(set=0, binding=0) buffer A { uint32_t a[]; };
layout(set=0, binding=1) buffer B { int32_t b[]; };
layout(set=0, binding=2) buffer C { float16_t c[]; };
layout(set=0, binding=3) buffer D { float d[]; };
void main() {
  icoopmatNV<32, gl_ScopeSubgroup, 16, 16> mi;
  ucoopmatNV<32, gl_ScopeSubgroup, 16, 16> mu;
  coopMatLoadNV(mu, a, 0, 16, false);
  mi = icoopmatNV<32, gl_ScopeSubgroup, 16, 16>(mu);
  mi = mi * 3;
  mi = mi / icoopmatNV<32, gl_ScopeSubgroup, 16, 16>(2);
  mi = -mi;
  fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> mh;
  coopMatLoadNV(mh, c, 0, 16, false);
  fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> mf = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(mh);
  mf = mf * 2.0;
  mf = mf + fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(mi);
  for (int i = 0; i < mf.length(); ++i) mf[i] = mf[i] * 2.0;
  ucoopmatNV<32, gl_ScopeSubgroup, 16, 16> mu2 = ucoopmatNV<32, gl_ScopeSubgroup, 16, 16>(mi);
  coopMatStoreNV(mu2, a, 0, 16, false);
  coopMatStoreNV(mi, b, 0, 16, false);
  coopMatStoreNV(mf, d, 0, 16, false);
}
