#!/usr/bin/env python3
"""The EXPECT lines of tests/jit/scope_loops*.amber, from a model of
scope_loops.comp written from its GLSL alone (the buffers the scripts give:
v = 0, 1, ...; k = 3).
usage: scope_loops.py
"""
K = 3
GROUPS, LOCAL = 2, 64
M32 = 0xffffffff
v = [float(i) for i in range(GROUPS * 256)]
out_v = [x * K for x in v]
o = {}
for wg in range(GROUPS):
    for li in range(LOCAL):
        gi = wg * LOCAL + li
        s = 0
        for i in range(li % 7):
            s = (s + i * K + 1) & M32
        t = li
        while True:
            t = (t * 3 + 1) & M32
            if not t < 100:
                break
        z = 5
        w = 0
        for i in range((li & 3) + 1):
            w += 10 if (i + li) & 1 == 0 else 1
        o[gi] = (s, t, z, w)
for k in [0, 37, 256 + 255]:
    print("EXPECT v IDX %d EQ %r" % (k * 4, out_v[k]))
for gi in [0, 1, 2, 5, 6, 7, 13, 33, 63, 64 + 20, 127]:
    print("EXPECT o IDX %d EQ %d %d %d %d" % ((gi * 16,) + o[gi]))
