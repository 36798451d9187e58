#version 450
// Integer atomics from many workgroups at once (run on several threads):
// device-wide totals, per-workgroup slots whose returned values show the
// lane order, Workgroup-memory counters, 64-bit atomics, load and store.
// build.sh rewrites the atomicAdd by 12345u into OpAtomicIIncrement, by
// 23456u into OpAtomicIDecrement and by 34567u into OpAtomicISub 34567.
#extension GL_EXT_shader_atomic_int64 : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable
#extension GL_KHR_memory_scope_semantics : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals {
    uint add; uint inc; uint dec; uint sub; int smin; int smax; uint umin; uint umax;
    uint and_; uint or_; uint xor_; uint next; uint pad0; uint pad1;
    uint64_t add64; int64_t smin64; uint64_t umax64; uint64_t xor64;
} t;
layout(std430, binding = 1) readonly buffer In { uint v[]; };
// per workgroup: 0 add slot, 1 exchange slot, 2 compare-exchange chain,
// 3 shared-memory count, 4 stored value
layout(std430, binding = 2) buffer Slots { uint slot[]; };
// per invocation: 0 ticket, 1 old of add, 2 old of exchange, 3 old of
// compare-exchange, 4 loaded value
layout(std430, binding = 3) buffer Rets { uint ret[]; };
layout(push_constant) uniform P { uint n; } pc;
shared uint s_count;

void main()
{
    uint i = gl_GlobalInvocationID.x, g = gl_WorkGroupID.x, l = gl_LocalInvocationIndex;
    if (l == 0u)
        s_count = 0u;
    barrier();
    uint x = v[i];
    if (l % 3u != 0u) {   // divergent: a third of the lanes sit out
        atomicAdd(t.add, x);
        atomicAdd(t.inc, 12345u);
        atomicAdd(t.dec, 23456u);
        atomicAdd(t.sub, 34567u);
        atomicMin(t.smin, int(x));
        atomicMax(t.smax, int(x));
        atomicMin(t.umin, x);
        atomicMax(t.umax, x);
        atomicAnd(t.and_, x | 0x0f0f0000u);
        atomicOr(t.or_, x & 0x00ff00ffu);
        atomicXor(t.xor_, x);
        ret[0u * pc.n + i] = atomicAdd(t.next, 1u);
        atomicAdd(t.add64, uint64_t(x) << 20);
        atomicMin(t.smin64, int64_t(int(x)) * 4096l);
        atomicMax(t.umax64, uint64_t(x) * 3ul);
        atomicXor(t.xor64, uint64_t(x) << 32 | uint64_t(i));
        ret[1u * pc.n + i] = atomicAdd(slot[5u * g + 0u], x & 0xffffu);
        ret[2u * pc.n + i] = atomicExchange(slot[5u * g + 1u], l + 1000u);
        ret[3u * pc.n + i] = atomicCompSwap(slot[5u * g + 2u], l / 3u * 2u + (l % 3u) - 1u, l / 3u * 2u + (l % 3u));
        atomicAdd(s_count, 1u);
    }
    barrier();
    if (l == 0u) {
        slot[5u * g + 3u] = s_count;
        atomicStore(slot[5u * g + 4u], g * 7u + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    }
    ret[4u * pc.n + i] = atomicLoad(v[i ^ 1u], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}
