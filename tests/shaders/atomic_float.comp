#version 450
// Float atomics (SPV_EXT_shader_atomic_float_add / _min_max): device-wide
// f32 and f64 sums of integers (exact whatever the order), f32 min/max, and
// per-workgroup f16/f32 running sums whose rounding depends on the (lane)
// order, with the value each lane got back.
#extension GL_EXT_shader_atomic_float : enable
#extension GL_EXT_shader_atomic_float2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable
#extension GL_EXT_shader_16bit_storage : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals { float fsum; float fmin_; float fmax_; uint pad; double dsum; } t;
layout(std430, binding = 1) readonly buffer In { float v[]; };
layout(std430, binding = 2) buffer Slots { float fslot[]; };        // per workgroup
layout(std430, binding = 3) buffer HSlots { float16_t hslot[]; };   // per workgroup
layout(std430, binding = 4) buffer Rets { float fret[]; };          // per invocation
layout(std430, binding = 5) buffer HRets { float16_t hret[]; };     // per invocation

void main()
{
    uint i = gl_GlobalInvocationID.x, g = gl_WorkGroupID.x, l = gl_LocalInvocationIndex;
    float x = v[i];
    if ((l & 4u) == 0u) {
        atomicAdd(t.fsum, floor(abs(x) * 100.0));
        atomicAdd(t.dsum, double(floor(abs(x) * 100.0)) * 1024.0);
        atomicMin(t.fmin_, x);
        atomicMax(t.fmax_, x);
        fret[i] = atomicAdd(fslot[g], x);
        hret[i] = atomicAdd(hslot[g], float16_t(x));
    }
}
