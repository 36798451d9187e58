#version 450
// Control flow that tests the uniformity analysis (exec/uniform.h): values
// and Function variables that are uniform, and ones that only look uniform
// but are not (temporal divergence after a loop with a divergent exit,
// stores under a divergent branch, phis after one, a divergent break or
// continue in a uniform loop, nested loops, a callee called under a
// divergent branch, switches).  tests/unit/test_uniform.c models every
// output in C.  uniform_flow.opt.spv is the same shader through
// `spirv-opt -O` (variables become phis).
layout(local_size_x = 48) in;
layout(std430, binding = 0) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint n; uint m; } pc;

uint callee(uint x, uint lane)
{
    uint s = 0u;
    for (uint j = 0u; j < pc.m; j++)     // a uniform loop inside a callee
        s += j * 3u + x;
    uint t = 0u;
    for (uint j = 0u; j < (lane & 3u); j++)  // a divergent one
        t += j + 1u;
    return s * 7u + t;
}

void main()
{
    uint lane = gl_LocalInvocationID.x;
    uint g = gl_WorkGroupID.x;
    uint base = g * 100u + pc.m;          // uniform
    uint idx = g * 48u + lane;
    uint r0, r1, r2, r3, r4, r5, r6, r7;

    // 1: temporal divergence: a loop with a divergent exit; w looks uniform
    uint w = 0u;
    uint k = 0u;
    for (; k < (lane % 5u); k++)
        w = base * 2u + k;                // differs per lane after the loop
    r0 = w * 10u + k;

    // 2: a uniform loop with a divergent break
    uint s = 0u;
    uint i;
    for (i = 0u; i < 8u; i++) {
        if (i == lane % 9u)
            break;
        s += i + base;
    }
    r1 = s + i * 1000u;

    // 3: a uniform loop with a divergent continue
    uint s2 = 0u;
    for (uint q = 0u; q < 6u; q++) {
        if (((lane >> q) & 1u) != 0u)
            continue;
        s2 += q * base + 1u;
    }
    r2 = s2;

    // 4: a store under a divergent branch
    uint u = base;
    if (lane < 5u)
        u = 3u;
    uint u2 = u++;                        // the loaded value used after the store
    r3 = u + u2 * 1000u;

    // 5: a uniform branch storing in both arms, a uniform loop, a switch on
    // a uniform value and one on a divergent value
    uint v;
    if (pc.m > 2u)
        v = base + 1u;
    else
        v = base + 2u;
    uint acc = 0u;
    for (uint j = 0u; j < pc.m; j++)
        acc += v * j;
    switch (pc.m & 3u) {
    case 0u: acc += 11u; break;
    case 1u: acc += 13u; break;
    default: acc += 17u; break;
    }
    uint z = 0u;
    switch (lane & 3u) {
    case 0u: z = acc; break;
    case 1u: z = acc * 2u; break;
    default: z = base; break;
    }
    r4 = acc + z;

    // 6: nested loops: an inner loop with a divergent exit inside a
    // uniform outer loop, uniform values of the outer loop used after it
    uint tot = 0u;
    for (uint a = 0u; a < 3u; a++) {
        uint outer = base + a * 5u;       // uniform in the outer loop
        uint b = 0u;
        while (b < (lane & 7u) + a) {
            tot += outer + b;
            b++;
        }
        tot += outer * 2u;
    }
    r5 = tot;

    // 7: a callee under a divergent branch, and a uniform one
    r6 = (lane & 1u) != 0u ? callee(base, lane) : callee(lane, lane) + 1u;

    // 8: a while loop whose exit depends on a uniform variable
    uint c = pc.m + 3u, steps = 0u;
    while (c != 1u) {
        c = (c & 1u) != 0u ? 3u * c + 1u : c / 2u;
        steps++;
    }
    r7 = steps * 100u + c;

    // 9: a divergent branch whose arms both give uniform values (a phi of
    // uniform values that is not uniform; the store keeps the optimiser
    // from turning the branch into a select)
    uint ph = base * 3u, ph_else = base + 7u;
    if (lane % 3u == 0u)
        o[idx * 10u + 9u] = 1u;
    else
        ph = ph_else;

    // an early return for some lanes, then uniform work by the others
    if (idx >= pc.n) {
        o[idx * 10u] = 0xdeadu;
        return;
    }
    uint late = 0u;
    for (uint j = 0u; j < 4u; j++)
        late += base * j;
    o[idx * 10u + 0u] = r0;
    o[idx * 10u + 1u] = r1;
    o[idx * 10u + 2u] = r2;
    o[idx * 10u + 3u] = r3;
    o[idx * 10u + 4u] = r4;
    o[idx * 10u + 5u] = r5;
    o[idx * 10u + 6u] = r6;
    o[idx * 10u + 7u] = r7;
    o[idx * 10u + 8u] = late;
    o[idx * 10u + 9u] = ph;
}
