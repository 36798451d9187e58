#!/usr/bin/env python3
"""The EXPECT lines of tests/jit/scope_branches*.amber, from a model of
scope_branches.comp written from its GLSL alone (the buffers the scripts
give: v = 0, 1, ...; k = 4, bias = 10, 20, 30, 40), with coopvm's element
ownership of a subgroup matrix (ops/composite.c) not needed: only whole
matrices are stored.  With GROUPS (default 2), the lines of a dispatch of
that many workgroups (scope_branches_by_size.amber: 256), the last
workgroup's too.
usage: scope_branches.py [GROUPS]
"""
import sys
K = 4
BIAS = [10, 20, 30, 40]
GROUPS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
LOCAL = 64
v = [float(i) for i in range(GROUPS * 256)]
out_v = list(v)
o = {}
for wg in range(GROUPS):
    base = wg * 256
    # subgroup 0 stores the doubled matrix transposed; subgroup 1 nothing
    for r in range(16):
        for c in range(16):
            out_v[base + c * 16 + r] = v[base + r * 16 + c] * 2.0
    for li in range(LOCAL):
        gi = wg * LOCAL + li
        scale = K + 1
        a = li
        if li & 1 == 0:
            a = (a * scale + BIAS[2]) & 0xffffffff
            a += 1000 if li < 8 else 2000
        elif li > 100:
            a = 7
        b = (a + scale) & 0xffffffff if li % 3 == 0 else 0
        o[gi * 4 + 0], o[gi * 4 + 1], o[gi * 4 + 2] = a, b, scale
last = (GROUPS - 1) * 256
vs = [0, 17, 16 * 5 + 3, 256 + 255, 256 + 16]
gis = [0, 1, 2, 3, 6, 9, 63, 64 + 12, 127]
if GROUPS > 2:
    vs += [last + 16 * 7 + 2, last + 255]
    gis += [(GROUPS - 1) * LOCAL + 6, GROUPS * LOCAL - 1]
for k in vs:
    print("EXPECT v IDX %d EQ %r" % (k * 4, out_v[k]))
for gi in gis:
    print("EXPECT o IDX %d EQ %d %d %d" % (gi * 16, o[gi * 4], o[gi * 4 + 1], o[gi * 4 + 2]))
